// Apply at scale, beside the patch floor; each measurement on a fresh sandbox (no latency added).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { planChecksum } from '../../src/plan/create-plan.js';
import type { FloorRequest } from '../send-all.mjs';
import { median } from '../timing.js';
import { CONCURRENCY, RUNS } from '../lib/options.js';
import { floor, floorProcess, timeCommand } from '../lib/processes.js';
import { pushBesideFloors, results } from '../lib/report.js';
import { loggedGets, startSandbox, token } from '../lib/sandbox.js';
import { applyWorkspaceOf } from '../lib/workspaces.js';

export async function applyBlock(): Promise<void> {
  const { workspace, plan: saved, patches } = await applyWorkspaceOf();
  const dir = workspace.dir;
  const applyMs: number[] = [];
  const floorMs: number[] = [];
  const processFloorMs: number[] = [];
  const ownFloorMs: number[] = [];
  // The reads apply must finish before its first PATCH (a saved plan is checked whole), as logged.
  let rereads: FloorRequest[] = [];
  // Those reads, then the PATCHes, on a fresh sandbox.
  const ownFloor = async (): Promise<number> => {
    const fresh = await startSandbox(workspace.seedFile);
    const ms = (await floor(fresh.url, rereads)) + (await floor(fresh.url, patches));
    await fresh.stop();
    return ms;
  };
  for (let run = 0; run < RUNS; run++) {
    let sandbox = await startSandbox(workspace.seedFile);
    floorMs.push(await floor(sandbox.url, patches));
    await sandbox.stop();
    sandbox = await startSandbox(workspace.seedFile);
    processFloorMs.push(await floorProcess(sandbox.url, patches, dir));
    await sandbox.stop();
    if (run > 0) ownFloorMs.push(await ownFloor());
    sandbox = await startSandbox(workspace.seedFile);
    // The plan file names the catalog it was made for; point it at this sandbox, and seal it
    // again as plan would have.
    const moved = path.join(dir, `plan-${run}.json`);
    const repointed = { ...saved, catalogUrl: sandbox.url };
    writeFileSync(moved, JSON.stringify({ ...repointed, checksum: planChecksum(repointed) }));
    const apply = await timeCommand(['apply', moved, '--concurrency', String(CONCURRENCY)], dir, {
      CATALOG_URL: sandbox.url,
      CATALOG_TOKEN: token,
    });
    if (apply.code !== 0) throw new Error(`apply exited ${apply.code}`);
    applyMs.push(apply.ms);
    if (run === 0) rereads = await loggedGets(sandbox.url);
    await sandbox.stop();
    if (run === 0) ownFloorMs.push(await ownFloor());
  }
  const ratio = median(applyMs) / median(floorMs);
  const processRatio = median(applyMs) / median(processFloorMs);
  const ownRatio = median(applyMs) / median(ownFloorMs);
  results.apply = {
    n: patches.length,
    applyMs: median(applyMs),
    patchFloorMs: median(floorMs),
    ratio,
    processFloorMs: median(processFloorMs),
    processRatio,
    requests: rereads.length + patches.length,
    requestsFloorMs: median(ownFloorMs),
    requestsRatio: ownRatio,
  };
  pushBesideFloors(
    `apply, ${patches.length.toLocaleString('en')} changed`,
    median(applyMs),
    ['patch floor', median(floorMs)],
    [
      ['the same loop as a process of its own', 'its time', median(processFloorMs)],
      [
        `its ${rereads.length.toLocaleString('en')} reads, then the PATCHes`,
        'their floor',
        median(ownFloorMs),
      ],
    ],
  );
}
