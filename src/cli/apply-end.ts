// How apply ends: the contracts it stored run on their data (--verify), the report (as people
// read it, or JSON), and the exit code; or, with nothing to apply, saying so.
import { renderReportSummary, renderResult, reportJson } from '../views/render-report.js';
import type { ApplyReport } from '../apply/apply-plan.js';
import type { CatalogClient } from '../catalog/client.js';
import {
  listenForInterrupts,
  SIGNAL_EXIT_CODES,
  type InterruptSignal,
} from '../support/interrupts.js';
import type { Plan } from '../plan/types.js';
import type { Profile } from '../model/profile.js';
import { renderVerificationHuman } from '../views/render-verify.js';
import { appliedTargets, type VerifyReport } from '../verify/verify-contracts.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { type Io } from './io.js';
import { colorsFor } from '../views/colors.js';
import { applyVerdict } from '../operations/apply.js';
import { verifyTargets } from '../operations/verify.js';

/** The options of apply that say how it ends. */
export interface EndOptions {
  json: boolean;
  color: boolean;
  /** `--verify`: run each contract created or changed on its data after applying it. */
  verify?: boolean;
  /** `--verify-timeout`: how long to wait for a running result, in seconds. */
  verifyTimeout?: number;
}

export function finish(
  report: ApplyReport,
  options: EndOptions,
  io: Io,
  signal: InterruptSignal | null = null,
  verified?: VerifyReport,
): number {
  const c = colorsFor(io.stdout, io.env, options.color);
  if (options.json)
    io.stdout.write(
      `${JSON.stringify(
        verified === undefined
          ? reportJson(report)
          : { ...(reportJson(report) as object), verification: verified },
        null,
        2,
      )}\n`,
    );
  else {
    // Standard output's reader went away during the apply: the lines written as each contract
    // ended may be lost with it, so every result is said again where the report now goes.
    if (io.stdout.closed === true)
      for (const result of report.results) {
        const text = renderResult(result, c);
        if (text !== null) io.stdout.write(`${text}\n`);
      }
    io.stdout.write(`\n${renderReportSummary(report, c)}`);
    if (verified !== undefined) io.stdout.write(`\n${renderVerificationHuman(verified, c)}`);
  }
  if (report.interrupted === true || signal !== null) return SIGNAL_EXIT_CODES[signal ?? 'SIGINT'];
  return applyVerdict(report, verified) === null ? EXIT_OK : EXIT_ERROR;
}

/**
 * `work`'s value, or the interrupt that came first: Ctrl-C or SIGTERM stops the wait (what `work`
 * started goes on where it runs), saying `doing`.
 */
async function untilInterrupted<T>(
  work: () => Promise<T>,
  io: Io,
  doing: string,
): Promise<{ value: T } | { interrupted: InterruptSignal }> {
  const interrupt = listenForInterrupts(
    (text) => io.stderr.write(text),
    io.interruptible === true,
    doing,
  );
  const stopped = new Promise<null>((resolve) =>
    interrupt.signal.addEventListener('abort', () => resolve(null), { once: true }),
  );
  try {
    const working = work().then((value) => ({ value }));
    working.catch(() => undefined);
    const done = await Promise.race([working, stopped]);
    const signal = interrupt.received();
    return done === null || signal !== null ? { interrupted: signal ?? 'SIGINT' } : done;
  } finally {
    interrupt.release();
  }
}

export function noChanges(plan: Plan, options: EndOptions, io: Io): number {
  if (options.json) {
    const unchanged = plan.changes.map((c) => ({
      status: 'unchanged' as const,
      file: c.file,
      fullyQualifiedName: c.fullyQualifiedName,
    }));
    io.stdout.write(
      `${JSON.stringify(reportJson({ results: unchanged, stoppedBy: null }), null, 2)}\n`,
    );
  } else {
    io.stdout.write('Nothing to apply.\n');
  }
  return EXIT_OK;
}

/**
 * How an apply that ran ends: with --verify, its contracts run on their data (an interrupt stops
 * the wait), then the report and the exit code; `received` is the interrupt the apply itself got.
 */
export async function verifiedEnd(
  report: ApplyReport,
  plan: Plan,
  client: CatalogClient,
  profile: Profile,
  options: EndOptions,
  io: Io,
  received: InterruptSignal | null,
): Promise<number> {
  // Not after an interrupted apply: nothing more is sent then.
  if (options.verify !== true || report.interrupted === true)
    return finish(report, options, io, received);
  const verifying = await untilInterrupted(
    () => verifyTargets(appliedTargets(report, plan), client, profile, options.verifyTimeout),
    io,
    "no longer waiting for the contracts' runs; what was applied stands",
  );
  return 'interrupted' in verifying
    ? finish(report, options, io, received ?? verifying.interrupted)
    : finish(report, options, io, received, verifying.value);
}
