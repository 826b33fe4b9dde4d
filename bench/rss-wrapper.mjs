// Runs the CLI in this process and, at exit, writes its peak resident memory (KiB) to the file
// named by CONTRACTS_BENCH_RSS_FILE. Used by the benchmark; needs no external tools.
import { writeFileSync } from 'node:fs';

const out = process.env.CONTRACTS_BENCH_RSS_FILE;
process.on('exit', () => {
  if (out !== undefined) writeFileSync(out, String(process.resourceUsage().maxRSS));
});
process.argv = [
  process.argv[0],
  new URL('../dist/cli.js', import.meta.url).pathname,
  ...process.argv.slice(2),
];
await import('../dist/cli.js');
