// Deleting and restoring data contracts in the sandbox, as OpenMetadata's endpoints do (the
// specification shows none): `DELETE /v1/dataContracts/{id}` and `/name/{fqn}`, soft by default
// (the contract is kept, `deleted: true`, a new version, found again with `include=deleted`) and
// hard with `hardDelete=true` (gone, its name free); `PUT /v1/dataContracts/restore` with `{id}`
// brings a soft-deleted contract back, a new version again.
import { requirePermission } from './auth.js';
import { ApiError, type Json } from './http.js';
import type { ContractResource, SeedUser } from './seed.js';
import type { Store } from './store.js';

/** The version after one more change, as OpenMetadata counts minor versions (0.1 more). */
function nextMinor(version: number): number {
  return Math.round((version + 0.1) * 10) / 10;
}

function notFound(what: string): ApiError {
  return new ApiError(404, `dataContract instance for ${what} not found`);
}

/** `contract` with `deleted` set to `deleted` by `user`: a version of its own. */
function withDeleted(
  contract: ContractResource,
  deleted: boolean,
  user: SeedUser,
  now: number,
): ContractResource {
  return {
    ...contract,
    deleted,
    version: nextMinor(contract.version),
    updatedAt: now,
    updatedBy: user.name,
    changeDescription: {
      fieldsAdded: [],
      fieldsUpdated: [{ name: 'deleted', oldValue: !deleted, newValue: deleted }],
      fieldsDeleted: [],
      previousVersion: contract.version,
    },
  };
}

/** DELETE by id or by name; answers the contract as it was deleted. */
export function deleteContract(
  store: Store,
  user: SeedUser,
  lookup: { id: string } | { fqn: string },
  query: URLSearchParams,
  now: number,
): Json {
  requirePermission(user, 'DeleteDataContract', 'Delete');
  const hard = query.get('hardDelete') === 'true';
  const contract =
    'id' in lookup
      ? store.contracts.get(lookup.id)
      : [...store.contracts.values()].find((c) => c.fullyQualifiedName === lookup.fqn);
  const what = 'id' in lookup ? lookup.id : lookup.fqn;
  // A soft-deleted contract can be deleted hard, never soft again.
  if (contract === undefined || (contract.deleted === true && !hard)) throw notFound(what);
  if (hard) {
    store.removeContract(contract.id);
    return { ...contract };
  }
  store.keepVersion(contract);
  const deleted = withDeleted(contract, true, user, now);
  store.putContract(deleted);
  return deleted;
}

/** PUT /restore with `{id}`: a soft-deleted contract brought back. */
export function restoreContract(store: Store, user: SeedUser, body: unknown, now: number): Json {
  requirePermission(user, 'EditDataContract', 'EditAll');
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw new ApiError(400, 'id must be given to restore an entity');
  const contract = store.contracts.get(id);
  if (contract === undefined) throw notFound(id);
  if (contract.deleted !== true)
    throw new ApiError(400, `dataContract ${contract.fullyQualifiedName} is not deleted`);
  store.keepVersion(contract);
  const restored = withDeleted(contract, false, user, now);
  store.putContract(restored);
  return restored;
}
