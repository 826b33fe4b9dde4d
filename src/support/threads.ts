// Starts a thread of this program's own from its module `source` beside the caller
// (`http-thread.mjs`, `load-thread.ts`). In a build, the build puts each thread beside every
// output that starts it, as NAME.mjs. In the sources a .mjs module runs as it is, and a .ts one
// starts through support/ts-thread.mjs, which loads it with tsx (Node 20 cannot run a .ts module as a
// thread). Node's worker_threads is required only as a thread starts: a command that starts none
// (validate of a few files) does not load it.
import { createRequire } from 'node:module';
import type { Worker, WorkerOptions } from 'node:worker_threads';

export function startThread(callerUrl: string, source: string, options: WorkerOptions): Worker {
  const { Worker } = createRequire(import.meta.url)(
    'node:worker_threads',
  ) as typeof import('node:worker_threads');
  if (!callerUrl.endsWith('.ts')) {
    const built = `${source.slice(0, source.lastIndexOf('.'))}.mjs`;
    return new Worker(new URL(`./${built}`, callerUrl), options);
  }
  if (!source.endsWith('.ts')) return new Worker(new URL(`./${source}`, callerUrl), options);
  return new Worker(new URL('./ts-thread.mjs', import.meta.url), {
    ...options,
    argv: [new URL(`./${source}`, callerUrl).href],
  });
}
