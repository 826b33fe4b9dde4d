// Runs a TypeScript module as a thread, from the sources (see support/threads.ts): registers tsx's
// loader in this thread, then imports the module named by the last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[process.argv.length - 1]);
