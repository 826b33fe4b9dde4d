// Runs the CLI in this process and, at exit, writes its peak memory and CPU (bench/usage.mjs).
// Used by the benchmark; needs no external tools.
import { createRequire } from 'node:module';
import { writeUsageAtExit } from './usage.mjs';

writeUsageAtExit();
process.argv = [
  process.argv[0],
  new URL('../dist/cli.cjs', import.meta.url).pathname,
  ...process.argv.slice(2),
];
createRequire(import.meta.url)('../dist/cli.cjs');
