// `contracts plan [PATH...]` and `contracts drift`: the plan operation (with the version gate
// against --changed-since), its view in the format asked for, and the exit code.
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { deletedContractFiles, fileAtRef, filesChangedSince } from '../pipeline/git.js';
import { leftUnmanaged } from '../read/deleted-files.js';
import { planShowingProgress } from './plan-files.js';
import { pruneWithin } from '../prune/scope.js';
import type { Io } from './io.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';
import type { CheckedPlan } from '../operations/plan.js';
import { planOutputTarget, writePlanFile } from '../plan/plan-file.js';
import { changeCount } from '../plan/types.js';
import path from 'node:path';
import { ConfigError } from '../model/errors.js';
import type { FailOn } from '../settings/settled.js';
import type { Acknowledgement } from '../settings/settings-file.js';
import type { PolicyCheck } from '../policy/policies.js';
import { exitingOnInterrupt, type InterruptSignal } from '../support/interrupts.js';
import type { Format } from '../views/format.js';
import { saysNothingSelected, showNothingSelected, showPlan } from '../views/plan.js';

/** What `plan` and `drift` are asked for, once the flags are read. */
export interface PlanCommandInput extends ConnectionFlags {
  paths: string[];
  format: Format;
  out?: string | undefined;
  detailedExitcode: boolean;
  /** What fails the plan (exit 1) beside errors: never, breaking changes, or any change. */
  failOn?: FailOn;
  /** Breaking changes let through the version gate (the settings file's acknowledgedBreaks). */
  acknowledgements?: readonly Acknowledgement[];
  /** The team's policies (the settings file's), checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /** `drift`: the plan read as a drift report. */
  drift?: boolean;
  changedSince?: string | undefined;
  strict: boolean;
  color: boolean;
  /** `--prune`: plan the deletion of managed contracts whose files are gone. */
  prune?: boolean;
  /** Levels of lineage read for the consumers of a breaking change. */
  impactDepth?: number | undefined;
}

/** Why a plan of `paths` that hold no contract file at all is an error. */
export function noContractFiles(paths: readonly string[]): string {
  return `no contract files in ${paths.join(', ')} (looked for *.yaml and *.yml below it); nothing was planned. Name the folder or files that hold the contracts (contracts/ by default).`;
}

/** The exit code of a checked plan: 1 when it fails, 2 for changes when asked, else 0. */
function planExitCode(planned: CheckedPlan, detailed: boolean): number {
  if (planned.verdict !== null) return EXIT_ERROR;
  return detailed && changeCount(planned.plan) > 0 ? EXIT_CHANGES : EXIT_OK;
}

/** What an interrupt of plan says (plan only reads). */
function planInterrupted(signal: InterruptSignal): string {
  return `Interrupted: the plan stopped; nothing was sent${signal === 'SIGTERM' ? ' (SIGTERM)' : ''}.`;
}

export async function runPlan(options: PlanCommandInput, io: Io): Promise<number> {
  // Plan only reads: an interrupt ends it at once, with a word and the signal's exit code.
  return exitingOnInterrupt(
    (text) => io.stderr.write(text),
    planInterrupted,
    io.interruptible === true,
    () => planAndShow(options, io),
  );
}

async function planAndShow(options: PlanCommandInput, io: Io): Promise<number> {
  const since = options.changedSince;
  const only = since === undefined ? undefined : await filesChangedSince(since, io.cwd);
  // A place the plan cannot be saved is refused before anything is read from the catalog.
  if (options.out !== undefined) await planOutputTarget(path.resolve(io.cwd, options.out));
  // The contract files deleted since the ref, read once: for --prune, and for the note under the
  // plan.
  const deletedSince =
    since === undefined
      ? undefined
      : await deletedContractFiles(io.cwd, since, undefined, options.paths);
  const { client, catalogUrl, profile, connections } = connect(options, io.env);
  try {
    const planned = await planShowingProgress(
      {
        paths: options.paths,
        format: options.format,
        policies: options.policies,
        strict: options.strict,
        only,
        keepLive: false,
        // A plan only shown is not checked against anything later: its live contracts are not hashed.
        sealed: options.out !== undefined || options.format === 'json',
        profile,
        connections,
        prune: options.prune === true ? pruneWithin(only, deletedSince, io.cwd) : undefined,
        // A plain plan names the contracts this repository manages whose files are gone.
        orphans: since === undefined && options.prune !== true && options.drift !== true,
        impactDepth: options.impactDepth,
      },
      {
        // The version gate, against the ref the plan is of changes since.
        versionBase:
          since === undefined
            ? undefined
            : {
                cwd: io.cwd,
                baseText: (absolute) => fileAtRef(io.cwd, since, absolute),
                acknowledgements: options.acknowledgements ?? [],
              },
        failOn: options.failOn ?? 'never',
      },
      io,
      client,
      catalogUrl,
    );
    if (planned === null) return EXIT_ERROR;
    const { plan } = planned;
    const view = {
      format: options.format,
      color: options.color,
      drift: options.drift === true,
      // With --changed-since, the contract files deleted since the ref whose contracts the plan
      // does not delete (none without --prune).
      deleted: {
        files: leftUnmanaged(deletedSince ?? [], plan),
        where: `since ${String(since)}`,
        pruning: options.prune === true,
        keptForOthers: planned.keptForOthers,
        ...(planned.orphans === undefined ? {} : { orphans: planned.orphans }),
      },
      savedTo: options.out,
    };
    // No file at all where contracts are looked for: a wrong path, never "no changes".
    if (plan.changes.length === 0 && since === undefined)
      throw new ConfigError(noContractFiles(options.paths));
    if (plan.changes.length === 0 && saysNothingSelected(options.format)) {
      showNothingSelected(view, { paths: options.paths, changedSince: since }, io);
      return EXIT_OK;
    }
    if (options.out !== undefined) await writePlanFile(path.resolve(io.cwd, options.out), plan);
    showPlan(planned, view, io);
    return planExitCode(planned, options.detailedExitcode);
  } finally {
    await client.close();
  }
}
