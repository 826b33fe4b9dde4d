// Runs `contracts sandbox serve` in its own process (the built CLI) and waits for its first line.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const CLI = path.resolve(import.meta.dirname, '../../dist/cli.cjs');

export interface SandboxProcess {
  child: ChildProcess;
  /** The base URL from the first line, `listening on http://HOST:PORT`. */
  url: Promise<string>;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `args` follow `sandbox serve`; `--port 0` is added unless given. */
export function spawnSandboxProcess(
  args: string[],
  options: { cwd?: string; cli?: string } = {},
): SandboxProcess {
  const portArgs = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(
    process.execPath,
    [options.cli ?? CLI, 'sandbox', 'serve', ...portArgs, ...args],
    {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /^listening on (\S+)\n/.exec(text);
      if (match !== null) resolve(match[1]!);
    });
    void exited.then((code) =>
      reject(new Error(`sandbox exited with ${String(code)} before listening`)),
    );
  });
  url.catch(() => undefined);
  return {
    child,
    url,
    stderr: () => stderr,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
