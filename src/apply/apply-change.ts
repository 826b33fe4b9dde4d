// One contract's change applied: its guarded PATCH, what the catalog answered read back after a
// lost answer, and, when a guard refused it (the contract moved since the plan), the change
// planned once more against its file, or failed as stale. apply-plan.ts runs these for a plan.
import type { LiveContract, PatchedContract } from '../catalog/client.js';
import { ifMatchFor } from '../catalog/etag.js';
import {
  FIELD_SHAPES,
  MANAGED_FIELDS,
  type DesiredContract,
  type Shape,
} from '../model/contract.js';
import type { Codec } from '../profile/codec.js';
import { idsOfOperations, operationsWithIds, storedReferenceIds } from '../profile/references.js';
import { diffContract } from '../diff/diff-contract.js';
import { guardPatch } from '../diff/guard.js';
import { topMember } from '../model/json-value.js';
import type { Operation } from '../model/operation.js';
import { project } from '../diff/project.js';
import { applyToCopy, verifyPatch } from '../diff/verify.js';
import { CatalogError, errorMessage } from '../model/errors.js';
import { hashContract } from '../plan/create-plan.js';
import { CONTRACT_FIELDS } from '../read/read-plan-inputs.js';
import type { PlannedChange } from '../plan/types.js';
import { ruleRefusal, type AssetRules } from '../plan/asset-rules.js';
import type { CatalogCreator } from './create.js';
import type { CatalogDeleter } from './delete.js';
import {
  GUARD_STATUSES,
  answerLost,
  applies,
  failedTest,
  reached,
  rebase,
  refusedEtag,
  sameManaged,
} from './guard-refusals.js';
import { failure, failureText, type ContractResult } from './results.js';

/** The catalog calls apply needs. CatalogClient provides them. */
export interface CatalogWriter extends CatalogCreator {
  deleteContract: CatalogDeleter['deleteContract'];
  getContractById(id: string, fields?: readonly string[]): Promise<LiveContract>;
  patchContract(
    id: string,
    operations: readonly Operation[],
    options?: { ifMatch?: string },
  ): Promise<PatchedContract>;
}

/** The desired state a patch leads to, for the fields it touches (for re-diffing after a failure). */
export function targetOf(
  live: LiveContract,
  patch: readonly Operation[],
  shapes: ReadonlyMap<string, Shape> = FIELD_SHAPES,
): DesiredContract {
  const after = applyToCopy(live, patch);
  const touched = new Set<string>();
  for (const op of patch) {
    touched.add(topMember(op.path));
    if (op.op === 'move') touched.add(topMember(op.from));
  }
  const target: DesiredContract = {
    name: live.name,
    fullyQualifiedName: live.fullyQualifiedName,
    entity: { type: live.entity.type, fullyQualifiedName: live.entity.fullyQualifiedName },
  };
  for (const field of MANAGED_FIELDS) {
    if (!touched.has(field)) continue;
    target[field] = after[field] === undefined ? null : project(after[field], shapes.get(field)!);
  }
  return target;
}

interface ChangeContext {
  change: PlannedChange;
  /** The contract as read for this apply: If-Match comes from it (ifMatchFor). */
  live: LiveContract;
  /** What the planned patch leads to, for the fields it touches. */
  target: DesiredContract;
  /** The file's desired contract, when the contract may be planned again after it moved. */
  desired: DesiredContract | undefined;
  catalog: CatalogWriter;
  attempts: number;
  /** Shapes of the catalog's wire, for diffs after a re-read. */
  shapes: ReadonlyMap<string, Shape>;
  /** The catalog's codec: whether a PATCH sends If-Match, and which of its validators. */
  codec: Codec;
  /** The data asset rules a change planned again is weighed against, when the plan had them. */
  assetRules: AssetRules | undefined;
  /** What the run learnt of the catalog's If-Match, shared by every change of the run. */
  ifMatchRun?: IfMatchRun;
}

/**
 * Whether the catalog dropped a change sent with If-Match in this run: an OpenMetadata build
 * without the fix for open-metadata/OpenMetadata#28876 answers such a PATCH 200 at the old version
 * and stores nothing of status, SLA, terms, security, schema, semantics or quality. From then on
 * the run sends no If-Match to it: the patch's `test` guards protect each write.
 */
export interface IfMatchRun {
  dropped: boolean;
}

/** Each catalog's IfMatchRun: one per client, so per run, whatever rounds the run applies in. */
const IF_MATCH_RUNS = new WeakMap<object, IfMatchRun>();

/** What this run learnt of `catalog`'s If-Match so far. */
export function ifMatchRunOf(catalog: object): IfMatchRun {
  let run = IF_MATCH_RUNS.get(catalog);
  if (run === undefined) IF_MATCH_RUNS.set(catalog, (run = { dropped: false }));
  return run;
}

/** What apply says, once, of a catalog that dropped a change sent with If-Match. */
export const IF_MATCH_DROPPED_NOTE =
  'the catalog answered a PATCH sent with If-Match 200 at the version the contract had and kept nothing of it, as OpenMetadata builds without the fix for open-metadata/OpenMetadata#28876 do: that change was sent once more without If-Match, under the same test guards, and this run sent no If-Match after it';

/** The If-Match to send with a PATCH of `contract`, unless the run learnt the catalog drops it. */
function ifMatchOf(contract: unknown, context: ChangeContext): string | undefined {
  return context.ifMatchRun?.dropped === true ? undefined : ifMatchFor(contract, context.codec);
}

/**
 * The failure of a PATCH answered at the version it was sent against whose change the contract,
 * read back, does not have; undefined when it has it (the change was folded into that
 * version) or cannot be read.
 */
async function droppedChange(
  context: ChangeContext,
  target: DesiredContract,
): Promise<ContractResult | undefined> {
  const { change, catalog } = context;
  let fresh: LiveContract;
  try {
    fresh = await catalog.getContractById(change.id!, CONTRACT_FIELDS);
  } catch {
    return undefined;
  }
  if (reached(fresh, target, context.shapes)) return undefined;
  return {
    status: 'failed',
    file: change.file,
    fullyQualifiedName: change.fullyQualifiedName,
    httpStatus: null,
    errorType: 'NOT_KEPT',
    message: `the catalog answered 200 at the version the contract had and kept nothing: read back, the contract (version ${String(fresh.version)}) does not have the change. OpenMetadata drops a PATCH in which it counts no change (one only to a column's description or constraint, or to a list's order); make it together with a change it counts, to another field of this contract`,
  };
}

/**
 * What the catalog dropped of an ODCS-imported contract beside the change: OpenMetadata 2.0.0
 * strips `odcsElementExtensions` on any update that is not an ODCS import (#31145, fixed in 2.0.1
 * by its notes; plan refuses such a change on 2.0.0). A build that still does it is said here, on
 * the contract it happened to; undefined when the passthrough was kept or there was none.
 */
function passthroughLost(before: LiveContract, after: PatchedContract): string | undefined {
  const had = (before as { odcsElementExtensions?: unknown }).odcsElementExtensions;
  const has = (after as { odcsElementExtensions?: unknown }).odcsElementExtensions;
  if (had === undefined || had === null || (has !== undefined && has !== null)) return undefined;
  return 'the catalog dropped what this contract kept of its ODCS document (odcsElementExtensions) along with this change, as OpenMetadata 2.0.0 does (open-metadata/OpenMetadata#31145): import the ODCS document again to bring it back, or keep that part of it in the file';
}

export async function applyChange(context: ChangeContext): Promise<ContractResult> {
  const { change, catalog } = context;
  const names = { file: change.file, fullyQualifiedName: change.fullyQualifiedName };
  const redact = catalog.redact.bind(catalog);
  let operations: readonly Operation[] = change.patch;
  let ifMatch = ifMatchOf(context.live, context);
  /** Whether the patch was sent once more without If-Match after the catalog dropped it. */
  let resentWithoutIfMatch = false;
  let target = context.target;
  let replannedAt: number | null = null;
  let lostAnswers = 0;
  /** Whether the patch was sent once more after a refusal for something it does not touch. */
  let refreshed = false;
  /** The contract the patch was made from (as read for this apply, or planned again against). */
  let base = context.live;
  /** The hash of the contract the patch was made from (the plan's, or the one planned again). */
  let baseHash = change.liveHash;
  for (;;) {
    let failed: unknown;
    try {
      const patched = await catalog.patchContract(
        change.id!,
        operations,
        ifMatch === undefined ? {} : { ifMatch },
      );
      // What this PATCH changed, apart from earlier changes the catalog folded it in with.
      const description = patched.incrementalChangeDescription ?? patched.changeDescription;
      const changed = [
        description?.fieldsAdded,
        description?.fieldsUpdated,
        description?.fieldsDeleted,
      ].some((list) => (list ?? []).length > 0);
      const from = replannedAt ?? change.liveVersion;
      // The version did not move: the change was folded into it, or the catalog kept nothing of
      // it (OpenMetadata answers a PATCH in which it counts no change, and drops it).
      if (patched.version === from) {
        const dropped = await droppedChange(context, target);
        // Sent with If-Match and dropped: the signature of #28876. Once more without it, under
        // the same test guards (nothing was stored, so they hold as before).
        if (
          dropped !== undefined &&
          ifMatch !== undefined &&
          context.codec.profile === 'openmetadata' &&
          !resentWithoutIfMatch
        ) {
          if (context.ifMatchRun !== undefined) context.ifMatchRun.dropped = true;
          resentWithoutIfMatch = true;
          ifMatch = undefined;
          continue;
        }
        if (dropped !== undefined) return dropped;
      }
      const folded = changed && patched.version === from;
      const lost = passthroughLost(base, patched);
      return {
        status: 'applied',
        ...names,
        oldVersion: change.liveVersion,
        newVersion: typeof patched.version === 'number' ? patched.version : null,
        changeDescription: description ?? null,
        ...(folded ? { folded: true as const } : {}),
        confirmedByReread: false,
        replannedAt,
        ...(lost === undefined ? {} : { warnings: [lost] }),
      };
    } catch (error) {
      failed = error;
    }
    const refused =
      failed instanceof CatalogError && (GUARD_STATUSES.has(failed.status) || failedTest(failed));
    const lost = answerLost(failed);
    if (!lost && !refused) return failure(change, failed, redact);
    if (lost) lostAnswers += 1;
    // Whether the PATCH landed, or why it was refused, is learnt from the contract as it is now.
    let fresh: LiveContract;
    try {
      fresh = await catalog.getContractById(change.id!, CONTRACT_FIELDS);
    } catch (error) {
      if (!lost) return failure(change, failed, redact);
      const why = errorMessage(error, redact);
      return {
        status: 'failed',
        ...names,
        httpStatus: null,
        errorType: 'OUTCOME_UNKNOWN',
        message: `the answer to the PATCH was lost (${failureText(failed, redact)}) and reading the contract back failed (${why}): the change may or may not be in place; run plan to see`,
      };
    }
    if (lost && reached(fresh, target, context.shapes)) {
      return {
        status: 'applied',
        ...names,
        oldVersion: change.liveVersion,
        newVersion: fresh.version,
        changeDescription: null,
        confirmedByReread: true,
        replannedAt,
      };
    }
    // Refused, yet the contract holds the change: the client sent it again after a 429 the catalog
    // answered when it had kept it, or another writer made the same change. It is in place, but
    // who put it there cannot be told: a conflict, said as it is, never "nothing was applied".
    if (refused && !applies(fresh, operations) && reached(fresh, target, context.shapes))
      return {
        status: 'failed',
        ...names,
        httpStatus: failed instanceof CatalogError ? failed.status : null,
        errorType: 'CONFLICT',
        message: `the catalog refused the PATCH (${failureText(failed, redact)}) because the contract changed since ${replannedAt === null ? 'the plan was made' : 'it was planned again'}, and read back it (version ${String(fresh.version)}) already holds this change: kept from an earlier attempt the catalog answered 429 or 412 after keeping it, or made by another writer. Run plan to see`,
      };
    ifMatch = ifMatchOf(fresh, context);
    // The guards' test ops still hold; for a refused If-Match, the contract must also be as the
    // patch was made from (identity, version, managed fields), since a change the same user made
    // is folded into the version and an item appended beside the patch's escapes every test op.
    const unmoved =
      applies(fresh, operations) &&
      !(refusedEtag(failed) && baseHash !== null && hashContract(fresh) !== baseHash);
    if (unmoved) {
      // The guards still hold, so the contract is as the patch expects and it did not land.
      if (refusedEtag(failed)) {
        // Only the ETag moved (the contract was touched without a change the patch minds, such
        // as a data-quality run's result): once more, with If-Match from the contract just read.
        if (refreshed) return failure(change, failed, redact);
        refreshed = true;
        continue;
      }
      if (refused) return failure(change, failed, redact);
      if (lostAnswers > context.attempts) {
        const result = failure(change, failed, redact);
        return {
          ...result,
          message: `${result.message}; not applied: read back, the contract (version ${String(fresh.version)}) does not have the change`,
        };
      }
      continue; // The same guarded patch again: if it did land after all, its guards refuse it.
    }
    // Only the version or the time of the last update moved (a write that left every field the
    // patch reads as it was: an unmanaged field, a data-quality run): the same change, guarded by
    // the contract just read, once more.
    const rebased = rebase(operations, fresh);
    if (!refreshed && sameManaged(fresh, base) && applies(fresh, rebased)) {
      refreshed = true;
      operations = rebased;
      base = fresh;
      continue;
    }
    // A guard no longer holds: the contract moved since the patch was made.
    const moved = `the contract changed since ${replannedAt === null ? 'the plan was made' : 'it was planned again'} (version ${String(replannedAt ?? change.liveVersion)} then, ${String(fresh.version)} now)`;
    if (context.desired === undefined || replannedAt !== null) {
      // A 5xx was answered, not lost: older OpenMetadata servers answer 500 to a patch whose
      // guard fails, so the change most likely never landed.
      const outcome = !lost
        ? 'nothing was applied to it'
        : failed instanceof CatalogError
          ? `the catalog answered ${failed.status} and the contract does not have this change: an older OpenMetadata answers 500 to a patch whose guard no longer holds, so it was most likely refused (unless it landed and the contract moved on after)`
          : 'the answer to this apply was lost, and the contract no longer has its change (it may have landed before the contract moved on)';
      return {
        status: 'failed',
        ...names,
        httpStatus: failed instanceof CatalogError ? failed.status : null,
        errorType: 'CONFLICT',
        message: `${moved}; ${outcome}. ${context.desired === undefined ? 'Make a new plan and apply that.' : 'Run apply again.'}`,
      };
    }
    // Plan this contract again, once, from its file against the contract as it is now.
    const changes = diffContract(fresh, context.desired, context.shapes);
    if (changes.length === 0) {
      return {
        status: 'unchanged',
        ...names,
        reason: `${moved}, and it is now as the file says`,
      };
    }
    // Entities referenced again carry the ids the planned patch gave them, or those of the
    // contract as it is now (a catalog that stores references by id; none under the spec).
    const ids = new Map([...idsOfOperations(change.patch), ...storedReferenceIds(fresh)]);
    operations = guardPatch(fresh, operationsWithIds(changes, ids));
    const after = verifyPatch(fresh, context.desired, operations, context.shapes);
    // The catalog weighs its rules on the contract as it is now: a change it refuses is not sent.
    const ruled = ruleRefusal(fresh, after, context.desired.owners, context.assetRules);
    if (ruled !== undefined) {
      const message = `${moved}; planned again against it, the change would be refused: ${ruled}. Nothing was sent for it; run plan to see`;
      return {
        status: 'failed',
        ...names,
        httpStatus: null,
        errorType: 'REFUSED_BY_RULE',
        message,
      };
    }
    target = context.desired;
    replannedAt = fresh.version;
    base = fresh;
    baseHash = hashContract(fresh);
  }
}
