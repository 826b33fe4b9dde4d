// Runs the built CLI's `contracts apply` on a pseudo-terminal (`script`), as a person's shell
// does, so that it prompts; the test answers, or interrupts, on what it shows.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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

/** The process running the built CLI among `root` and its descendants (`script` starts it). */
export function cliUnder(root: number): number | undefined {
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    let rows: string;
    try {
      rows = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
    } catch {
      continue; // No children.
    }
    for (const row of rows.split('\n')) {
      const match = /^\s*(\d+)\s+(.*)$/.exec(row);
      if (match === null) continue;
      // Node itself, not the shell `script` runs it with (`sh -c 'node' 'cli.cjs' apply`).
      if (match[2]!.startsWith(`${process.execPath} ${BUILT_CLI}`)) return Number(match[1]);
      queue.push(Number(match[1]));
    }
  }
  return undefined;
}
