// Runs the CLI in-process with captured output, as a user would call it.
import { runCli } from '../../src/cli/program.js';
import { captureIo } from './capture-io.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function cli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  const io = captureIo(options.cwd, options.env ?? {});
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}
