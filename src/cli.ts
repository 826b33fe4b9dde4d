#!/usr/bin/env node
// Entry point of the `contracts` binary. How far the heap may grow is bounded for a run that holds
// many contracts (support/heap.ts): the binary chooses it here, a library caller never does.
import { processIo } from './cli/io.js';
import { runCli } from './cli/program.js';
import { boundHeapOnLargeLoads } from './support/heap.js';

boundHeapOnLargeLoads();

// A reader of standard error that went away is not an error of ours; one of standard output is
// met by processIo, which goes on writing to standard error.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
