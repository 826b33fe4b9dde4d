// Issue #69: plan of HUGE_SIZE contracts at +TARGET_LATENCY_MS, once: its time, CPU and peak
// memory against what it aims at, then the least once beside it. The sandbox builds its seed
// itself (bench/serve-generated.ts); the per-name floor is not timed here (it would take minutes).
// Not run under --quick.
import { rmSync } from 'node:fs';
import { generateWorkspace } from '../generate.js';
import {
  HUGE_MEMORY_TARGET_MIB,
  HUGE_SIZE,
  HUGE_WALL_TARGET_MS,
  TARGET_LATENCY_MS,
} from '../lib/options.js';
import { timeLeast, timePlan } from '../lib/processes.js';
import { mark, results, rows } from '../lib/report.js';
import { clearLog, loggedRequests, startGeneratedSandbox, token } from '../lib/sandbox.js';
import { memoryFolder } from '../lib/workspaces.js';

/** About what the HUGE_SIZE files take: 3.7 KB each, and room to spare. */
const FILES_BYTES = 400 * 1024 * 1024;

export async function hugeBlock(): Promise<void> {
  const n = HUGE_SIZE;
  const dir = memoryFolder(`plan-${n}`, FILES_BYTES);
  // The sandbox builds its seed while the files are written, each in a process of its own.
  const starting = startGeneratedSandbox(n, `latency=${TARGET_LATENCY_MS}`);
  let started = performance.now();
  const workspace = generateWorkspace(dir, n, { filesOnly: true });
  const generateMs = performance.now() - started;
  const sandbox = await starting;
  let plan: Awaited<ReturnType<typeof timePlan>>;
  let least: Awaited<ReturnType<typeof timeLeast>>;
  // The catalog requests plan sent, by path: how it read the live contracts.
  const requests: Record<string, number> = {};
  try {
    await clearLog(sandbox.url);
    plan = await timePlan(dir, { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token });
    for (const { path } of await loggedRequests(sandbox.url))
      if (path.startsWith('/v1/')) {
        const kind = path.startsWith('/v1/dataContracts/name/') ? '/v1/dataContracts/name/…' : path;
        requests[kind] = (requests[kind] ?? 0) + 1;
      }
    least = await timeLeast(sandbox.url, dir);
  } finally {
    await sandbox.stop();
  }
  started = performance.now();
  rmSync(dir, { recursive: true, force: true });
  const removeMs = performance.now() - started;
  const peakMiB = plan.rssKiB / 1024;
  results[`plan${n}Latency${TARGET_LATENCY_MS}`] = {
    n,
    latencyMs: TARGET_LATENCY_MS,
    runs: 1,
    changed: workspace.changed,
    generateFilesMs: generateMs,
    filesInMemory: dir.startsWith('/dev/shm'),
    sandboxStartMs: sandbox.startMs,
    removeFilesMs: removeMs,
    planMs: plan.ms,
    cpuMs: plan.cpuMs,
    cpuMsPerContract: plan.cpuMs / n,
    peakRssMiB: peakMiB,
    wallTargetMs: HUGE_WALL_TARGET_MS,
    wallMet: plan.ms <= HUGE_WALL_TARGET_MS,
    memoryTargetMiB: HUGE_MEMORY_TARGET_MIB,
    memoryMet: peakMiB <= HUGE_MEMORY_TARGET_MIB,
    requests,
    leastMs: least.ms,
    leastCpuMs: least.cpuMs,
    leastPeakRssMiB: least.rssKiB / 1024,
    cpuRatioToLeast: plan.cpuMs / least.cpuMs,
  };
  const label = `plan, N = ${n.toLocaleString('en')}, catalog +${TARGET_LATENCY_MS} ms (one run)`;
  rows.push([
    label,
    `${(plan.ms / 1000).toFixed(1)} s`,
    '',
    mark(plan.ms / 1000, HUGE_WALL_TARGET_MS / 1000, ' s'),
  ]);
  rows.push([
    `  its peak memory, and CPU`,
    `${peakMiB.toFixed(0)} MiB`,
    `${(plan.cpuMs / 1000).toFixed(1)} s CPU, ${((plan.cpuMs / n) * 1000).toFixed(0)} µs a contract`,
    mark(peakMiB, HUGE_MEMORY_TARGET_MIB, ' MiB'),
  ]);
  const total = Object.values(requests).reduce((sum, count) => sum + count, 0);
  const listPages = requests['/v1/dataContracts'] ?? 0;
  rows.push([
    `  its catalog requests, of them the list's pages and reads by name`,
    total.toLocaleString('en'),
    `${listPages.toLocaleString('en')} pages, ${(requests['/v1/dataContracts/name/…'] ?? 0).toLocaleString('en')} by name`,
    '',
  ]);
  rows.push([
    `  the least, once`,
    `${(least.ms / 1000).toFixed(1)} s`,
    `${(least.cpuMs / 1000).toFixed(1)} s CPU; plan's ${(plan.cpuMs / least.cpuMs).toFixed(2)}×`,
    '',
  ]);
  rows.push([
    `  files written (${dir.startsWith('/dev/shm') ? 'in memory' : 'on disk'}), sandbox started`,
    `${(generateMs / 1000).toFixed(1)} s`,
    `${(sandbox.startMs / 1000).toFixed(1)} s`,
    '',
  ]);
}
