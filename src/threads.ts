// Starts a thread of this program's own from a module beside the caller: `NAME.mjs` in a build
// (the build puts it there), `NAME.ts` in the sources. Node 20 cannot run a .ts module as a
// thread, so from the sources (tests, tsx scripts) it starts through ts-thread.mjs, which loads
// it with tsx.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startThread(callerUrl: string, name: string, options: WorkerOptions): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, callerUrl), options);
  return new Worker(new URL('./ts-thread.mjs', import.meta.url), {
    ...options,
    argv: [new URL(`./${name}.ts`, callerUrl).href],
  });
}
