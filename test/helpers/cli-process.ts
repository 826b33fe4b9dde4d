// Runs the built CLI (dist/cli.cjs) as a process of its own, as a user or CI would.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { CliRun } from './cli.js';

const CLI = path.resolve(import.meta.dirname, '../../dist/cli.cjs');

/** Only the variables given, with PATH and HOME, so nothing of the test's environment leaks in. */
export function cliProcess(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    /** Called with all of stdout so far, each time more arrives, and the process itself. */
    onStdout?: (out: string, child: ReturnType<typeof spawn>) => void;
    /** Called with the process once it is spawned. */
    onStart?: (child: ReturnType<typeof spawn>) => void;
  },
): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NO_COLOR: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onStart?.(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    options.onStdout?.(out, child);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}
