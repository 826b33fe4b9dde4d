// How far V8 lets the heap grow before a full collection, for a run that holds many contracts.
// A plan of thousands of files allocates fast (each file parsed, then read again as its live
// contract arrives) around a small live set: V8's default lets the heap grow to up to four times
// what is live before collecting it. Growing by a quarter of the live set keeps peak memory near
// it, for a little more collecting (see docs/performance.md). A run of a few files never holds
// enough for it to matter, and does not load Node's v8 module for it.
import { createRequire } from 'node:module';

let bounded = false;

/** Lets the heap grow by a quarter of what is live, from now on (once per process). */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  const v8 = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString('--heap-growing-percent=25');
}
