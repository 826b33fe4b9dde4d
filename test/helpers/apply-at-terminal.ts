// Runs the built CLI's `contracts apply` on a pseudo-terminal (`script`), as a person's shell
// does, so that it prompts; the test answers, or interrupts, on what it shows.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

/** The built CLI that `applyAtTerminal` runs. */
export const BUILT_CLI = path.resolve(import.meta.dirname, '../../dist/cli.cjs');

/**
 * `contracts apply` in `c.cwd` with only `c.env` (and PATH, NO_COLOR, TERM=dumb); `onOutput` is
 * called with all the terminal has shown so far, each time more arrives, and with `script`'s
 * process (whose stdin is the terminal's input).
 */
export function applyAtTerminal(
  c: { cwd: string; env: Record<string, string> },
  onOutput: (out: string, child: ChildProcessWithoutNullStreams) => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'script',
      ['-qec', `'${process.execPath}' '${BUILT_CLI}' apply`, '/dev/null'],
      {
        cwd: c.cwd,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', TERM: 'dumb', ...c.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      onOutput(out, child);
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}
