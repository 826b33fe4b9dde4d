// Plan at scale, beside the fetch floor (no latency added); it also times `validate` and the
// plain loop over each size's files, for the plan-latency and validate blocks.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { generateWorkspace } from '../generate.js';
import type { FloorRequest } from '../send-all.mjs';
import { median } from '../timing.js';
import { PLAN_SIZES, RUNS, root } from '../lib/options.js';
import {
  contractGets,
  floor,
  floorProcess,
  readUsage,
  timeCommand,
  timePlan,
} from '../lib/processes.js';
import { pushBesideFloors, results, rows } from '../lib/report.js';
import { clearLog, loggedGets, startSandbox, token } from '../lib/sandbox.js';
import { planWorkspaces, work } from '../lib/workspaces.js';

/**
 * The plain loop `validate` is judged against (js-yaml and ajv over the workspace's files, in two
 * threads; bench/plain-validate.mjs), RUNS times, each a process of its own: its time and the CPU
 * its threads used. Its CPU is also the least any plan can spend validating those files.
 */
function timePlainValidate(dir: string): { ms: number[]; cpuMs: number[] } {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const usage = path.join(dir, `.plain-${process.pid}-${run}.usage`);
    const started = performance.now();
    const plain = spawnSync(
      process.execPath,
      [path.join(root, 'bench', 'plain-validate.mjs'), path.join(dir, 'contracts')],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, CONTRACTS_BENCH_RSS_FILE: usage },
      },
    );
    if (plain.status !== 0) throw new Error('the plain validate loop failed');
    ms.push(performance.now() - started);
    cpuMs.push(readUsage(usage).cpuMs);
  }
  return { ms, cpuMs };
}

/** `contracts validate` over the workspace's contracts, RUNS times; they must be valid. */
async function timeValidate(dir: string): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const validate = await timeCommand(['validate', 'contracts'], dir, {});
    if (validate.code !== 0) throw new Error('validate failed');
    times.push(validate.ms);
  }
  return median(times);
}

export async function planBlock(): Promise<void> {
  for (const n of PLAN_SIZES) {
    const dir = path.join(work, `plan-${n}`);
    const workspace = generateWorkspace(dir, n);
    const sandbox = await startSandbox(workspace.seedFile);
    const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token };
    const gets = contractGets(workspace.fqns);
    const planMs: number[] = [];
    const floorMs: number[] = [];
    const processFloorMs: number[] = [];
    const ownFloorMs: number[] = [];
    const rss: number[] = [];
    // Every request plan sends (the GETs, and the live-asset searches beside them), as logged.
    let planRequests: FloorRequest[] = [];
    await floor(sandbox.url, gets); // untimed: the sandbox's code warms up once
    for (let run = 0; run < RUNS; run++) {
      // Untimed: lets a sandbox that just served a plan settle, so no floor pays for it.
      await floor(sandbox.url, gets.slice(0, Math.min(500, n)));
      floorMs.push(await floor(sandbox.url, gets));
      processFloorMs.push(await floorProcess(sandbox.url, gets, dir));
      if (run > 0) ownFloorMs.push(await floor(sandbox.url, planRequests));
      await clearLog(sandbox.url);
      const plan = await timePlan(dir, env);
      planMs.push(plan.ms);
      rss.push(plan.rssKiB);
      if (run === 0) {
        planRequests = await loggedGets(sandbox.url);
        ownFloorMs.push(await floor(sandbox.url, planRequests));
      }
    }
    await sandbox.stop();
    planWorkspaces.set(n, {
      workspace,
      gets,
      planRequests,
      validateMs: await timeValidate(dir),
      plain: timePlainValidate(dir),
    });
    const ratio = median(planMs) / median(floorMs);
    const processRatio = median(planMs) / median(processFloorMs);
    const ownRatio = median(planMs) / median(ownFloorMs);
    results[`plan${n}`] = {
      n,
      changed: workspace.changed,
      planMs: median(planMs),
      fetchFloorMs: median(floorMs),
      ratio,
      processFloorMs: median(processFloorMs),
      processRatio,
      requests: planRequests.length,
      requestsFloorMs: median(ownFloorMs),
      requestsRatio: ownRatio,
      peakRssMiB: median(rss) / 1024,
    };
    pushBesideFloors(
      `plan, N = ${n.toLocaleString('en')}`,
      median(planMs),
      ['fetch floor', median(floorMs)],
      [
        ['the same loop as a process of its own', 'its time', median(processFloorMs)],
        [
          `all ${planRequests.length.toLocaleString('en')} requests plan sends`,
          'their floor',
          median(ownFloorMs),
        ],
      ],
    );
    rows.push([
      `plan peak memory, N = ${n.toLocaleString('en')}`,
      `${(median(rss) / 1024).toFixed(0)} MiB`,
      '',
      '',
    ]);
  }
}
