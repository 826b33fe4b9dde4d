// Deleting the contracts a plan deletes (`--prune`): guarded like every write. The contract is read
// again just before, and deleted only while it is the version the plan saw, with the same content,
// and while this repository's history still proves its deletion (prune/proof.ts: a marker another
// repository wrote since, say, keeps it); a contract that moved is reported stale and kept. A lost answer is resolved by reading the
// contract again: gone (or marked deleted) is done, there as it was is a failure said as such.
import type { LiveContract } from '../catalog/client.js';
import { NotFoundError } from '../model/errors.js';
import { hashContract } from '../plan/seal.js';
import { CONTRACT_FIELDS } from '../read/read-plan-inputs.js';
import type { PlannedChange } from '../plan/types.js';
import type { DeletionGuard } from '../prune/proof.js';
import { answerLost } from './guard-refusals.js';
import { failure, type ContractResult } from './results.js';

/** What deleting needs of the catalog. CatalogClient provides it. */
export interface CatalogDeleter {
  getContractById(id: string, fields?: readonly string[]): Promise<LiveContract>;
  deleteContract(id: string, hard: boolean): Promise<LiveContract>;
  redact(text: string): string;
}

/** The contract as it is now, or null when the catalog no longer has it. */
async function current(catalog: CatalogDeleter, id: string): Promise<LiveContract | null> {
  try {
    return await catalog.getContractById(id, CONTRACT_FIELDS);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export async function applyDelete(
  change: PlannedChange,
  catalog: CatalogDeleter,
  hard: boolean,
  guard: DeletionGuard | undefined,
): Promise<ContractResult> {
  const names = { file: change.file, fullyQualifiedName: change.fullyQualifiedName };
  const id = change.id!;
  const stale = (message: string): ContractResult => ({
    status: 'failed',
    ...names,
    httpStatus: null,
    errorType: 'CONFLICT',
    message,
  });
  let before: LiveContract | null;
  try {
    before = await current(catalog, id);
  } catch (error) {
    return failure(change, error, (text) => catalog.redact(text));
  }
  if (before === null || before.deleted === true)
    return {
      status: 'unchanged',
      ...names,
      reason: 'already deleted since the plan was made',
    };
  if (before.version !== change.liveVersion || hashContract(before) !== change.liveHash)
    return stale(
      `the contract changed since the plan was made (version ${String(change.liveVersion)} then, ${String(before.version)} now): not deleted. Make a new plan to see what it holds now`,
    );
  const refusal =
    guard === undefined
      ? 'apply was given no way to prove it (no repository)'
      : await guard
          .refusal(before, change)
          .catch((error: unknown) => catalog.redact(String(error)));
  if (refusal !== undefined)
    return {
      status: 'failed',
      ...names,
      httpStatus: null,
      errorType: 'NOT_PROVEN',
      message: `not deleted: ${refusal}`,
    };
  let deleted: LiveContract;
  try {
    deleted = await catalog.deleteContract(id, hard);
  } catch (error) {
    if (!answerLost(error)) return failure(change, error, (text) => catalog.redact(text));
    // The answer was lost: what the catalog holds now says whether the delete landed.
    let after: LiveContract | null;
    try {
      after = await current(catalog, id);
    } catch {
      return failure(change, error, (text) => catalog.redact(text));
    }
    if (after !== null && after.deleted !== true)
      return failure(change, error, (text) => catalog.redact(text));
    return deletedResult(change, before, after, hard, true);
  }
  return deletedResult(change, before, deleted, hard, false);
}

function deletedResult(
  change: PlannedChange,
  before: LiveContract,
  answer: LiveContract | null,
  hard: boolean,
  confirmedByReread: boolean,
): ContractResult {
  return {
    status: 'applied',
    file: change.file,
    fullyQualifiedName: change.fullyQualifiedName,
    oldVersion: before.version,
    newVersion: hard ? null : (answer?.version ?? null),
    changeDescription: null,
    confirmedByReread,
    replannedAt: null,
    deleted: hard ? 'hard' : 'soft',
    deletedId: before.id,
  };
}
