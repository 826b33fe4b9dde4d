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

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
