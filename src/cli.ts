#!/usr/bin/env node
// Entry point of the `contracts` binary.
import { setFlagsFromString } from 'node:v8';
import { processIo } from './cli/io.js';
import { runCli } from './cli/program.js';

// A plan allocates fast (thousands of files parsed, then read again one by one as their live
// contracts arrive) around a small live set: V8's default lets the heap grow to up to four times
// what is live before a full collection. Growing by a quarter of the live set keeps peak memory
// near it, for a little more collecting (see README, Performance).
setFlagsFromString('--heap-growing-percent=25');

// A reader of standard error that went away is not an error of ours; one of standard output is
// met by processIo, which goes on writing to standard error.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await runCli(process.argv.slice(2), processIo());
