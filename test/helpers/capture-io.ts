// An Io that records every byte a command writes.
import type { Io } from '../../src/cli/io.js';

export interface CapturedIo extends Io {
  out(): string;
  err(): string;
}

export function captureIo(cwd: string, env: Record<string, string | undefined> = {}): CapturedIo {
  let stdout = '';
  let stderr = '';
  return {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env,
    cwd,
    stdinIsTTY: false,
    out: () => stdout,
    err: () => stderr,
  };
}
