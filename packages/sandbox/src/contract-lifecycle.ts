// Deleting and restoring data contracts in the sandbox, as OpenMetadata's endpoints do (the
// specification shows none): `DELETE /v1/dataContracts/{id}` and `/name/{fqn}`, soft by default
// (the contract is kept, `deleted: true`, a new version, found again with `include=deleted`) and
// hard with `hardDelete=true` (gone, its name free); `PUT /v1/dataContracts/restore` with `{id}`
// brings a soft-deleted contract back, a new version again.
import { randomBytes } from 'node:crypto';
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

/** OpenMetadata's answer to an exception no mapper of its own takes (UnhandledServerException). */
class UnhandledError extends ApiError {
  override get errorType(): string {
    return 'UNHANDLED_SERVER_EXCEPTION';
  }
}

/** A body Jackson reads as RestoreEntity: `{id}` with a UUID, nothing else. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * PUT /restore with `{id}`: a soft-deleted contract brought back, a version of its own. As
 * OpenMetadata (`EntityRepository.restoreEntity`, read at 1.12.6 and on main): an id that names no
 * deleted contract (a live one, or none at all) is not found among the deleted, the repository
 * answers null, and the resource's use of it fails with a NullPointerException that no mapper of
 * its own takes: a 500. `genericText` answers it with Dropwizard's catch-all text instead
 * (the release's `genericTestFailureText` variant: which catch-all answers is unconfirmed).
 */
export function restoreContract(
  store: Store,
  user: SeedUser,
  body: unknown,
  now: number,
  genericText = false,
): Json {
  const given = body as { id?: unknown } | null;
  // RestoreEntity requires `id` (bean validation) and reads it as a UUID (Jackson).
  if (given === null || typeof given !== 'object' || given.id === undefined || given.id === null)
    throw new ApiError(400, '[query param id must not be null]');
  const { id } = given;
  if (typeof id !== 'string' || !UUID.test(id))
    throw new ApiError(
      400,
      `Cannot deserialize value of type \`java.util.UUID\` from String ${JSON.stringify(typeof id === 'string' ? id : JSON.stringify(id))}: UUID has to be represented by standard 36-char representation`,
    );
  requirePermission(user, 'EditDataContract', 'EditAll');
  const contract = store.contracts.get(id);
  if (contract?.deleted !== true)
    throw new UnhandledError(
      500,
      genericText
        ? `There was an error processing your request. It has been logged (ID ${randomBytes(8).toString('hex')}).`
        : 'An exception with message [Cannot invoke "org.openmetadata.service.util.RestUtil$PutResponse.getEntity()" because "response" is null] was thrown while processing request.',
    );
  store.keepVersion(contract);
  const restored = withDeleted(contract, false, user, now);
  store.putContract(restored);
  return restored;
}
