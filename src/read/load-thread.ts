// The contract loader's second thread (started by load.ts when there are many files): takes
// chunks of the files from the counter it shares with the loader and posts each chunk's results.
// The build puts it beside each output that holds the loader, as load-thread.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import { loadChunks, type LoadWork } from './load-file.js';

await loadChunks(workerData as LoadWork, (chunk, results) =>
  parentPort!.postMessage({ chunk, results }),
);
