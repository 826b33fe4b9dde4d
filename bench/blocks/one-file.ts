// Issue #69: a plan of one file of a catalog of LARGEST contracts (a pull request's one changed
// file) ÷ the full plan of all of them, at +TARGET_LATENCY_MS, in the managed workspace (a git
// checkout, as a pull request's is), each run of one beside a run of the other on one sandbox.
import { median } from '../timing.js';
import { LARGEST, ONE_FILE_TARGET, RUNS, TARGET_LATENCY_MS } from '../lib/options.js';
import { timeCommand, timePlan } from '../lib/processes.js';
import { mark, results, rows, spread } from '../lib/report.js';
import { clearLog, loggedRequests, startSandbox, token } from '../lib/sandbox.js';
import { CONCURRENCY_FLAG, MANAGED_ENV, managedWorkspaceOf, PRUNED } from '../lib/workspaces.js';

export async function oneFileBlock(): Promise<void> {
  const n = LARGEST;
  const { workspace } = managedWorkspaceOf(n, PRUNED);
  // The middle of the catalog; none of the files deleted.
  const file = `contracts/table_${String(Math.floor(n / 2)).padStart(5, '0')}.yaml`;
  const sandbox = await startSandbox(workspace.seedFile, [
    '--faults',
    `latency=${TARGET_LATENCY_MS}`,
  ]);
  const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token, ...MANAGED_ENV };
  const fullMs: number[] = [];
  const oneMs: number[] = [];
  const oneCpuMs: number[] = [];
  let requests = 0;
  for (let run = 0; run < RUNS; run++) {
    fullMs.push((await timePlan(workspace.dir, env)).ms);
    await clearLog(sandbox.url);
    const one = await timeCommand(['plan', file, ...CONCURRENCY_FLAG], workspace.dir, env);
    if (one.code !== 0) throw new Error(`plan ${file} exited ${one.code}`);
    oneMs.push(one.ms);
    oneCpuMs.push(one.cpuMs);
    if (run === 0)
      requests = (await loggedRequests(sandbox.url)).filter((r) =>
        r.path.startsWith('/v1/'),
      ).length;
  }
  await sandbox.stop();
  const ratio = median(oneMs) / median(fullMs);
  const runRatios = oneMs.map((ms, run) => ms / fullMs[run]!);
  results.planOneFile = {
    n,
    latencyMs: TARGET_LATENCY_MS,
    file,
    oneFileMs: median(oneMs),
    oneFileCpuMs: median(oneCpuMs),
    requests,
    fullPlanMs: median(fullMs),
    ratio,
    runRatios,
    target: ONE_FILE_TARGET,
    met: ratio <= ONE_FILE_TARGET,
  };
  rows.push([
    `plan of one file, N = ${n.toLocaleString('en')} in git, catalog +${TARGET_LATENCY_MS} ms`,
    `${median(oneMs).toFixed(0)} ms`,
    `full plan ${median(fullMs).toFixed(0)} ms`,
    `${ratio.toFixed(2)}× (${mark(ratio, ONE_FILE_TARGET)})`,
  ]);
  rows.push([
    `  its ${requests} requests; each run ÷ the full plan before it`,
    runRatios.map((r) => `${r.toFixed(2)}×`).join(' '),
    '',
    RUNS > 1 ? spread(runRatios, 2, '×') : '',
  ]);
}
