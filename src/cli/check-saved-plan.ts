// The check of a saved plan before apply sends anything, as a person at a terminal sees it: a
// progress line for each of its two steps (its contracts read again; the plan made again from its
// files), and Ctrl-C or SIGTERM ending it at once, since nothing has been sent yet.
import type { LiveContract } from '../catalog/client.js';
import { readLiveForPlan } from '../apply/apply-plan.js';
import { listenForInterrupts, type InterruptSignal } from '../support/interrupts.js';
import { checkSavedPlan } from '../pipeline/saved-plan.js';
import type { CatalogReader } from '../read/read-plan-inputs.js';
import type { Plan } from '../plan/types.js';
import type { Codec } from '../profile/codec-types.js';
import type { ProfileSetting } from '../model/profile.js';
import type { Io } from './io.js';
import { progressLine } from './progress.js';
import { repositoryOf } from '../git/repository.js';

/** Thrown into the check when an interrupt arrives: it ends the check, not the process. */
class CheckInterrupted extends Error {}

/**
 * The live contracts of `plan`, checked (stale, edited, or not what its files make: an error,
 * nothing sent), or the signal that interrupted the check. The reads still out on an interrupt
 * are for the caller to drop (the client's close with `abandon`).
 */
export async function checkSavedPlanAtTerminal(
  plan: Plan,
  reader: CatalogReader,
  options: { profile: ProfileSetting; concurrency: number; codec: Codec },
  io: Io,
): Promise<
  { live: Map<string, LiveContract>; notes: string[] } | { interrupted: InterruptSignal }
> {
  // Quiet: the interrupt is answered below, once the check has stopped.
  const interrupt = listenForInterrupts(() => undefined, io.interruptible === true);
  const stopped = new Promise<never>((_, reject) =>
    interrupt.signal.addEventListener('abort', () => reject(new CheckInterrupted()), {
      once: true,
    }),
  );
  stopped.catch(() => undefined);
  /** `work`, or CheckInterrupted as soon as an interrupt arrives (the work goes on unheard). */
  const untilInterrupted = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return Promise.race([work, stopped]);
  };
  const reading = progressLine(io.stderr, 'Checking the plan: reading its contracts', {
    concurrency: options.concurrency,
  });
  const making = progressLine(io.stderr, 'Checking the plan against its files', {
    concurrency: options.concurrency,
  });
  try {
    const notes: string[] = [];
    const read = await untilInterrupted(
      readLiveForPlan(plan, reader, reading, { codec: options.codec, notes }),
    ).finally(() => reading.clear());
    const live = await untilInterrupted(
      checkSavedPlan(plan, {
        cwd: io.cwd,
        reader,
        profile: options.profile,
        live: read,
        progress: making,
        repository: repositoryOf(io.cwd, io.env),
      }),
    ).finally(() => making.clear());
    return { live, notes };
  } catch (error) {
    const signal = interrupt.received();
    if (error instanceof CheckInterrupted && signal !== null) return { interrupted: signal };
    throw error;
  } finally {
    interrupt.release();
  }
}
