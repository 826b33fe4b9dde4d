// How far V8 lets the heap grow before a full collection, for a run that holds many contracts.
// A plan of thousands of files allocates fast (each file parsed, then read again as its live
// contract arrives) around a small live set: V8's default lets the heap grow to up to four times
// what is live before collecting it. Growing by a quarter of the live set keeps peak memory near
// it, for a little more collecting (see docs/performance.md). A run of a few files never holds
// enough for it to matter, and does not load Node's v8 module for it.
//
// A V8 flag is the whole process's: only a program of ours sets it (the CLI binary, src/cli.ts,
// and the Action's entry), by choosing it as it starts. The loader only says that a load is large
// (largeLoad); a library caller of loadContracts, who never chose, keeps its process's flags.
// One module for the run in the CLI's bundles (scripts/build.mjs, ONE_PER_RUN), so that the
// entry's choice is the one the command's loader sees.
import { createRequire } from 'node:module';

let chosen = false;
let bounded = false;

/** The program's choice, as it starts: a large load bounds the heap's growth from then on. */
export function boundHeapOnLargeLoads(): void {
  chosen = true;
}

/** Said by the loader of a load that holds many contracts: bounds the heap, if the program chose it. */
export function largeLoad(): void {
  if (chosen) boundHeapGrowth();
}

/** Lets the heap grow by a quarter of what is live, from now on (once per process). */
function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  const v8 = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString('--heap-growing-percent=25');
}
