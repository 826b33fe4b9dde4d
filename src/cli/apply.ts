// `contracts apply [PLANFILE | PATH...]`: apply a saved plan (refused when stale), or plan and
// apply in one go after a confirmation that only a terminal can give.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { applyPlan, assertApplicable, type ContractResult } from '../apply/apply-plan.js';
import { renderResult } from '../views/render-report.js';
import { ConfigError } from '../model/errors.js';
import { readPlanFile } from '../plan/plan-file.js';
import { renderPlanHuman } from '../views/render-human.js';
import { changeCount, deletions, type Plan } from '../plan/types.js';
import { deletionConsent, type DeletionConsent } from './confirm-deletions.js';
import { applyAsConfirmed, type ConfirmedOutcome } from './apply-as-confirmed.js';
import { finish, noChanges, verifiedEnd } from './apply-end.js';
import { pruneWithin } from '../prune/scope.js';
import { deletionGuard } from '../prune/proof.js';
import { repositoryOf } from '../git/repository.js';
import { EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { checkSavedPlanAtTerminal } from './check-saved-plan.js';
import {
  exitingOnInterrupt,
  listenForInterrupts,
  SIGNAL_EXIT_CODES,
  type InterruptExit,
  type InterruptSignal,
} from '../support/interrupts.js';
import { deletedContractFiles, filesChangedSince } from '../pipeline/git.js';
import { planShowingProgress } from './plan-files.js';
import { codecFor } from '../profile/codec.js';
import type { PolicyCheck } from '../policy/policies.js';
import { resolveCatalog } from '../profile/profile.js';
import { PromptCancelled, type Io } from './io.js';
import { colorsFor, type Colors } from '../views/colors.js';
import { progressLine } from './progress.js';
import { noContractFiles } from './plan.js';
import { applyOperation } from '../operations/apply.js';
import { nothingSelected } from '../views/plan.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';

export interface ApplyCliOptions extends ConnectionFlags {
  args: string[];
  autoApprove: boolean;
  json: boolean;
  changedSince?: string;
  strict: boolean;
  color: boolean;
  /** The team's policies (the settings file's): an error blocks the apply, nothing is sent. */
  policies?: readonly PolicyCheck[];
  /** `--prune`: plan deletions (files), and agree to a plan's deletions with --auto-approve. */
  prune?: boolean;
  /** `--hard-delete`: deletions keep nothing to restore. */
  hardDelete?: boolean;
  /** Levels of lineage read for the consumers of a breaking change. */
  impactDepth?: number | undefined;
  /** `--verify`: run each contract created or changed on its data after applying it. */
  verify?: boolean;
  /** `--verify-timeout`: how long to wait for a running result, in seconds. */
  verifyTimeout?: number;
}

/** Whether `arg` names a file that is not a contract file: a saved plan. */
async function isPlanFile(arg: string, cwd: string): Promise<boolean> {
  if (/\.ya?ml$/i.test(arg)) return false;
  try {
    return (await stat(path.resolve(cwd, arg))).isFile();
  } catch {
    return false;
  }
}

/**
 * A single argument that is a file but not a contract file is a saved plan; a saved plan among
 * other arguments is an error (it would be read as a contract file).
 */
async function planFileArgument(args: readonly string[], cwd: string): Promise<string | undefined> {
  const plans: string[] = [];
  for (const arg of args) if (await isPlanFile(arg, cwd)) plans.push(arg);
  if (plans.length === 0) return undefined;
  if (args.length > 1)
    throw new ConfigError(
      `apply takes a saved plan alone, or contract files and folders: ${plans.join(', ')} is not a contract file (*.yaml), and is given with ${args.length - 1} other argument${args.length === 2 ? '' : 's'}. Apply the plan alone (contracts apply ${plans[0]!}), or plan and apply the files. Nothing was sent.`,
    );
  return path.resolve(cwd, plans[0]!);
}

/** What an interrupt before anything was sent says: the run ends there. */
function nothingSent(signal: InterruptSignal): string {
  return `Interrupted: nothing was sent${signal === 'SIGTERM' ? ' (SIGTERM)' : ''}.`;
}

export async function runApply(options: ApplyCliOptions, io: Io): Promise<number> {
  // Until the apply itself starts (its ordered stop), an interrupt ends the run at once: loading
  // the files, reading the catalog, planning and the prompts send nothing.
  return exitingOnInterrupt(
    (text) => io.stderr.write(text),
    nothingSent,
    io.interruptible === true,
    (beforeSending) => applyCommand(options, io, beforeSending),
  );
}

async function applyCommand(
  options: ApplyCliOptions,
  io: Io,
  beforeSending: InterruptExit,
): Promise<number> {
  const c = colorsFor(io.stdout, io.env, options.color);
  const planFile = await planFileArgument(options.args, io.cwd);
  const only =
    options.changedSince === undefined
      ? undefined
      : await filesChangedSince(options.changedSince, io.cwd);
  if (planFile !== undefined && only !== undefined)
    throw new ConfigError('--changed-since does not apply to a saved plan');
  // PATCHes go one at a time unless --concurrency asks for more; reads use 8 by default.
  const patchConcurrency = options.concurrency ?? 1;
  const { client, catalogUrl, profile, connections } = connect(
    options,
    io.env,
    Math.max(8, patchConcurrency),
  );
  // The progress line (stderr, on a terminal only) steps aside for each contract's line.
  const progress = progressLine(io.stderr, 'Applying', { concurrency: patchConcurrency });
  // Reads still queued when the saved plan's check was interrupted: dropped, not waited for.
  let abandon = false;
  /** Each result as it comes; with `holdMoved`, not a contract that moved (it is planned again). */
  const onResult =
    (holdMoved: boolean) =>
    (result: ContractResult): void => {
      if (holdMoved && result.status === 'failed' && result.errorType === 'CONFLICT') return;
      const text = renderResult(result, c);
      if (text === null) return;
      progress.clear();
      io.stdout.write(`${text}\n`);
    };
  /** What applying `plan` reports as it goes. */
  const reporting = (plan: Plan, holdMoved = false) => {
    progress.total(changeCount(plan));
    return { progress, ...(options.json ? {} : { onResult: onResult(holdMoved) }) };
  };
  try {
    if (planFile !== undefined) {
      const plan = await readPlanFile(planFile);
      await client.preflight();
      if (plan.catalogUrl !== catalogUrl) {
        throw new ConfigError(
          `the plan was made against ${plan.catalogUrl}, not ${catalogUrl}; plan again against this catalog. Nothing was sent.`,
        );
      }
      const connected = await resolveCatalog(profile, client);
      if (plan.catalogProfile !== connected.profile) {
        throw new ConfigError(
          `the plan was made for the ${plan.catalogProfile} profile, but this catalog is ${connected.profile}; plan again against it. Nothing was sent.`,
        );
      }
      // A plan that cannot be applied whole says so, even when it changes nothing else.
      assertApplicable(plan);
      if (changeCount(plan) === 0) return noChanges(plan, options, io);
      // Stale first (the contracts moved), then made again from its files: an edited plan, even
      // one whose checksum was made again, is refused before anything is sent.
      // The check answers an interrupt itself, dropping the reads still out.
      beforeSending.disarm();
      const checked = await checkSavedPlanAtTerminal(
        plan,
        client,
        {
          profile,
          concurrency: connections,
          codec: codecFor(connected.profile, connected.release),
        },
        io,
      );
      beforeSending.arm();
      if ('interrupted' in checked) {
        abandon = true;
        io.stderr.write(
          `\n${checked.interrupted === 'SIGINT' ? 'Interrupted' : 'Terminated (SIGTERM)'} while the saved plan was being checked: nothing was sent.\n`,
        );
        return SIGNAL_EXIT_CODES[checked.interrupted];
      }
      const liveContracts = checked.live;
      const consent = await askingForDeletions(plan, options, io, c);
      if (consent === 'cancelled') return EXIT_INTERRUPTED;
      beforeSending.disarm();
      const interrupt = listenForInterrupts(
        (text) => io.stderr.write(text),
        io.interruptible === true,
      );
      const report = await applyPlan(plan, client, {
        signal: interrupt.signal,
        liveContracts,
        notes: checked.notes,
        codec: codecFor(connected.profile, connected.release),
        concurrency: patchConcurrency,
        deletions: consent,
        hardDelete: options.hardDelete === true,
        deletionGuard: deletionGuard(io.cwd, repositoryOf(io.cwd, io.env)),
        ...reporting(plan),
      }).finally(() => {
        interrupt.release();
        progress.clear();
      });
      return await verifiedEnd(
        report,
        plan,
        client,
        connected.profile,
        options,
        io,
        interrupt.received(),
      );
    }

    /** How the files are planned: once, and again for what moved after the yes. */
    const planning = {
      paths: options.args.length > 0 ? options.args : ['contracts'],
      format: options.json ? ('json' as const) : ('human' as const),
      strict: options.strict,
      keepLive: true,
      profile,
      connections,
      policies: options.policies,
      impactDepth: options.impactDepth,
    };
    const outcome = await planShowingProgress(
      {
        ...planning,
        only,
        prune:
          options.prune === true
            ? pruneWithin(
                only,
                options.changedSince === undefined
                  ? undefined
                  : await deletedContractFiles(
                      io.cwd,
                      options.changedSince,
                      undefined,
                      options.args.length > 0 ? options.args : ['contracts'],
                    ),
                io.cwd,
              )
            : undefined,
      },
      {},
      io,
      client,
      catalogUrl,
    );
    if (outcome === null) return EXIT_ERROR;
    const { plan } = outcome;
    if (plan.changes.length === 0 && options.changedSince === undefined) {
      throw new ConfigError(
        noContractFiles(options.args.length > 0 ? options.args : ['contracts']),
      );
    }
    if (plan.changes.length === 0 && !options.json) {
      io.stdout.write(
        `${nothingSelected(options.args.length > 0 ? options.args : ['contracts'], options.changedSince)}\n`,
      );
      return EXIT_OK;
    }
    if (!options.json) io.stdout.write(renderPlanHuman(plan, c));
    if (plan.summary.error + plan.summary.missing > 0) {
      io.stderr.write(
        'Error: the plan has contracts that cannot be applied (see above); nothing was sent.\n',
      );
      return EXIT_ERROR;
    }
    if (changeCount(plan) === 0) return noChanges(plan, options, io);
    // The deletions are asked for apart (confirm-deletions.ts); the rest here, when there is any.
    if (!options.autoApprove && (!io.stdinIsTTY || io.prompt === undefined))
      throw new ConfigError(
        'apply needs --auto-approve when stdin is not a terminal; nothing was sent',
      );
    if (!options.autoApprove && changeCount(plan) > deletions(plan).length) {
      let answer: string;
      try {
        answer = await io.prompt!(
          `\nDo you want to apply these changes to ${catalogUrl}?\n  Only 'yes' will be accepted: `,
        );
      } catch (error) {
        if (!(error instanceof PromptCancelled)) throw error;
        return promptCancelled(error, io);
      }
      if (answer.trim() !== 'yes') {
        io.stderr.write('Apply cancelled; nothing was sent.\n');
        return EXIT_ERROR;
      }
    }
    const consent = await askingForDeletions(plan, options, io, c);
    if (consent === 'cancelled') return EXIT_INTERRUPTED;
    if (!options.json) io.stdout.write('\n');
    beforeSending.disarm();
    const interrupt = listenForInterrupts(
      (text) => io.stderr.write(text),
      io.interruptible === true,
    );
    const applying = {
      signal: interrupt.signal,
      concurrency: patchConcurrency,
      deletions: consent,
      hardDelete: options.hardDelete === true,
      deletionGuard: deletionGuard(io.cwd, repositoryOf(io.cwd, io.env)),
    };
    // Straight after planning the live contracts are fresh, and a contract that moves meanwhile
    // is planned again inside the apply; after a prompt they are read again, and a contract that
    // moved is planned again only as the person says (apply-as-confirmed.ts).
    const applyNow = async (): Promise<ConfirmedOutcome> =>
      options.autoApprove
        ? { report: await applyOperation(outcome, client, { ...applying, ...reporting(plan) }) }
        : applyAsConfirmed(
            plan,
            {
              apply: (round, live) =>
                applyPlan(round, client, {
                  ...applying,
                  codec: outcome.codec,
                  ...(live === undefined ? {} : { liveContracts: live }),
                  ...reporting(round, live === undefined),
                }),
              replan: async (files) => {
                progress.clear();
                const again = await planShowingProgress(
                  { ...planning, only: files },
                  {},
                  io,
                  client,
                  catalogUrl,
                );
                return again === null
                  ? null
                  : { plan: again.plan, liveContracts: again.liveContracts };
              },
              interrupted: () => interrupt.signal.aborted,
              signal: interrupt.signal,
            },
            io,
            options.json ? io.stderr : io.stdout,
            c,
          );
    const applied = await applyNow().finally(() => {
      interrupt.release();
      progress.clear();
    });
    const { report } = applied;
    if ('cancelled' in applied) {
      finish(report, options, io);
      return EXIT_INTERRUPTED;
    }
    return await verifiedEnd(
      report,
      plan,
      client,
      outcome.codec.profile,
      options,
      io,
      interrupt.received(),
    );
  } finally {
    await client.close(abandon);
  }
}

/** Says why a prompt ended without an answer (Ctrl-C, Ctrl-D); exit 130 either way. */
function promptCancelled(cancelled: PromptCancelled, io: Io): number {
  io.stderr.write(
    cancelled.signal === undefined
      ? '\nApply cancelled; nothing was sent.\n'
      : `\n${nothingSent(cancelled.signal)}\n`,
  );
  return EXIT_INTERRUPTED;
}

/** The deletions agreed to (confirm-deletions.ts), or `cancelled` at the prompt (said). */
async function askingForDeletions(
  plan: Plan,
  options: ApplyCliOptions,
  io: Io,
  c: Colors,
): Promise<DeletionConsent | 'cancelled'> {
  try {
    return await deletionConsent(
      plan,
      {
        prune: options.prune === true,
        autoApprove: options.autoApprove,
        hardDelete: options.hardDelete === true,
      },
      io,
      c,
    );
  } catch (error) {
    if (!(error instanceof PromptCancelled)) throw error;
    promptCancelled(error, io);
    return 'cancelled';
  }
}
