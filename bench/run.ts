// `npm run bench` (`-- --quick` for a short run): plan and apply at scale against the sandbox in
// a separate process, each beside its floor (the same requests from a minimal undici loop), plus
// validate throughput, start-up, peak memory and the diff engine's figures. Prints one table and
// writes .bench/results.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { planChecksum } from '../src/plan/create-plan.js';
import type { Plan } from '../src/plan/types.js';
import { mintToken } from '@contracts-gitops/sandbox';
import { spawnSandboxProcess } from '../test/helpers/sandbox-process.js';
import { generateWorkspace } from './generate.js';
import { sendAll, type FloorRequest } from './send-all.mjs';
import { median } from './timing.js';

const quick = process.argv.includes('--quick');
// npm scripts run from the package root.
const root = process.cwd();
const CLI = path.join(root, 'dist', 'cli.cjs');
const WRAPPER = path.join(root, 'bench', 'rss-wrapper.mjs');
const FLOOR_LOOP = path.join(root, 'bench', 'floor-loop.mjs');
const SECRET = 'bench-secret';
const CONCURRENCY = 8;
const RUNS = quick ? 1 : 3;
const PLAN_SIZES = quick ? [200, 1000] : [3000, 10_000];
const APPLY_SIZE = quick ? 200 : 1000;
/**
 * Milliseconds the sandbox adds to every request (`--faults latency=…`) in the rows that price the
 * tool against a catalog across a network, as real ones are; the targets are set on these.
 */
const LATENCIES_MS = quick ? [0, 5] : [0, 5, 20];
/**
 * The largest ratio to the per-name fetch floor (one GET a contract) plan may take, by latency
 * (issue #69: a full plan reads by pages, well under the floor of reading by name).
 */
const PLAN_TARGETS: Record<number, number> = { 20: 0.15 };
/**
 * The most plan's CPU may be against the least (bench/least.mjs: the files read and validated with
 * js-yaml and ajv, the live contracts read by the catalog's list), issue #69. It replaces issue
 * #50's ratio to the per-name minimal client, which stays as a row of its own.
 */
const LEAST_CPU_TARGET = 1.5;
/**
 * Settings a user with a memory limit can give plan, which take effect only as the process starts
 * (docs/performance.md, "Running with a memory limit"): Node's young generation capped at 4 MiB a
 * semi-space (the default grows to 16), which only NODE_OPTIONS or Node's command line sets; glibc's
 * malloc returning every block of 128 KiB or more to the system when it is freed (its default
 * raises that threshold to the largest block freed, so later blocks of that size stay in the
 * process), which only the environment sets; and both. Each is run at the largest plan size.
 */
const MEMORY_SETTINGS: { label: string; key: string; env: Record<string, string> }[] = [
  {
    label: 'NODE_OPTIONS=--max-semi-space-size=4',
    key: 'smallYoungGeneration',
    env: { NODE_OPTIONS: '--max-semi-space-size=4' },
  },
  {
    label: 'MALLOC_MMAP_THRESHOLD_=131072',
    key: 'fixedMmapThreshold',
    env: { MALLOC_MMAP_THRESHOLD_: '131072' },
  },
  {
    label: 'both',
    key: 'bothMemorySettings',
    env: { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_MMAP_THRESHOLD_: '131072' },
  },
];
const MINIMAL_CLIENT = path.join(root, 'bench', 'minimal-client.mjs');
const LEAST = path.join(root, 'bench', 'least.mjs');

interface Sandbox {
  url: string;
  stop(): Promise<void>;
}

/** `extra` follows the sandbox's own arguments (e.g. `--faults latency=2`). */
async function startSandbox(seedFile: string, extra: string[] = []): Promise<Sandbox> {
  const sandboxProcess = spawnSandboxProcess(['--seed', seedFile, '--secret', SECRET, ...extra], {
    cli: CLI,
  });
  const url = await sandboxProcess.url;
  return {
    url,
    stop: async () => {
      await sandboxProcess.stop();
    },
  };
}

/** What a timed process wrote at exit (bench/usage.mjs), read back; the file is removed. */
function readUsage(file: string): { rssKiB: number; cpuMs: number } {
  const [rssKiB, cpuMicros] = readFileSync(file, 'utf8').split(' ').map(Number) as [number, number];
  rmSync(file, { force: true });
  return { rssKiB, cpuMs: cpuMicros / 1000 };
}

async function timeCommand(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ ms: number; code: number; rssKiB: number; cpuMs: number }> {
  const rssFile = path.join(cwd, `.rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [WRAPPER, ...args], {
      cwd,
      env: { ...process.env, ...env, CONTRACTS_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  return { ms, code, ...readUsage(rssFile) };
}

/**
 * The minimal client (bench/minimal-client.mjs) as a process of its own, sending `requests` (plan's,
 * as the sandbox logged them) at the bench's concurrency: its time, and the CPU it used.
 */
async function timeMinimalClient(
  url: string,
  requests: FloorRequest[],
  dir: string,
): Promise<{ ms: number; cpuMs: number }> {
  const list = path.join(
    dir,
    `.minimal-${process.pid}-${Math.random().toString(36).slice(2)}.json`,
  );
  const usage = `${list}.usage`;
  writeFileSync(list, JSON.stringify(requests));
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [MINIMAL_CLIENT, list], {
      env: {
        ...process.env,
        CATALOG_URL: url,
        CATALOG_TOKEN: token,
        FLOOR_CONCURRENCY: String(CONCURRENCY),
        CONTRACTS_BENCH_RSS_FILE: usage,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  const { cpuMs } = readUsage(usage);
  rmSync(list, { force: true });
  if (code !== 0) throw new Error(`the minimal client exited ${code}`);
  return { ms, cpuMs };
}

/**
 * The least (bench/least.mjs) as a process of its own over the files in `dir`: the files validated
 * and the catalog's contracts read by its list; its time, and the CPU its threads used.
 */
async function timeLeast(url: string, dir: string): Promise<{ ms: number; cpuMs: number }> {
  const usage = path.join(dir, `.least-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [LEAST, path.join(dir, 'contracts')], {
      env: {
        ...process.env,
        CATALOG_URL: url,
        CATALOG_TOKEN: token,
        CONTRACTS_BENCH_RSS_FILE: usage,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  const { cpuMs } = readUsage(usage);
  rmSync(usage, { force: true });
  if (code !== 0) throw new Error(`the least exited ${code}`);
  return { ms, cpuMs };
}

/** `min / median / max` of `values`, each with `digits` decimals and `unit`. */
function spread(values: number[], digits: number, unit = ''): string {
  const sorted = [...values].sort((a, b) => a - b);
  const show = (v: number) => `${v.toFixed(digits)}${unit}`;
  return `${show(sorted[0]!)} / ${show(median(values))} / ${show(sorted[sorted.length - 1]!)}`;
}

/** `contracts plan` over the workspace's contracts at the bench's concurrency; it must succeed. */
async function timePlan(
  dir: string,
  env: Record<string, string>,
): Promise<{ ms: number; rssKiB: number; cpuMs: number }> {
  const plan = await timeCommand(
    ['plan', 'contracts', '--concurrency', String(CONCURRENCY)],
    dir,
    env,
  );
  if (plan.code !== 0) throw new Error(`plan exited ${plan.code}`);
  return plan;
}

/**
 * The same requests as the tool, from the smallest loop undici allows (bench/send-all.mjs), at the
 * same concurrency, in this long-running process.
 */
async function floor(url: string, token: string, requests: FloorRequest[]): Promise<number> {
  const pool = new Pool(new URL(url).origin, { connections: CONCURRENCY });
  const started = performance.now();
  const failure = await sendAll(pool, token, requests, CONCURRENCY);
  const ms = performance.now() - started;
  await pool.close();
  if (failure !== null) throw new Error(`floor: ${failure}`);
  return ms;
}

/**
 * The same loop as a process of its own (bench/floor-loop.mjs), timed from spawn to exit like the
 * tool: it pays for Node's start-up and for undici's first requests, which the loop above, in
 * this long-running process, does not.
 */
async function floorProcess(
  url: string,
  token: string,
  requests: FloorRequest[],
  dir: string,
): Promise<number> {
  const list = path.join(dir, `.floor-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(list, JSON.stringify(requests));
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [FLOOR_LOOP, list], {
      env: {
        ...process.env,
        CATALOG_URL: url,
        CATALOG_TOKEN: token,
        FLOOR_CONCURRENCY: String(CONCURRENCY),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  rmSync(list, { force: true });
  if (code !== 0) throw new Error(`the floor process exited ${code}`);
  return ms;
}

/** The GET by name plan sends for each contract. */
function contractGets(fqns: readonly string[]): FloorRequest[] {
  return fqns.map((fqn) => ({
    method: 'GET' as const,
    path: `/v1/dataContracts/name/${encodeURIComponent(fqn)}?fields=owners%2Creviewers%2Cextension`,
  }));
}

/** Empties the sandbox's request log (an admin route of the sandbox, outside the catalog interface). */
async function clearLog(url: string): Promise<void> {
  const response = await fetch(new URL('/sandbox/requests', url), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 204) throw new Error(`clearing the request log gave ${response.status}`);
}

/** The catalog GETs the sandbox logged since the log was cleared, in arrival order. */
async function loggedGets(url: string): Promise<FloorRequest[]> {
  const response = await fetch(new URL('/sandbox/requests', url), {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await response.json()) as {
    data: { method: string; path: string; query: string; status: number }[];
  };
  // The profile probe a spec catalog answers 404 is replayed by no floor: it is one request.
  return data
    .filter(
      (record) =>
        record.method === 'GET' && record.path.startsWith('/v1/') && record.status === 200,
    )
    .map((record) => ({
      method: 'GET' as const,
      path: record.query === '' ? record.path : `${record.path}?${record.query}`,
    }));
}

const work = mkdtempSync(path.join(tmpdir(), 'contracts-bench-'));
const results: Record<string, unknown> = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  // The machine's load (1-minute average) as the bench starts: what else ran on it. The bench's own
  // processes keep it near the core count while it runs (sampled below).
  loadAtStart: loadavg()[0],
  quick,
  runs: RUNS,
  concurrency: CONCURRENCY,
};
const rows: [string, string, string, string][] = [];
// The 1-minute load, every 10 s while the bench runs.
const loadSamples: number[] = [];
const sampling = setInterval(() => loadSamples.push(loadavg()[0]!), 10_000);
sampling.unref();

/**
 * A measured time and its ratio to the floor its target uses, then one indented row for each
 * other floor it is shown beside: [what it is beside, the floor's name, milliseconds].
 */
function pushBesideFloors(
  measure: string,
  ms: number,
  floor: [name: string, ms: number],
  others: [beside: string, name: string, ms: number][] = [],
): void {
  rows.push([
    measure,
    `${ms.toFixed(0)} ms`,
    `${floor[0]} ${floor[1].toFixed(0)} ms`,
    `${(ms / floor[1]).toFixed(2)}×`,
  ]);
  for (const [beside, name, floorMs] of others)
    rows.push([
      `  beside ${beside}`,
      '',
      `${name} ${floorMs.toFixed(0)} ms`,
      `${(ms / floorMs).toFixed(2)}×`,
    ]);
}

/**
 * Each plan size's workspace, the GET by name plan sends for each of its contracts, and the median
 * time of `validate` over its files (a whole process, with no sandbox running): what plan must do
 * before its first request, and the validate row's figure for the largest size.
 */
const planWorkspaces = new Map<
  number,
  {
    workspace: ReturnType<typeof generateWorkspace>;
    gets: FloorRequest[];
    /** Every GET plan sends, as the sandbox logged them: what the minimal client sends. */
    planRequests: FloorRequest[];
    validateMs: number;
    /** The plain loop over the same files (bench/plain-validate.mjs), RUNS times: time and CPU. */
    plain: { ms: number[]; cpuMs: number[] };
  }
>();

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
const token = await mintToken('alice', SECRET, '2h');

try {
  // Plan at scale, beside the fetch floor.
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
    await floor(sandbox.url, token, gets); // untimed: the sandbox's code warms up once
    for (let run = 0; run < RUNS; run++) {
      // Untimed: lets a sandbox that just served a plan settle, so no floor pays for it.
      await floor(sandbox.url, token, gets.slice(0, Math.min(500, n)));
      floorMs.push(await floor(sandbox.url, token, gets));
      processFloorMs.push(await floorProcess(sandbox.url, token, gets, dir));
      if (run > 0) ownFloorMs.push(await floor(sandbox.url, token, planRequests));
      await clearLog(sandbox.url);
      const plan = await timePlan(dir, env);
      planMs.push(plan.ms);
      rss.push(plan.rssKiB);
      if (run === 0) {
        planRequests = await loggedGets(sandbox.url);
        ownFloorMs.push(await floor(sandbox.url, token, planRequests));
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

  // Plan against a catalog that takes a few milliseconds per request, as a real one across a
  // network does: the sandbox adds the same latency to every request (`--faults`), for the floor
  // and for plan alike. Beside the time: the CPU plan's process used per contract, and its peak
  // memory.
  for (const latency of LATENCIES_MS) {
    for (const n of PLAN_SIZES) {
      const { workspace, gets, planRequests, validateMs, plain } = planWorkspaces.get(n)!;
      // The minimal client reads by name (issue #50's client, a row of its own since #69): plan's
      // other requests, and one GET a contract where plan read the list.
      const byNameRequests = [
        ...planRequests.filter((request) => request.path.split('?')[0] !== '/v1/dataContracts'),
        ...(planRequests.some((request) => request.path.split('?')[0] === '/v1/dataContracts')
          ? gets
          : []),
      ];
      const largest = n === PLAN_SIZES[PLAN_SIZES.length - 1];
      const sandbox = await startSandbox(
        workspace.seedFile,
        latency === 0 ? [] : ['--faults', `latency=${latency}`],
      );
      const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token };
      const planMs: number[] = [];
      const floorMs: number[] = [];
      const cpuMs: number[] = [];
      const rss: number[] = [];
      const minimalMs: number[] = [];
      const minimalCpuMs: number[] = [];
      const leastMs: number[] = [];
      const leastCpuMs: number[] = [];
      const limited = MEMORY_SETTINGS.map(() => [] as { cpuMs: number; rssKiB: number }[]);
      // Alternately, in each run: the floor, the minimal client sending plan's own requests by
      // name, the least, plan (and at the largest size, plan again with each of the
      // MEMORY_SETTINGS).
      for (let run = 0; run < RUNS; run++) {
        floorMs.push(await floor(sandbox.url, token, gets));
        const minimal = await timeMinimalClient(sandbox.url, byNameRequests, workspace.dir);
        minimalMs.push(minimal.ms);
        minimalCpuMs.push(minimal.cpuMs);
        const least = await timeLeast(sandbox.url, workspace.dir);
        leastMs.push(least.ms);
        leastCpuMs.push(least.cpuMs);
        const plan = await timePlan(workspace.dir, env);
        planMs.push(plan.ms);
        cpuMs.push(plan.cpuMs);
        rss.push(plan.rssKiB);
        if (largest)
          for (const [i, setting] of MEMORY_SETTINGS.entries())
            limited[i]!.push(await timePlan(workspace.dir, { ...env, ...setting.env }));
      }
      await sandbox.stop();
      // Each memory setting's median peak and CPU per contract (at the largest size only).
      const limitedMedians = limited.map((runs) => ({
        peakRssMiB: median(runs.map((r) => r.rssKiB)) / 1024,
        cpuMsPerContract: median(runs.map((r) => r.cpuMs)) / n,
      }));
      // Plan's CPU and time ÷ the least's in the same run (issue #69's yardstick).
      const leastCpuRatios = cpuMs.map((ms, run) => ms / leastCpuMs[run]!);
      const leastTimeRatios = planMs.map((ms, run) => ms / leastMs[run]!);
      const plainCpuMs = median(plain.cpuMs);
      const floorMedian = median(floorMs);
      const planMedian = median(planMs);
      const cpuPerContractMs = median(cpuMs) / n;
      const rssMiB = median(rss) / 1024;
      const ratio = planMedian / floorMedian;
      // Nearly the least a plan can take that sends nothing before every file is valid: the files
      // validated, then the floor, with nothing for the table lists, the planning or the output.
      const boundMs = validateMs + floorMedian;
      const boundRatio = boundMs / floorMedian;
      // Each run's plan beside the floor measured just before it: how far the machine's drift
      // within the benchmark moves the ratio of the medians.
      const runRatios = planMs.map((ms, run) => ms / floorMs[run]!);
      const target = n === PLAN_SIZES[PLAN_SIZES.length - 1] ? PLAN_TARGETS[latency] : undefined;
      results[`plan${n}Latency${latency}`] = {
        n,
        latencyMs: latency,
        planMs: planMedian,
        fetchFloorMs: floorMedian,
        ratio,
        target: target ?? null,
        cpuMsPerContract: cpuPerContractMs,
        peakRssMiB: rssMiB,
        runRatios,
        validateMs,
        validateThenFloorRatio: boundRatio,
        minimalClientMs: median(minimalMs),
        minimalClientCpuMsPerContract: median(minimalCpuMs) / n,
        plainValidateCpuMsPerContract: plainCpuMs / n,
        leastMs: median(leastMs),
        leastCpuMsPerContract: median(leastCpuMs) / n,
        leastCpuRatios,
        leastCpuTarget: LEAST_CPU_TARGET,
        leastTimeRatios,
        ...(largest
          ? Object.fromEntries(
              MEMORY_SETTINGS.map((setting, i) => [
                setting.key,
                { env: setting.env, ...limitedMedians[i]! },
              ]),
            )
          : {}),
      };
      rows.push([
        `plan, N = ${n.toLocaleString('en')}, catalog +${latency} ms a request`,
        `${planMedian.toFixed(0)} ms`,
        `fetch floor ${floorMedian.toFixed(0)} ms`,
        `${ratio.toFixed(2)}×${target === undefined ? '' : ` (≤ ${target}× ${ratio <= target ? '✓ met' : '✗ not met'})`}`,
      ]);
      rows.push([
        `  each run beside the floor just before it`,
        runRatios.map((r) => `${r.toFixed(2)}×`).join(' '),
        '',
        '',
      ]);
      rows.push([
        `  validate (${validateMs.toFixed(0)} ms), then the floor`,
        `${boundMs.toFixed(0)} ms`,
        '',
        `${boundRatio.toFixed(2)}×`,
      ]);
      rows.push([
        `  its CPU per contract, and peak memory`,
        `${(cpuPerContractMs * 1000).toFixed(0)} µs`,
        `${rssMiB.toFixed(0)} MiB`,
        '',
      ]);
      rows.push([
        `  the least (files validated, the list read by pages)`,
        `${median(leastMs).toFixed(0)} ms`,
        `${((median(leastCpuMs) / n) * 1000).toFixed(0)} µs CPU a contract`,
        '',
      ]);
      rows.push([
        `  plan's CPU ÷ the least's, min / median / max`,
        spread(leastCpuRatios, 2, '×'),
        '',
        largest
          ? `≤ ${LEAST_CPU_TARGET}× ${median(leastCpuRatios) <= LEAST_CPU_TARGET ? '✓ met' : '✗ not met'}`
          : '',
      ]);
      rows.push([`  plan's time ÷ the least's`, spread(leastTimeRatios, 2, '×'), '', '']);
      rows.push([
        `  the minimal client by name (${byNameRequests.length.toLocaleString('en')} requests, JSON.parse)`,
        `${median(minimalMs).toFixed(0)} ms`,
        `${((median(minimalCpuMs) / n) * 1000).toFixed(0)} µs CPU a contract`,
        '',
      ]);
      if (largest)
        for (const [i, setting] of MEMORY_SETTINGS.entries())
          rows.push([
            `  peak memory and CPU per contract with ${setting.label}`,
            `${limitedMedians[i]!.peakRssMiB.toFixed(0)} MiB`,
            `${(limitedMedians[i]!.cpuMsPerContract * 1000).toFixed(0)} µs`,
            '',
          ]);
      rows.push([`  plan ÷ the floor, min / median / max`, spread(runRatios, 2, '×'), '', '']);
    }
  }

  // Apply at scale, beside the patch floor; each measurement on a fresh sandbox.
  {
    const dir = path.join(work, `apply-${APPLY_SIZE}`);
    const workspace = generateWorkspace(dir, APPLY_SIZE, { changedFraction: 1 });
    const planFile = path.join(dir, 'plan.json');
    let sandbox = await startSandbox(workspace.seedFile);
    const made = await timeCommand(['plan', 'contracts', '--out', planFile], dir, {
      CATALOG_URL: sandbox.url,
      CATALOG_TOKEN: token,
    });
    if (made.code !== 0) throw new Error(`plan exited ${made.code}`);
    await sandbox.stop();
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as {
      changes: { id: string; action: string; patch: unknown[] }[];
    };
    const patches = plan.changes
      .filter((c) => c.action === 'update')
      .map((c) => ({
        method: 'PATCH' as const,
        path: `/v1/dataContracts/${c.id}`,
        body: JSON.stringify(c.patch),
      }));
    const applyMs: number[] = [];
    const floorMs: number[] = [];
    const processFloorMs: number[] = [];
    const ownFloorMs: number[] = [];
    // The reads apply must finish before its first PATCH (a saved plan is checked whole), as logged.
    let rereads: FloorRequest[] = [];
    // Those reads, then the PATCHes, on a fresh sandbox.
    const ownFloor = async (): Promise<number> => {
      const fresh = await startSandbox(workspace.seedFile);
      const ms =
        (await floor(fresh.url, token, rereads)) + (await floor(fresh.url, token, patches));
      await fresh.stop();
      return ms;
    };
    for (let run = 0; run < RUNS; run++) {
      sandbox = await startSandbox(workspace.seedFile);
      floorMs.push(await floor(sandbox.url, token, patches));
      await sandbox.stop();
      sandbox = await startSandbox(workspace.seedFile);
      processFloorMs.push(await floorProcess(sandbox.url, token, patches, dir));
      await sandbox.stop();
      if (run > 0) ownFloorMs.push(await ownFloor());
      sandbox = await startSandbox(workspace.seedFile);
      // The plan file names the catalog it was made for; point it at this sandbox, and seal it
      // again as plan would have.
      const moved = path.join(dir, `plan-${run}.json`);
      const repointed = {
        ...(JSON.parse(readFileSync(planFile, 'utf8')) as Plan),
        catalogUrl: sandbox.url,
      };
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

  // Apply against the slower catalogs too, beside its PATCH floor at the same latency.
  {
    const dir = path.join(work, `apply-${APPLY_SIZE}`);
    const seedFile = path.join(dir, 'seed.json');
    const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Plan;
    const patches = plan.changes
      .filter((c) => c.action === 'update')
      .map((c) => ({
        method: 'PATCH' as const,
        path: `/v1/dataContracts/${c.id!}`,
        body: JSON.stringify(c.patch),
      }));
    for (const latency of LATENCIES_MS.filter((ms) => ms > 0)) {
      const faults = ['--faults', `latency=${latency}`];
      const applyMs: number[] = [];
      const floorMs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        let sandbox = await startSandbox(seedFile, faults);
        floorMs.push(await floor(sandbox.url, token, patches));
        await sandbox.stop();
        sandbox = await startSandbox(seedFile, faults);
        const repointed = { ...plan, catalogUrl: sandbox.url };
        const moved = path.join(dir, `plan-latency-${latency}-${run}.json`);
        writeFileSync(moved, JSON.stringify({ ...repointed, checksum: planChecksum(repointed) }));
        const apply = await timeCommand(
          ['apply', moved, '--concurrency', String(CONCURRENCY)],
          dir,
          { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token },
        );
        await sandbox.stop();
        if (apply.code !== 0) throw new Error(`apply exited ${apply.code}`);
        applyMs.push(apply.ms);
      }
      const ratio = median(applyMs) / median(floorMs);
      results[`applyLatency${latency}`] = {
        n: patches.length,
        latencyMs: latency,
        applyMs: median(applyMs),
        patchFloorMs: median(floorMs),
        ratio,
      };
      pushBesideFloors(
        `apply, ${patches.length.toLocaleString('en')} changed, catalog +${latency} ms a request`,
        median(applyMs),
        ['patch floor', median(floorMs)],
      );
    }
  }

  // Validate throughput over the largest set (timed beside plan at scale, above), beside the plain
  // loop: js-yaml and ajv over the same files in as many threads (bench/plain-validate.mjs).
  {
    const n = PLAN_SIZES[PLAN_SIZES.length - 1]!;
    const { validateMs, plain } = planWorkspaces.get(n)!;
    const perSecond = n / (validateMs / 1000);
    const plainMs = plain.ms;
    const plainPerSecond = n / (median(plainMs) / 1000);
    const share = perSecond / plainPerSecond;
    results.validate = {
      files: n,
      ms: validateMs,
      filesPerSecond: perSecond,
      plainLoopMs: median(plainMs),
      plainLoopFilesPerSecond: plainPerSecond,
      ofPlainLoop: share,
    };
    rows.push([
      `validate, ${n.toLocaleString('en')} files`,
      `${validateMs.toFixed(0)} ms`,
      `${perSecond.toFixed(0)} files/s`,
      '',
    ]);
    rows.push([
      `  beside js-yaml + ajv, two threads (plain loop)`,
      `${median(plainMs).toFixed(0)} ms`,
      `${plainPerSecond.toFixed(0)} files/s`,
      `${share.toFixed(2)}× (≥ 0.85× ${share >= 0.85 ? '✓' : '✗'})`,
    ]);
  }

  // The slowest files to load: just under the size limit, each shape that once took quadratic
  // time (unknown keys, duplicate keys, invalid list items). Whole processes, each must stay < 2 s.
  {
    const head =
      'name: x\nfullyQualifiedName: a.b\nentity: {type: table, fullyQualifiedName: a.b}\n';
    const shapes: [string, (i: number) => string, string][] = [
      ['unknown keys', (i) => `k${i}: v\n`, ''],
      ['duplicate keys', () => '  k: 1\n', 'extension:\n'],
      ['invalid columns', (i) => `  - {name: c${i}, dataType: 5}\n`, 'schema:\n'],
    ];
    const worst = path.join(work, 'worst');
    mkdirSync(worst, { recursive: true });
    const times: Record<string, number> = {};
    for (const [label, line, opening] of shapes) {
      let text = `${head}${opening}`;
      for (let i = 0; text.length + 40 < 1024 * 1024; i++) text += line(i);
      const file = `${label.replace(/ /g, '-')}.yaml`;
      writeFileSync(path.join(worst, file), text);
      const ms: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const validate = await timeCommand(['validate', file], worst, {});
        if (validate.code !== 1) throw new Error(`validate of ${file} did not report its problems`);
        ms.push(validate.ms);
      }
      times[label] = median(ms);
      rows.push([
        `validate, one 1 MiB file of ${label}`,
        `${median(ms).toFixed(0)} ms`,
        median(ms) < 2000 ? '< 2 s ✓' : '< 2 s ✗',
        '',
      ]);
    }
    results.worstFile = times;
  }

  // Start-up.
  {
    const one = path.join(work, 'one');
    mkdirSync(one, { recursive: true });
    copyFileSync(path.join(root, 'contracts', 'orders.yaml'), path.join(one, 'orders.yaml'));
    // One of the standard's own examples, for the ODCS path (its schema's validator read from disk).
    const odcsExample = 'table-column.odcs.yaml';
    copyFileSync(
      path.join(root, 'test', 'fixtures', 'odcs-3.1.0', odcsExample),
      path.join(one, odcsExample),
    );
    const time = (args: string[]): number => {
      const samples: number[] = [];
      for (let i = 0; i < (quick ? 7 : 21); i++) {
        const started = performance.now();
        const result = spawnSync(process.execPath, args, { cwd: one, stdio: 'ignore' });
        if (result.status !== 0) throw new Error(`${args.join(' ')} failed`);
        samples.push(performance.now() - started);
      }
      return median(samples);
    };
    const node = time(['-e', '0']);
    const version = time([CLI, '--version']);
    const validateOne = time([CLI, 'validate', 'orders.yaml']);
    const validateOdcs = time([CLI, 'validate', odcsExample]);
    results.startup = {
      nodeMs: node,
      versionMs: version,
      validateOneMs: validateOne,
      validateOdcsMs: validateOdcs,
      versionRatio: version / node,
      validateOneRatio: validateOne / node,
    };
    rows.push(['start-up: node -e 0', `${node.toFixed(0)} ms`, '', '']);
    rows.push([
      'start-up: contracts --version',
      `${version.toFixed(0)} ms`,
      '',
      `${(version / node).toFixed(2)}× node`,
    ]);
    rows.push([
      'start-up: contracts validate (1 file)',
      `${validateOne.toFixed(0)} ms`,
      '',
      `${(validateOne / node).toFixed(2)}× node`,
    ]);
    rows.push([
      'start-up: contracts validate (1 ODCS file)',
      `${validateOdcs.toFixed(0)} ms`,
      '',
      `${(validateOdcs / node).toFixed(2)}× node`,
    ]);
  }

  // The diff engine (its own benchmark; quick mode in a quick run).
  {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/diff.ts', ...(quick ? ['--quick'] : [])],
      { cwd: root, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error('bench:diff failed');
    const diff = JSON.parse(readFileSync(path.join(root, '.bench', 'diff.json'), 'utf8')) as {
      medianRatio: number;
      combinedMicros: number;
      exact: boolean;
      worst: { kind: string; ratio: number };
    };
    results.diff = diff;
    rows.push([
      'diff, 200 columns: time vs fast-json-patch',
      `${diff.medianRatio.toFixed(2)}× (median)`,
      `worst ${diff.worst.ratio.toFixed(2)}×`,
      '',
    ]);
    rows.push([
      'diff, combined edit at 200 columns',
      `${diff.combinedMicros.toFixed(0)} µs`,
      '',
      '',
    ]);
    rows.push(['diff, minimal on all 48 cases', diff.exact ? 'yes' : 'NO', '', '']);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

clearInterval(sampling);
results.loadWhileRunning = {
  median: loadSamples.length === 0 ? null : median(loadSamples),
  max: loadSamples.length === 0 ? null : Math.max(...loadSamples),
};
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
const loadText = `load ${(results.loadAtStart as number).toFixed(2)} at the start${loadSamples.length === 0 ? '' : `, ${median(loadSamples).toFixed(2)} (median) and ${Math.max(...loadSamples).toFixed(2)} (max) while it ran`}`;
console.log(
  `\ncontracts-gitops benchmark (${quick ? 'quick' : 'full'}; medians of ${RUNS} run${RUNS === 1 ? '' : 's'}; concurrency ${CONCURRENCY}; Node ${process.version}; ${cpus().length} cores; ${loadText})\n`,
);
for (const row of rows)
  console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('   ')}`);
mkdirSync(path.join(root, '.bench'), { recursive: true });
writeFileSync(path.join(root, '.bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nSaved .bench/results.json');
