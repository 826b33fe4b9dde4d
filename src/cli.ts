#!/usr/bin/env node
// Entry point of the `contracts` binary.
import { processIo } from './cli/io.js';
import { runCli } from './cli/program.js';

// A reader that went away (`contracts plan | head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
