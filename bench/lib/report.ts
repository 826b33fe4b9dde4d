// What a run of the bench reports: the rows of its table and the figures of .bench/results.json.
import { cpus, loadavg, totalmem } from 'node:os';
import { CONCURRENCY, RUNS, quick } from './options.js';
import { median } from '../timing.js';

export const results: Record<string, unknown> = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  // The machine's load (1-minute average) as the bench starts: what else ran on it. The bench's own
  // processes keep it near the core count while it runs (sampled below).
  loadAtStart: loadavg()[0],
  quick,
  runs: RUNS,
  concurrency: CONCURRENCY,
};
export const rows: [string, string, string, string][] = [];

/** `min / median / max` of `values`, each with `digits` decimals and `unit`. */
export function spread(values: number[], digits: number, unit = ''): string {
  const sorted = [...values].sort((a, b) => a - b);
  const show = (v: number) => `${v.toFixed(digits)}${unit}`;
  return `${show(sorted[0]!)} / ${show(median(values))} / ${show(sorted[sorted.length - 1]!)}`;
}

/** `≤ 1.5× ✓ met` or `≤ 1.5× ✗ not met`: `value` against the most it may be. */
export function mark(value: number, most: number, unit = '×'): string {
  return `≤ ${most}${unit} ${value <= most ? '✓ met' : '✗ not met'}`;
}

/**
 * A measured time and its ratio to the floor its target uses, then one indented row for each
 * other floor it is shown beside: [what it is beside, the floor's name, milliseconds].
 */
export function pushBesideFloors(
  measure: string,
  ms: number,
  floor: [name: string, ms: number],
  others: [beside: string, name: string, ms: number][] = [],
): void {
  rows.push([
    measure,
    `${ms.toFixed(0)} ms`,
    `${floor[0]} ${floor[1].toFixed(0)} ms`,
    `${(ms / floor[1]).toFixed(2)}×`,
  ]);
  for (const [beside, name, floorMs] of others)
    rows.push([
      `  beside ${beside}`,
      '',
      `${name} ${floorMs.toFixed(0)} ms`,
      `${(ms / floorMs).toFixed(2)}×`,
    ]);
}

// The 1-minute load, every 10 s while the bench runs.
const loadSamples: number[] = [];
const sampling = setInterval(() => loadSamples.push(loadavg()[0]!), 10_000);
sampling.unref();

/** Stops the load's sampling and prints the table, headed by the run's settings and load. */
export function printTable(only: readonly string[] | undefined): void {
  clearInterval(sampling);
  results.loadWhileRunning = {
    median: loadSamples.length === 0 ? null : median(loadSamples),
    max: loadSamples.length === 0 ? null : Math.max(...loadSamples),
  };
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  const loadText = `load ${(results.loadAtStart as number).toFixed(2)} at the start${loadSamples.length === 0 ? '' : `, ${median(loadSamples).toFixed(2)} (median) and ${Math.max(...loadSamples).toFixed(2)} (max) while it ran`}`;
  const onlyText = only === undefined ? '' : `; only ${only.join(', ')}`;
  console.log(
    `\ncontracts-gitops benchmark (${quick ? 'quick' : 'full'}${onlyText}; medians of ${RUNS} run${RUNS === 1 ? '' : 's'}; concurrency ${CONCURRENCY}; Node ${process.version}; ${cpus().length} cores; ${loadText})\n`,
  );
  for (const row of rows)
    console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('   ')}`);
}
