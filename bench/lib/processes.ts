// The processes the bench times (the CLI, the minimal client, the least, the floor's loop as a
// process) and the floor's loop in this process: each one's time, and the CPU and peak memory it
// wrote at exit (bench/usage.mjs).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'undici';
import { sendAll, type FloorRequest } from '../send-all.mjs';
import { CONCURRENCY, FLOOR_LOOP, LEAST, MINIMAL_CLIENT, WRAPPER } from './options.js';
import { token } from './sandbox.js';

/** What a timed process wrote at exit (bench/usage.mjs), read back; the file is removed. */
export function readUsage(file: string): { rssKiB: number; cpuMs: number } {
  const [rssKiB, cpuMicros] = readFileSync(file, 'utf8').split(' ').map(Number) as [number, number];
  rmSync(file, { force: true });
  return { rssKiB, cpuMs: cpuMicros / 1000 };
}

/** A name for a file of this run's, in `dir`, that no other has. */
function scratchFile(dir: string, prefix: string, suffix = ''): string {
  return path.join(
    dir,
    `.${prefix}-${process.pid}-${Math.random().toString(36).slice(2)}${suffix}`,
  );
}

export async function timeCommand(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ ms: number; code: number; rssKiB: number; cpuMs: number }> {
  const rssFile = scratchFile(cwd, 'rss');
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

/** A process of the bench's own (`script`, with `args`) against the catalog: its time and CPU. */
async function timeScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  usage: string,
): Promise<{ ms: number; cpuMs: number; code: number }> {
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env, CATALOG_TOKEN: token, CONTRACTS_BENCH_RSS_FILE: usage },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  const { cpuMs } = readUsage(usage);
  return { ms, cpuMs, code };
}

/**
 * The minimal client (bench/minimal-client.mjs) as a process of its own, sending `requests` (plan's,
 * as the sandbox logged them) at the bench's concurrency: its time, and the CPU it used.
 */
export async function timeMinimalClient(
  url: string,
  requests: FloorRequest[],
  dir: string,
): Promise<{ ms: number; cpuMs: number }> {
  const list = scratchFile(dir, 'minimal', '.json');
  writeFileSync(list, JSON.stringify(requests));
  const { ms, cpuMs, code } = await timeScript(
    MINIMAL_CLIENT,
    [list],
    { CATALOG_URL: url, FLOOR_CONCURRENCY: String(CONCURRENCY) },
    `${list}.usage`,
  );
  rmSync(list, { force: true });
  if (code !== 0) throw new Error(`the minimal client exited ${code}`);
  return { ms, cpuMs };
}

/**
 * The least (bench/least.mjs) as a process of its own over the files in `dir`: the files validated
 * and the catalog's contracts read by its list; its time, and the CPU its threads used.
 */
export async function timeLeast(
  url: string,
  dir: string,
): Promise<{ ms: number; cpuMs: number; rssKiB: number }> {
  const usage = scratchFile(dir, 'least');
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
  const { cpuMs, rssKiB } = readUsage(usage);
  if (code !== 0) throw new Error(`the least exited ${code}`);
  return { ms, cpuMs, rssKiB };
}

/** `contracts plan` over the workspace's contracts at the bench's concurrency; it must succeed. */
export async function timePlan(
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
export async function floor(url: string, requests: FloorRequest[]): Promise<number> {
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
export async function floorProcess(
  url: string,
  requests: FloorRequest[],
  dir: string,
): Promise<number> {
  const list = scratchFile(dir, 'floor', '.json');
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
export function contractGets(fqns: readonly string[]): FloorRequest[] {
  return fqns.map((fqn) => ({
    method: 'GET' as const,
    path: `/v1/dataContracts/name/${encodeURIComponent(fqn)}?fields=owners%2Creviewers%2Cextension`,
  }));
}
