// A plan is data: what apply will send for each contract file, and why. Renderings are views.
import type { Operation } from '../model/operation.js';
import type { Finding } from '../model/finding.js';
import type { Profile } from '../model/profile.js';

/** 2: each change carries `findings`. A plan of format 1 (without them) is read all the same. */
export const PLAN_FORMAT_VERSION = 2;

/** `create`: the catalog has no such contract and apply creates it; `update`: the patch changes the live contract; `delete`: a contract this repository managed whose file is gone (`--prune`), which apply deletes; `noop`: nothing to change; `missing`: the catalog has no such contract (kept for plans that could not look its asset up); `error`: this contract cannot be planned. */
export type ChangeAction = 'create' | 'update' | 'delete' | 'noop' | 'missing' | 'error';

/** What apply sends to create a contract, and the asset it was planned against. */
export interface PlannedCreate {
  /** The asset's id when planned; apply refuses the plan when the asset's id changed. */
  assetId: string;
  assetType: string;
  assetFullyQualifiedName: string;
  /** The body of `POST /v1/dataContracts`, exactly as apply sends it. */
  body: Record<string, unknown>;
}

/** One line of a change as people read it: the symbol Terraform users know, a readable field, before and after. */
export interface DiffLine {
  symbol: '+' | '-' | '~' | '↕';
  /** Field as a person reads it, e.g. `schema["amount"].dataType`. */
  field: string;
  before?: unknown;
  after?: unknown;
  /** Where an added keyed item goes among the live ones: `first`, or `after "amount"`. */
  position?: string;
}

/** An owner of an asset, as the catalog names it. */
export interface Owner {
  type: string;
  name: string;
}

/** An asset downstream of a contract's asset, and who owns it (null: could not be read). */
export interface Consumer {
  type: string;
  fullyQualifiedName: string;
  owners: Owner[] | null;
}

/** Who a breaking change reaches: the assets downstream of the contract's asset. */
export interface ChangeImpact {
  asset: { type: string; fullyQualifiedName: string };
  consumers: Consumer[];
  /** Why the consumers of this asset are not known (its lineage could not be read). */
  unknown?: string;
}

/** What a plan says of the lookup of consumers as a whole. */
export interface PlanImpact {
  /** How many levels downstream were read. */
  depth: number;
  /** Why no consumer was looked up (a catalog without lineage, lineage refused). */
  unavailable?: string;
}

export interface PlannedChange {
  /** Contract file, relative to the working directory. */
  file: string;
  fullyQualifiedName: string;
  /** Live contract id, null when missing or unknown. */
  id: string | null;
  action: ChangeAction;
  liveVersion: number | null;
  /** `sha256:` of the live contract as fetched; apply refuses the plan when it moved. */
  liveHash: string | null;
  /**
   * Exactly what apply sends: the minimal changes, each keyed array item they address by index
   * guarded by a `test` of its key, after a `test` of the version the plan was made against.
   */
  patch: Operation[];
  /** Breaking changes in the patch (column removed, SLA weakened, ...): `findings`' sentences. */
  breaking: string[];
  /** Why the contract cannot be planned: the sentence of the error among `findings`. */
  error: string | null;
  /** For `create`: the request apply sends; null or undefined otherwise. */
  create?: PlannedCreate | null | undefined;
  /** The patch (or, for a create, every field it sets) as people read it (same order). */
  diff: DiffLine[];
  /** The sentences of the warnings among `findings` (errors with --strict). */
  warnings: string[];
  /** Notes for reviewers: inherited fields, missing contracts, skipped checks. */
  notes: string[];
  /** For a breaking change: the consumers downstream of the contract's asset. */
  impact?: ChangeImpact | undefined;
  /**
   * What was found, each at its place in the file: the error, then the breaking changes, then the
   * warnings. Absent from plans of format version 1.
   */
  findings?: Finding[] | undefined;
}

/**
 * `change` as one object literal, the same for every change (`create` is undefined when there is
 * none, which JSON leaves out). A change built by spreading is an object of its own shape, with
 * its properties in a hash table: hundreds of bytes more for each of thousands of changes.
 */
export function plannedChange(change: PlannedChange): PlannedChange {
  const { file, fullyQualifiedName, patch, breaking, diff, warnings, notes } = change;
  const { id, liveVersion, liveHash, action, create, error, impact, findings } = change;
  return {
    file,
    fullyQualifiedName,
    patch,
    breaking,
    diff,
    warnings,
    notes,
    id,
    liveVersion,
    liveHash,
    action,
    create,
    error,
    impact,
    findings,
  };
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  noop: number;
  error: number;
  missing: number;
}

export interface Plan {
  /** A plan saved by the release before findings is of format 1: read, applied and shown the same. */
  formatVersion: 1 | typeof PLAN_FORMAT_VERSION;
  catalogUrl: string;
  /** The catalog profile the patches are shaped for; apply refuses a plan of another. */
  catalogProfile: Profile;
  gitCommit: string | null;
  createdAt: string;
  /** What the run says of the catalog as a whole, once (a release newer than the tool knows). */
  notes?: string[];
  summary: PlanSummary;
  changes: PlannedChange[];
  /** With a breaking change: how its consumers were looked up (none were without one). */
  impact?: PlanImpact;
  /** `sha256:` over the rest of the plan; apply refuses a plan file whose content does not match. */
  checksum: string;
}

export function summarize(changes: readonly PlannedChange[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, noop: 0, error: 0, missing: 0 };
  for (const change of changes) summary[change.action] += 1;
  return summary;
}

export function hasBreaking(plan: Plan): boolean {
  return plan.changes.some((change) => change.breaking.length > 0);
}

/** Contracts the plan creates, changes or deletes. */
export function changeCount(plan: Plan): number {
  return plan.summary.create + plan.summary.update + (plan.summary.delete ?? 0);
}

/** The contracts the plan deletes. */
export function deletions(plan: Plan): PlannedChange[] {
  return plan.changes.filter((change) => change.action === 'delete');
}
