// At a terminal apply sends only what the person said yes to. A contract another writer changed
// after the yes is never planned again inside the apply, where its new change (one that would
// undo the other writer's) would go out unseen: the apply fails it as moved and sends nothing
// further. Its plan, and that of the contracts not yet attempted, is then made again against the
// catalog as it is now; when any change differs from the one said yes to, the new plan is shown
// and asked for again, once. A no sends nothing more.
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import type { LiveContract } from '../catalog/client.js';
import { STORE_GUARD_PATHS } from '../diff/guard.js';
import type { Operation } from '../model/operation.js';
import { StalePlanError } from '../model/errors.js';
import type { ApplyReport, ContractResult } from '../apply/apply-plan.js';
import { renderPlanHuman } from '../views/render-human.js';
import { summarize, type Plan, type PlannedChange } from '../plan/types.js';
import { PromptCancelled, type Io, type Output } from './io.js';
import { type Colors } from '../views/colors.js';

/** The steps of an apply the person said yes to, as the command runs them. */
export interface ConfirmedSteps {
  /**
   * Applies `plan` without ever planning a contract again: against `live`, or its contracts read
   * again (StalePlanError, nothing sent, when any moved).
   */
  apply(plan: Plan, live?: ReadonlyMap<string, LiveContract>): Promise<ApplyReport>;
  /**
   * The plan of `files` (absolute paths) made again against the catalog as it is now, with the
   * live contracts it was made from; null when a file no longer loads (its problems said).
   */
  replan(
    files: ReadonlySet<string>,
  ): Promise<{ plan: Plan; liveContracts: ReadonlyMap<string, LiveContract> } | null>;
  /** Whether the person interrupted the apply. */
  interrupted(): boolean;
  /** Aborted when the person interrupts: a question still open is then answered no. */
  signal?: AbortSignal;
}

export interface ConfirmedOutcome {
  report: ApplyReport;
  /** The person was asked again and pressed Ctrl-C or Ctrl-D: exit 130. */
  cancelled?: true;
}

/** What a change sends, as the person said yes to it: guards of the version and time aside. */
function sent(change: PlannedChange): unknown {
  const stored = (op: Operation): boolean =>
    op.op === 'test' && STORE_GUARD_PATHS.includes(op.path);
  return {
    action: change.action,
    patch: change.patch.filter((op) => !stored(op)),
    create: change.create?.body ?? null,
  };
}

const sends = (change: PlannedChange): boolean =>
  change.action === 'create' || change.action === 'update' || change.action === 'delete';

/**
 * Applies `plan`, which the person said yes to at a terminal, sending nothing they did not see:
 * see the head of this file. `out` is where the plan made again is shown.
 */
export async function applyAsConfirmed(
  plan: Plan,
  steps: ConfirmedSteps,
  io: Io,
  out: Output,
  c: Colors,
): Promise<ConfirmedOutcome> {
  const confirmed = new Map(
    plan.changes.filter(sends).map((ch) => [ch.fullyQualifiedName, sent(ch)]),
  );
  let first: ApplyReport;
  try {
    first = await steps.apply(plan);
  } catch (error) {
    if (!(error instanceof StalePlanError)) throw error;
    // Moved while the person read the plan: nothing was sent, and all of it is planned again.
    first = {
      results: plan.changes.map((change) => ({
        status: sends(change) ? 'not-attempted' : 'unchanged',
        file: change.file,
        fullyQualifiedName: change.fullyQualifiedName,
      })),
      stoppedBy: null,
    };
  }
  if (first.interrupted === true) return { report: first };
  const moved = (result: ContractResult): boolean =>
    result.status === 'failed' && result.errorType === 'CONFLICT';
  if (first.stoppedBy !== null && !moved(first.stoppedBy)) return { report: first };
  if (!first.results.some(moved) && !first.results.some((r) => r.status === 'not-attempted'))
    return { report: first };
  // Planned again: what moved and what was not attempted after it; deletions go as they were.
  const again = plan.changes.filter(
    (change, i) =>
      (change.action === 'update' || change.action === 'create') &&
      (moved(first.results[i]!) || first.results[i]!.status === 'not-attempted'),
  );
  const remaining = plan.changes.filter(
    (change, i) => change.action === 'delete' && first.results[i]!.status === 'not-attempted',
  );
  const replanned =
    again.length === 0
      ? { plan: { ...plan, changes: [] }, liveContracts: new Map<string, LiveContract>() }
      : await steps.replan(new Set(again.map((change) => path.resolve(io.cwd, change.file))));
  if (steps.interrupted()) return { report: { ...first, interrupted: true } };
  if (replanned === null) {
    io.stderr.write('Nothing more was sent.\n');
    return { report: first };
  }
  const made = replanned.plan;
  const unseen = made.changes.filter(
    (change) =>
      change.action === 'error' ||
      change.action === 'missing' ||
      (sends(change) && !isDeepStrictEqual(sent(change), confirmed.get(change.fullyQualifiedName))),
  );
  if (unseen.length > 0) {
    const shown = { ...made, summary: summarize(made.changes) };
    out.write(
      `\n${c.yellow(c.bold('Contracts changed in the catalog after you said yes'))} (another writer changed them). Planned again against the catalog as it is now:\n\n${renderPlanHuman(shown, c)}`,
    );
    if (made.summary.error + made.summary.missing > 0) {
      io.stderr.write(
        'Error: the plan made again has contracts that cannot be applied (see above); nothing more was sent.\n',
      );
      return { report: declined(first, plan, unseen, 'it cannot be applied as planned again') };
    }
    let answer: string | null;
    try {
      answer = await untilAborted(
        io.prompt!(
          `\nDo you want to apply the changes planned again?\n  Only 'yes' will be accepted: `,
          steps.signal,
        ),
        steps.signal,
      );
    } catch (error) {
      if (!(error instanceof PromptCancelled)) throw error;
      io.stderr.write('\nApply cancelled; nothing more was sent.\n');
      return { report: declined(first, plan, unseen, 'you cancelled'), cancelled: true };
    }
    if (answer === null) {
      io.stderr.write('\nInterrupted at the question; nothing more was sent.\n');
      return { report: { ...declined(first, plan, unseen, 'you interrupted'), interrupted: true } };
    }
    if (answer.trim() !== 'yes') {
      io.stderr.write('Declined; nothing more was sent.\n');
      return { report: declined(first, plan, unseen, 'you declined it') };
    }
  }
  const changes = [...made.changes, ...remaining];
  const second = await steps.apply(
    { ...made, changes, summary: summarize(changes) },
    replanned.liveContracts,
  );
  return { report: merged(first, plan, changes, second) };
}

/**
 * The first round's report with the contracts whose change planned again was not agreed to
 * (`unseen`) failed as declined (for `why`), and the first of them the stop: nothing more was sent.
 */
function declined(
  first: ApplyReport,
  plan: Plan,
  unseen: readonly PlannedChange[],
  why: string,
): ApplyReport {
  const refused = new Set(unseen.map((change) => change.fullyQualifiedName));
  const results = first.results.map((result, i): ContractResult => {
    const change = plan.changes[i]!;
    if (!refused.has(change.fullyQualifiedName) || result.status === 'applied') return result;
    return {
      status: 'failed',
      file: change.file,
      fullyQualifiedName: change.fullyQualifiedName,
      httpStatus: null,
      errorType: 'DECLINED',
      message: `the contract changed in the catalog after you said yes, and its change planned again against it was not applied: ${why}. Nothing was sent for it; run plan to see`,
    };
  });
  const stop = results.find(
    (result): result is Extract<ContractResult, { status: 'failed' }> =>
      result.status === 'failed' && result.errorType === 'DECLINED',
  );
  return {
    results,
    stoppedBy: stop ?? first.stoppedBy,
    ...(first.notes === undefined ? {} : { notes: first.notes }),
  };
}

/**
 * One report of both rounds, in the first plan's order: a contract's second result where the
 * second round sent or tried something for it (or it was not attempted at first), its first
 * otherwise; then whatever the plan made again holds beside.
 */
function merged(
  first: ApplyReport,
  plan: Plan,
  changes: readonly PlannedChange[],
  second: ApplyReport,
): ApplyReport {
  const later = new Map<string, ContractResult>();
  changes.forEach((change, i) => later.set(change.fullyQualifiedName, second.results[i]!));
  const results = plan.changes.map((change, i) => {
    const before = first.results[i]!;
    const after = later.get(change.fullyQualifiedName);
    later.delete(change.fullyQualifiedName);
    if (after === undefined) return before;
    return after.status === 'unchanged' && before.status === 'failed' ? before : after;
  });
  results.push(...later.values());
  // The first round's stop (a contract that moved) did not end the run: the second went on.
  const notes = [...new Set([...(first.notes ?? []), ...(second.notes ?? [])])];
  return {
    results,
    stoppedBy: second.stoppedBy,
    ...(second.interrupted === true ? { interrupted: true } : {}),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/** `answer`, or null as soon as `signal` is aborted (the question is left unanswered). */
function untilAborted(answer: Promise<string>, signal?: AbortSignal): Promise<string | null> {
  if (signal === undefined) return answer;
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const stop = () => resolve(null);
    signal.addEventListener('abort', stop, { once: true });
    answer.then(
      (text) => {
        signal.removeEventListener('abort', stop);
        resolve(text);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
