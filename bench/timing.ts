// Median timing of a synchronous function: batches sized to ~1 ms, median of per-call averages.
export function medianMicros(fn: () => unknown, minBatches = 31): number {
  let batch = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = Number(process.hrtime.bigint() - start);
    if (elapsed > 1_000_000 || batch >= 1 << 16) break;
    batch *= 2;
  }
  const samples: number[] = [];
  for (let b = 0; b < minBatches; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / batch / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

/**
 * The median timings of two synchronous functions measured in alternation: `rounds` rounds of
 * `batchesPerRound` batches each, the first function first in even rounds and second in odd ones,
 * so that a passing slowdown of the machine, or whichever is measured first, weighs on both alike.
 * Each is the median of its rounds' medians.
 */
export function pairedMedianMicros(
  a: () => unknown,
  b: () => unknown,
  rounds: number,
  batchesPerRound: number,
): { a: number; b: number } {
  const timesA: number[] = [];
  const timesB: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      timesA.push(medianMicros(a, batchesPerRound));
      timesB.push(medianMicros(b, batchesPerRound));
    } else {
      timesB.push(medianMicros(b, batchesPerRound));
      timesA.push(medianMicros(a, batchesPerRound));
    }
  }
  return { a: median(timesA), b: median(timesB) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
