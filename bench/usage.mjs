// What a process the benchmark times writes at exit, to the file named by
// CONTRACTS_BENCH_RSS_FILE: its peak resident memory (KiB) and the CPU its threads used (user +
// system, microseconds), as `RSS CPU`. The benchmark reads it back (bench/run.ts, readUsage).
import { writeFileSync } from 'node:fs';

export function writeUsageAtExit() {
  const out = process.env.CONTRACTS_BENCH_RSS_FILE;
  if (out === undefined) return;
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(out, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}`);
  });
}
