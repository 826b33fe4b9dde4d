// `contracts plan [PATH...]`: validate, read the live contracts, print the changes.
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { deletedContractFiles, fileAtRef, filesChangedSince } from '../pipeline/git.js';
import { deletedFilesText, leftUnmanaged } from '../plan/deleted-files.js';
import { planFilesForCommand } from './plan-files.js';
import { pruneWithin } from '../prune/scope.js';
import { colorsFor, type Io } from './io.js';
import { connect, type ConnectionFlags } from './settings.js';
import { planOutputTarget, writePlanFile } from '../plan/plan-file.js';
import { findingAnnotations, planFindings } from '../plan/findings.js';
import { findingResults, problemResults, sarifLog } from '../plan/sarif.js';
import { VERSION } from '../version.js';
import { renderPlanHuman } from '../plan/render-human.js';
import { workflowCommand } from './validate.js';
import { renderPlanMarkdown } from '../plan/render-markdown.js';
import { changeCount, type Plan } from '../plan/types.js';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import type { FailOn } from '../settings/settled.js';
import { failOnBreach } from '../plan/fail-on.js';
import { reportGate } from './gate-report.js';
import { versionGate } from '../gate/version-gate.js';
import type { Acknowledgement } from '../settings/settings-file.js';
import type { PolicyCheck } from '../policy/policies.js';
import { exitingOnInterrupt, type InterruptSignal } from '../interrupts.js';

export interface PlanOptions extends ConnectionFlags {
  paths: string[];
  json: boolean;
  markdown: boolean;
  /** Workflow commands, one annotation per finding at its exact place, then the plan. */
  github?: boolean;
  /** SARIF 2.1.0 on stdout: every finding (and the version gate's) at its place. */
  sarif?: boolean;
  out?: string;
  detailedExitcode: boolean;
  /** What fails the plan (exit 1) beside errors: never, breaking changes, or any change. */
  failOn?: FailOn;
  /** Breaking changes let through the version gate (the settings file's acknowledgedBreaks). */
  acknowledgements?: readonly Acknowledgement[];
  /** The team's policies (the settings file's), checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /** `drift`: the plan read as a drift report. */
  drift?: boolean;
  changedSince?: string;
  strict: boolean;
  color: boolean;
  /** `--prune`: plan the deletion of managed contracts whose files are gone. */
  prune?: boolean;
  /** Levels of lineage read for the consumers of a breaking change. */
  impactDepth?: number | undefined;
}

/** What plan and apply say when no contract file was selected: never that nothing differs. */
export function nothingSelected(
  paths: readonly string[],
  changedSince: string | undefined,
): string {
  return changedSince === undefined
    ? `No contract files selected in ${paths.join(', ')} (looked for *.yaml and *.yml); nothing was planned.`
    : `No contract file changed since ${changedSince}; nothing was planned.`;
}

/** Why a plan of `paths` that hold no contract file at all is an error. */
export function noContractFiles(paths: readonly string[]): string {
  return `no contract files in ${paths.join(', ')} (looked for *.yaml and *.yml below it); nothing was planned. Name the folder or files that hold the contracts (contracts/ by default).`;
}

export function planExitCode(plan: Plan, detailed: boolean, failOn: FailOn = 'never'): number {
  if (plan.summary.error + plan.summary.missing > 0) return EXIT_ERROR;
  if (failOnBreach(plan, failOn) !== undefined) return EXIT_ERROR;
  return detailed && changeCount(plan) > 0 ? EXIT_CHANGES : EXIT_OK;
}

/** What an interrupt of plan says (plan only reads). */
function planInterrupted(signal: InterruptSignal): string {
  return `Interrupted: the plan stopped; nothing was sent${signal === 'SIGTERM' ? ' (SIGTERM)' : ''}.`;
}

export async function runPlan(options: PlanOptions, io: Io): Promise<number> {
  // Plan only reads: an interrupt ends it at once, with a word and the signal's exit code.
  return exitingOnInterrupt(
    (text) => io.stderr.write(text),
    planInterrupted,
    io.interruptible === true,
    () => planCommand(options, io),
  );
}

async function planCommand(options: PlanOptions, io: Io): Promise<number> {
  const only =
    options.changedSince === undefined
      ? undefined
      : await filesChangedSince(options.changedSince, io.cwd);
  // A place the plan cannot be saved is refused before anything is read from the catalog.
  if (options.out !== undefined) await planOutputTarget(path.resolve(io.cwd, options.out));
  // The contract files deleted since the ref, read once: for --prune, and for the note under the
  // plan.
  const deletedSince =
    options.changedSince === undefined
      ? undefined
      : await deletedContractFiles(io.cwd, options.changedSince, undefined, options.paths);
  const { client, catalogUrl, profile, connections } = connect(options, io.env);
  try {
    const outcome = await planFilesForCommand(
      {
        paths: options.paths,
        json: options.json,
        ...(options.github === true ? { github: true } : {}),
        ...(options.sarif === true ? { sarif: true } : {}),
        ...(options.policies === undefined ? {} : { policies: options.policies }),
        strict: options.strict,
        only,
        keepLive: false,
        // A plan only shown is not checked against anything later: its live contracts are not hashed.
        sealed: options.out !== undefined || options.json,
        profile,
        connections,
        ...(options.prune === true ? { prune: pruneWithin(only, deletedSince, io.cwd) } : {}),
        impactDepth: options.impactDepth,
      },
      io,
      client,
      catalogUrl,
    );
    if (outcome === null) return EXIT_ERROR;
    const { plan } = outcome;
    // With --changed-since, the contract files deleted since the ref whose contracts the plan does
    // not delete (none without --prune).
    const deleted = leftUnmanaged(deletedSince ?? [], plan);
    const where = `since ${String(options.changedSince)}`;
    const deletedNote = deletedFilesText(deleted, where, undefined, {
      pruning: options.prune === true,
      keptForOthers: outcome.keptForOthers,
    });
    // On stderr beside machine output; after the plan beside the human one.
    if (deletedNote !== '' && options.json) io.stderr.write(`Note: ${deletedNote}\n`);
    const humanNote = deletedNote === '' || options.json ? '' : `\n${deletedNote}\n`;
    const drifted = { drift: options.drift === true };
    // No file at all where contracts are looked for: a wrong path, never "no changes".
    if (plan.changes.length === 0 && options.changedSince === undefined) {
      throw new ConfigError(noContractFiles(options.paths));
    }
    if (plan.changes.length === 0 && !options.json && !options.markdown && options.sarif !== true) {
      io.stdout.write(`${nothingSelected(options.paths, options.changedSince)}\n${humanNote}`);
      return EXIT_OK;
    }
    // The version gate, against the ref the plan is of changes since.
    const since = options.changedSince;
    const gate =
      since === undefined
        ? undefined
        : await versionGate({
            plan,
            files: outcome.files,
            cwd: io.cwd,
            baseText: (absolute) => fileAtRef(io.cwd, since, absolute),
            acknowledgements: options.acknowledgements ?? [],
            today: new Date().toISOString().slice(0, 10),
          });
    if (options.out !== undefined) await writePlanFile(path.resolve(io.cwd, options.out), plan);
    if (options.sarif === true)
      io.stdout.write(
        `${JSON.stringify(
          sarifLog(
            [
              ...findingResults(planFindings(plan)),
              ...problemResults(gate?.errors ?? [], 'versionGate'),
            ],
            VERSION,
          ),
          null,
          2,
        )}\n`,
      );
    else if (options.json) io.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
    else if (options.markdown)
      io.stdout.write(
        renderPlanMarkdown(plan, {
          deleted: {
            files: deleted,
            where,
            pruning: options.prune === true,
            keptForOthers: outcome.keptForOthers,
          },
          ...(options.drift === true ? { title: 'Data contract drift' } : {}),
        }),
      );
    else if (options.github === true) {
      for (const finding of findingAnnotations(plan))
        io.stdout.write(`${workflowCommand(finding.level, finding, finding.message)}\n`);
      io.stdout.write(
        renderPlanHuman(plan, colorsFor(io.stdout, io.env, false), drifted) + humanNote,
      );
    } else {
      io.stdout.write(
        renderPlanHuman(plan, colorsFor(io.stdout, io.env, options.color), drifted) + humanNote,
      );
      if (options.out !== undefined)
        io.stdout.write(
          planExitCode(plan, false) === EXIT_OK
            ? `\nSaved the plan to ${options.out}; apply it with: contracts apply ${options.out}\n`
            : `\nSaved the plan to ${options.out}; it has contracts that cannot be applied (see above), so fix them and plan again before applying.\n`,
        );
    }
    const breach = failOnBreach(plan, options.failOn ?? 'never');
    if (breach !== undefined) io.stderr.write(`Error: ${breach}.\n`);
    if (gate !== undefined) reportGate(gate, options.github === true, io);
    if (gate !== undefined && gate.errors.length > 0) return EXIT_ERROR;
    return planExitCode(plan, options.detailedExitcode, options.failOn);
  } finally {
    await client.close();
  }
}
