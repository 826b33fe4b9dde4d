#!/usr/bin/env node
// Entry point of the `contracts` binary.
import { processIo } from './cli/io.js';
import { runCli } from './cli/program.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
