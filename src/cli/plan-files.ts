// The planning step `plan` and `apply` share: read the files (reporting every problem, and then
// writing nothing), read the live contracts with a progress line on a terminal (from the first
// file found valid, while the rest load), make the plan.
import type { CatalogClient } from '../catalog/client.js';
import { currentCommit } from '../pipeline/git.js';
import { planFromFiles, type PlanOutcome, type PlanRequest } from '../pipeline/plan-pipeline.js';
import { repositoryOf } from '../prune/repository.js';
import type { ProfileSetting } from '../profile/profile.js';
import type { Io } from './io.js';
import { progressLine } from './progress.js';
import { problemResults, sarifLog } from '../plan/sarif.js';
import { VERSION } from '../version.js';
import type { PolicyCheck } from '../policy/policies.js';
import { renderProblems } from './validate.js';

export interface PlanFilesOptions {
  paths: string[];
  /** Machine output on stdout: problems go to stderr instead. */
  json: boolean;
  /** Problems as GitHub workflow commands (`plan --format github`). */
  github?: boolean;
  strict: boolean;
  only: ReadonlySet<string> | undefined;
  /** Keep the live contracts of changed contracts (apply). */
  keepLive: boolean;
  /** Hash the live contracts read, for a plan saved, printed as JSON or applied (default true). */
  sealed?: boolean;
  profile: ProfileSetting;
  /** The most requests out at once (the client's connections), for the progress line. */
  connections: number;
  /** SARIF 2.1.0 on stdout (problems and findings). */
  sarif?: boolean;
  /** The team's policies (.contracts.yaml), checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /** `--prune`: plan the deletion of managed contracts whose files are gone (see PlanRequest). */
  prune?: PlanRequest['prune'];
  /** Levels of lineage read for the consumers of a breaking change (the settings file's). */
  impactDepth?: number | undefined;
}

/** The plan, or null when files are invalid (problems already reported, nothing written). */
export async function planFilesForCommand(
  options: PlanFilesOptions,
  io: Io,
  client: CatalogClient,
  catalogUrl: string,
): Promise<Extract<PlanOutcome, { ok: true }> | null> {
  const progress = progressLine(io.stderr, 'Reading live contracts', {
    concurrency: options.connections,
  });
  const outcome = await planFromFiles(
    {
      paths: options.paths,
      cwd: io.cwd,
      catalogUrl,
      gitCommit: currentCommit(io.cwd, io.env),
      ...(options.only === undefined ? {} : { only: options.only }),
      progress,
      strict: options.strict,
      keepLive: options.keepLive,
      ...(options.sealed === false ? { sealed: false } : {}),
      profile: options.profile,
      ...(options.policies === undefined ? {} : { policies: options.policies }),
      repository: repositoryOf(io.cwd, io.env),
      ...(options.prune === undefined ? {} : { prune: options.prune }),
      ...(options.impactDepth === undefined ? {} : { impactDepth: options.impactDepth }),
    },
    client,
  ).finally(() => progress.clear());
  if (outcome.ok) return outcome;
  // With --json the problems are the machine output, as `validate --json` gives them.
  if (options.sarif === true)
    io.stdout.write(
      `${JSON.stringify(sarifLog(problemResults(outcome.problems, 'invalidContract'), VERSION), null, 2)}\n`,
    );
  else if (options.json)
    io.stdout.write(
      `${JSON.stringify({ valid: false, fileCount: outcome.fileCount, problems: outcome.problems }, null, 2)}\n`,
    );
  else
    io.stdout.write(renderProblems(outcome.problems, options.github === true ? 'github' : 'human'));
  io.stderr.write(
    `Error: ${outcome.problems.length} problem${outcome.problems.length === 1 ? '' : 's'} in contract files; nothing was written to the catalog.\n`,
  );
  return null;
}
