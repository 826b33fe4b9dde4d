// Issue #69: `contracts drift` and `contracts plan --prune` ÷ plan, at +TARGET_LATENCY_MS, over
// the managed workspace of LARGEST contracts (a git checkout whose contracts carry its marker,
// PRUNED of whose files a later commit deleted), each run of the three one after the other on one
// sandbox. drift exits 2 (the catalog differs from the files); an untimed `plan --prune --out`
// first checks that prune plans the deletions.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../../src/plan/types.js';
import { median } from '../timing.js';
import { DRIFT_PRUNE_TARGET, LARGEST, RUNS, TARGET_LATENCY_MS } from '../lib/options.js';
import { timeCommand, timePlan } from '../lib/processes.js';
import { mark, results, rows } from '../lib/report.js';
import { startSandbox, token } from '../lib/sandbox.js';
import { CONCURRENCY_FLAG, MANAGED_ENV, managedWorkspaceOf, PRUNED } from '../lib/workspaces.js';

export async function driftPruneBlock(): Promise<void> {
  const n = LARGEST;
  const { workspace, deleted, generateMs, gitMs } = managedWorkspaceOf(n, PRUNED);
  const dir = workspace.dir;
  const sandbox = await startSandbox(workspace.seedFile, [
    '--faults',
    `latency=${TARGET_LATENCY_MS}`,
  ]);
  const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token, ...MANAGED_ENV };
  const prune = ['plan', 'contracts', '--prune', ...CONCURRENCY_FLAG];
  // Untimed: prune must plan a deletion for each file deleted, and nothing else.
  const planFile = path.join(dir, 'pruned.json');
  const checked = await timeCommand([...prune, '--out', planFile], dir, env);
  if (checked.code !== 0) throw new Error(`plan --prune exited ${checked.code}`);
  const deletions = (JSON.parse(readFileSync(planFile, 'utf8')) as Plan).changes
    .filter((change) => change.action === 'delete')
    .map((change) => change.file)
    .sort();
  if (deletions.join() !== [...deleted].sort().join())
    throw new Error(
      `plan --prune planned ${deletions.length} deletions (${deletions.slice(0, 3).join(', ')}), not the ${deleted.length} files deleted`,
    );
  const planMs: number[] = [];
  const driftMs: number[] = [];
  const pruneMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    planMs.push((await timePlan(dir, env)).ms);
    const drift = await timeCommand(['drift', 'contracts', ...CONCURRENCY_FLAG], dir, env);
    if (drift.code !== 2)
      throw new Error(`drift exited ${drift.code}, not 2 (the catalog differs)`);
    driftMs.push(drift.ms);
    const pruned = await timeCommand(prune, dir, env);
    if (pruned.code !== 0) throw new Error(`plan --prune exited ${pruned.code}`);
    pruneMs.push(pruned.ms);
  }
  await sandbox.stop();
  const driftRatio = median(driftMs) / median(planMs);
  const pruneRatio = median(pruneMs) / median(planMs);
  results.driftPrune = {
    n,
    latencyMs: TARGET_LATENCY_MS,
    deletions: deletions.length,
    generateMs,
    gitMs,
    planMs: median(planMs),
    driftMs: median(driftMs),
    pruneMs: median(pruneMs),
    driftRatio,
    pruneRatio,
    driftRunRatios: driftMs.map((ms, run) => ms / planMs[run]!),
    pruneRunRatios: pruneMs.map((ms, run) => ms / planMs[run]!),
    target: DRIFT_PRUNE_TARGET,
    driftMet: driftRatio <= DRIFT_PRUNE_TARGET,
    pruneMet: pruneRatio <= DRIFT_PRUNE_TARGET,
  };
  const planText = `plan ${median(planMs).toFixed(0)} ms`;
  rows.push([
    `drift, N = ${n.toLocaleString('en')} in git, catalog +${TARGET_LATENCY_MS} ms (exit 2)`,
    `${median(driftMs).toFixed(0)} ms`,
    planText,
    `${driftRatio.toFixed(2)}× (${mark(driftRatio, DRIFT_PRUNE_TARGET)})`,
  ]);
  rows.push([
    `plan --prune, the same (${deletions.length} deletions planned)`,
    `${median(pruneMs).toFixed(0)} ms`,
    planText,
    `${pruneRatio.toFixed(2)}× (${mark(pruneRatio, DRIFT_PRUNE_TARGET)})`,
  ]);
}
