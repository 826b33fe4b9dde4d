// The sandbox each measurement runs against, in a process of its own, and what it logged.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { mintToken } from '@contracts-gitops/sandbox';
import { spawnSandboxProcess } from '../../test/helpers/sandbox-process.js';
import type { FloorRequest } from '../send-all.mjs';
import { CLI, SECRET, root } from './options.js';

export interface Sandbox {
  url: string;
  stop(): Promise<void>;
}

/** The bearer token of every request the bench sends or has sent (the seed's one user). */
export const token = await mintToken('alice', SECRET, '2h');

/** `extra` follows the sandbox's own arguments (e.g. `--faults latency=2`). */
export async function startSandbox(seedFile: string, extra: string[] = []): Promise<Sandbox> {
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

/**
 * The sandbox serving generate.ts's `n` contracts from a seed it builds itself
 * (bench/serve-generated.ts), for a catalog whose seed is too large for one JSON text; `faults` as
 * `sandbox serve --faults` takes them. Resolves once it listens, with the time it took to start
 * (from its process's start: Node's, building the seed, and the server's).
 */
export async function startGeneratedSandbox(
  n: number,
  faults: string,
): Promise<Sandbox & { startMs: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'serve-generated.ts'), String(n), faults],
    {
      cwd: root,
      env: { ...process.env, SANDBOX_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Its own start, timed in it: this process may be busy when it says so.
  const { url, startMs } = await new Promise<{ url: string; startMs: number }>(
    (resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /^listening on (\S+)\nstarted in (\d+) ms\n/.exec(text);
        if (match !== null) resolve({ url: match[1]!, startMs: Number(match[2]) });
      });
      void exited.then(() => reject(new Error('the generated sandbox exited before listening')));
    },
  );
  return {
    url,
    startMs,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Empties the sandbox's request log (an admin route of the sandbox, outside the catalog interface). */
export async function clearLog(url: string): Promise<void> {
  const response = await fetch(new URL('/sandbox/requests', url), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 204) throw new Error(`clearing the request log gave ${response.status}`);
}

/** Every request the sandbox logged since the log was cleared, in arrival order. */
export async function loggedRequests(
  url: string,
): Promise<{ method: string; path: string; query: string; status: number }[]> {
  const response = await fetch(new URL('/sandbox/requests', url), {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await response.json()) as {
    data: { method: string; path: string; query: string; status: number }[];
  };
  return data;
}

/** The catalog GETs the sandbox logged since the log was cleared, in arrival order. */
export async function loggedGets(url: string): Promise<FloorRequest[]> {
  // The profile probe a spec catalog answers 404 is replayed by no floor: it is one request.
  return (await loggedRequests(url))
    .filter(
      (record) =>
        record.method === 'GET' && record.path.startsWith('/v1/') && record.status === 200,
    )
    .map((record) => ({
      method: 'GET' as const,
      path: record.query === '' ? record.path : `${record.path}?${record.query}`,
    }));
}
