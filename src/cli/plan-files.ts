// The planning step `plan` and `apply` share on the command line: the plan operation with a
// progress line on a terminal while the live contracts are read; when a file is invalid, its
// problems shown in the command's format (and then nothing is written).
import type { CatalogClient } from '../catalog/client.js';
import { currentCommit } from '../pipeline/git.js';
import type { PlanRequest } from '../pipeline/plan-pipeline.js';
import { checkoutOf } from '../git/repository.js';
import type { ProfileSetting } from '../model/profile.js';
import type { Io } from './io.js';
import { progressLine } from './progress.js';
import type { PolicyCheck } from '../policy/policies.js';
import { planOperation, type CheckedPlan, type PlanChecks } from '../operations/plan.js';
import type { Format } from '../views/format.js';
import { showInvalidFiles } from '../views/plan.js';

export interface CommandPlanning {
  paths: string[];
  /** How invalid files are shown. */
  format: Format;
  strict: boolean;
  only: ReadonlySet<string> | undefined;
  /** Keep the live contracts of changed contracts (apply). */
  keepLive: boolean;
  /** Hash the live contracts read, for a plan saved, printed as JSON or applied (default true). */
  sealed?: boolean;
  profile: ProfileSetting;
  /** The most requests out at once (the client's connections), for the progress line. */
  connections: number;
  /** The team's policies (.contracts.yaml), checked on every planned contract. */
  policies?: readonly PolicyCheck[] | undefined;
  /** `--prune`: plan the deletion of managed contracts whose files are gone (see PlanRequest). */
  prune?: PlanRequest['prune'] | undefined;
  /** Levels of lineage read for the consumers of a breaking change (the settings file's). */
  impactDepth?: number | undefined;
  /** Name the contracts this repository manages whose files are gone (see PlanRequest). */
  orphans?: boolean;
}

/** The checked plan, or null when files are invalid (problems already shown, nothing written). */
export async function planShowingProgress(
  planning: CommandPlanning,
  checks: PlanChecks,
  io: Io,
  client: CatalogClient,
  catalogUrl: string,
): Promise<CheckedPlan | null> {
  const progress = progressLine(io.stderr, 'Reading live contracts', {
    concurrency: planning.connections,
  });
  const { only, policies, prune, impactDepth } = planning;
  const result = await planOperation(
    {
      paths: planning.paths,
      cwd: io.cwd,
      catalogUrl,
      gitCommit: currentCommit(io.cwd, io.env),
      ...(only && { only }),
      progress,
      strict: planning.strict,
      keepLive: planning.keepLive,
      ...(planning.sealed === false && { sealed: false }),
      profile: planning.profile,
      ...(policies && { policies }),
      repository: checkoutOf(io.cwd, io.env),
      ...(prune && { prune }),
      ...(impactDepth !== undefined && { impactDepth }),
      ...(planning.orphans === true && { orphans: true }),
    },
    client,
    checks,
  ).finally(() => progress.clear());
  if (result.ok) return result;
  showInvalidFiles(result, planning.format, io);
  return null;
}
