// A contract's version history, as OpenMetadata serves it (`DataContractResource.listVersions`
// and `getVersion`, `EntityRepository.listVersions` and `getVersion`, 1.12.6): the specification
// shows neither route. The list is an `EntityHistory`, `{entityType, versions}`, whose versions
// are JSON *texts* of the whole contract: the current one first (read with everything, deleted
// or not), then every stored earlier version, newest first. A version a session folded into
// (`consolidateChanges`) is replaced, so the history holds what the server stores, not every
// PATCH. Both routes need ViewBasic; an unknown id is a 404, as is a version never stored.
// Earlier versions live for the sandbox's run (the state file keeps the current ones only).
import { requirePermission } from './auth.js';
import { ApiError, type Json } from './http.js';
import type { ContractResource, SeedUser } from './seed.js';
import type { Store } from './store.js';

/** What the history shows of one version: the contract as stored, in the server's view. */
export type VersionView = (contract: ContractResource) => Json;

function existing(store: Store, id: string): ContractResource {
  const contract = store.contracts.get(id);
  if (contract === undefined) throw new ApiError(404, `dataContract instance for ${id} not found`);
  return contract;
}

/** `GET /v1/dataContracts/{id}/versions`. */
export function listVersions(store: Store, user: SeedUser, id: string, view: VersionView): Json {
  requirePermission(user, 'ViewDataContract', 'ViewBasic');
  const current = existing(store, id);
  const earlier = store.keptVersions(id).sort((a, b) => b.version - a.version);
  return {
    entityType: 'dataContract',
    versions: [current, ...earlier].map((contract) => JSON.stringify(view(contract))),
  };
}

/** Java's `Double.toString` of a version, as the server's messages write it (1 is "1.0"). */
function javaDouble(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/**
 * Java's `Double.parseDouble` of the path's version, or the 400 its NumberFormatException is
 * answered with (an IllegalArgumentException, a bad request to the server's exception mapper).
 */
function parseVersion(text: string): number {
  const trimmed = text.trim();
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/.test(trimmed))
    return Number(trimmed.replace(/[fFdD]$/, ''));
  throw new ApiError(400, `For input string: "${text}"`);
}

/** `GET /v1/dataContracts/{id}/versions/{version}`: a stored version, or the current one. */
export function getVersion(
  store: Store,
  user: SeedUser,
  id: string,
  version: string,
  view: VersionView,
): Json {
  requirePermission(user, 'ViewDataContract', 'ViewBasic');
  const requested = parseVersion(version);
  const kept = store.keptVersion(id, requested);
  if (kept !== undefined) return view(kept);
  const current = existing(store, id);
  if (current.version === requested) return view(current);
  throw new ApiError(
    404,
    `dataContract instance for ${id} and version ${javaDouble(requested)} not found`,
  );
}
