// Apply against the slower catalogs too, beside its PATCH floor at the same latency: from the
// saved plan at each latency, and at APPLY_TARGET_LATENCY_MS also fresh (`contracts apply contracts
// --auto-approve`: planned and applied in one process), each on a fresh sandbox, alternating with
// the floor. Issue #69 marks both against APPLY_TARGET there.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { planChecksum } from '../../src/plan/create-plan.js';
import { median } from '../timing.js';
import {
  APPLY_TARGET,
  APPLY_TARGET_LATENCY_MS,
  CONCURRENCY,
  LATENCIES_MS,
  RUNS,
} from '../lib/options.js';
import { floor, timeCommand } from '../lib/processes.js';
import { mark, pushBesideFloors, results, rows } from '../lib/report.js';
import { loggedRequests, startSandbox, token } from '../lib/sandbox.js';
import { applyWorkspaceOf } from '../lib/workspaces.js';

export async function applyLatencyBlock(): Promise<void> {
  const { workspace, plan, patches } = await applyWorkspaceOf();
  const { dir, seedFile } = workspace;
  for (const latency of LATENCIES_MS.filter((ms) => ms > 0)) {
    const faults = ['--faults', `latency=${latency}`];
    const targeted = latency === APPLY_TARGET_LATENCY_MS;
    const applyMs: number[] = [];
    const floorMs: number[] = [];
    const freshMs: number[] = [];
    // What the fresh apply sent in its first run, as the sandbox logged it.
    let freshRequests = { reads: 0, patches: 0, other: 0 };
    for (let run = 0; run < RUNS; run++) {
      let sandbox = await startSandbox(seedFile, faults);
      floorMs.push(await floor(sandbox.url, patches));
      await sandbox.stop();
      sandbox = await startSandbox(seedFile, faults);
      const repointed = { ...plan, catalogUrl: sandbox.url };
      const moved = path.join(dir, `plan-latency-${latency}-${run}.json`);
      writeFileSync(moved, JSON.stringify({ ...repointed, checksum: planChecksum(repointed) }));
      const apply = await timeCommand(['apply', moved, '--concurrency', String(CONCURRENCY)], dir, {
        CATALOG_URL: sandbox.url,
        CATALOG_TOKEN: token,
      });
      await sandbox.stop();
      if (apply.code !== 0) throw new Error(`apply exited ${apply.code}`);
      applyMs.push(apply.ms);
      if (!targeted) continue;
      sandbox = await startSandbox(seedFile, faults);
      const fresh = await timeCommand(
        ['apply', 'contracts', '--auto-approve', '--concurrency', String(CONCURRENCY)],
        dir,
        { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token },
      );
      if (fresh.code !== 0) {
        await sandbox.stop();
        throw new Error(`apply contracts --auto-approve exited ${fresh.code}`);
      }
      freshMs.push(fresh.ms);
      if (run === 0) {
        const logged = (await loggedRequests(sandbox.url)).filter((r) => r.path.startsWith('/v1/'));
        freshRequests = {
          reads: logged.filter((r) => r.method === 'GET').length,
          patches: logged.filter((r) => r.method === 'PATCH' && r.status === 200).length,
          other: logged.filter((r) => r.method !== 'GET' && r.method !== 'PATCH').length,
        };
        if (freshRequests.patches !== patches.length)
          throw new Error(
            `apply contracts --auto-approve sent ${freshRequests.patches} PATCHes, not ${patches.length}`,
          );
      }
      await sandbox.stop();
    }
    const ratio = median(applyMs) / median(floorMs);
    const freshRatio = targeted ? median(freshMs) / median(floorMs) : undefined;
    results[`applyLatency${latency}`] = {
      n: patches.length,
      latencyMs: latency,
      applyMs: median(applyMs),
      patchFloorMs: median(floorMs),
      ratio,
      ...(targeted
        ? {
            target: APPLY_TARGET,
            met: ratio <= APPLY_TARGET,
            freshApplyMs: median(freshMs),
            freshRatio,
            freshMet: freshRatio! <= APPLY_TARGET,
            freshRequests,
            runRatios: applyMs.map((ms, run) => ms / floorMs[run]!),
            freshRunRatios: freshMs.map((ms, run) => ms / floorMs[run]!),
          }
        : {}),
    };
    const label = `apply, ${patches.length.toLocaleString('en')} changed, catalog +${latency} ms a request`;
    if (!targeted) {
      pushBesideFloors(label, median(applyMs), ['patch floor', median(floorMs)]);
      continue;
    }
    rows.push([
      `${label}, from a saved plan`,
      `${median(applyMs).toFixed(0)} ms`,
      `patch floor ${median(floorMs).toFixed(0)} ms`,
      `${ratio.toFixed(2)}× (${mark(ratio, APPLY_TARGET)})`,
    ]);
    rows.push([
      `  fresh (apply contracts --auto-approve: ${freshRequests.reads.toLocaleString('en')} reads)`,
      `${median(freshMs).toFixed(0)} ms`,
      `patch floor ${median(floorMs).toFixed(0)} ms`,
      `${freshRatio!.toFixed(2)}× (${mark(freshRatio!, APPLY_TARGET)})`,
    ]);
  }
}
