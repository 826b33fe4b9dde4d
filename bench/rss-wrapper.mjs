// Runs the CLI in this process and, at exit, writes its peak resident memory (KiB) and the CPU
// time it used (user + system, microseconds) as `RSS CPU` to the file named by
// CONTRACTS_BENCH_RSS_FILE. Used by the benchmark; needs no external tools.
import { writeFileSync } from 'node:fs';

const out = process.env.CONTRACTS_BENCH_RSS_FILE;
process.on('exit', () => {
  if (out === undefined) return;
  const usage = process.resourceUsage();
  writeFileSync(out, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}`);
});
process.argv = [
  process.argv[0],
  new URL('../dist/cli.js', import.meta.url).pathname,
  ...process.argv.slice(2),
];
await import('../dist/cli.js');
