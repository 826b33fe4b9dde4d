// Why the catalog would refuse to create a contract a file names, found by reading before anything
// is sent: the catalog keeps one contract per asset, so an asset whose own contract has another
// name refuses a second (400 "A data contract already exists for entity ..."), and a contract
// deleted softly keeps its name, so a new one of that name is refused too (OpenMetadata: 409
// "Entity already exists"). A plan that said "create" there would only fail on apply.
import type { LiveContract } from '../catalog/client.js';
import { AuthError, NotFoundError, errorMessage } from '../model/errors.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';

/** The asset a contract would be created on. */
export interface CreateTarget {
  id: string;
  type: string;
  fullyQualifiedName: string;
}

/**
 * The asset's effective contract (`GET /v1/dataContracts/entity`): null when it has none (404),
 * and also when the catalog could not say (a refusal other than a bad token, or a failed
 * request), which `unknown` then tells.
 */
export async function effectiveContractOf(
  reader: CatalogReader,
  asset: Pick<CreateTarget, 'id' | 'type'>,
): Promise<{ contract: LiveContract | null; unknown?: string }> {
  try {
    return { contract: await reader.getEffectiveContract(asset.id, asset.type) };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof NotFoundError) return { contract: null };
    return {
      contract: null,
      unknown: errorMessage(error, reader.redact.bind(reader)),
    };
  }
}

/** The FQN of the asset's own contract, from its effective one (not one inherited from a product). */
export function ownContractName(effective: LiveContract | null): string | undefined {
  return effective === null || effective.inherited === true
    ? undefined
    : effective.fullyQualifiedName;
}

/**
 * Why `fqn` cannot be created on `asset`, whose effective contract is `effective`: the asset's own
 * contract has another name. Undefined when nothing there stands in the way.
 */
function ownContractBlocker(
  fqn: string,
  asset: CreateTarget,
  effective: LiveContract | null,
): string | undefined {
  const other = ownContractName(effective);
  if (effective === null || other === undefined || other === fqn) return undefined;
  const name = typeof effective.name === 'string' ? effective.name : other;
  return `${asset.type} ${asset.fullyQualifiedName} already has a data contract, ${other}, and the catalog keeps one per asset, so it would refuse this one: to manage that contract with this file, set name to ${name} and fullyQualifiedName to ${other} (contracts import --fqn ${other} writes its file); nothing will be sent for this contract`;
}

/**
 * Why `fqn` cannot be created because a deleted contract still holds the name (read with
 * `include=deleted`); undefined when none does. A bad token stops the caller; any other failure
 * to read is returned as `unknown`, for the caller to say.
 */
async function deletedContractBlocker(
  reader: CatalogReader,
  fqn: string,
): Promise<{ blocker?: string; unknown?: string }> {
  let deleted: LiveContract;
  try {
    deleted = await reader.getContractByName(fqn, [], { include: 'deleted' });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof NotFoundError) return {};
    return {
      unknown: `could not check whether a deleted contract holds the name ${fqn} (${errorMessage(error, reader.redact.bind(reader))}); if one does, the catalog will refuse the create`,
    };
  }
  if (deleted.deleted !== true) return {};
  return {
    blocker: `the catalog holds a deleted data contract named ${fqn} (id ${deleted.id}, version ${String(deleted.version)}), and a deleted contract keeps its name, so it would refuse to create another: restore that one with \`contracts restore ${fqn}\` and plan again to bring it to this file, or delete it for good (DELETE /v1/dataContracts/${deleted.id}?hardDelete=true); nothing will be sent for this contract`,
  };
}

/**
 * Why the catalog would refuse to create `fqn` on `asset`, whose effective contract is
 * `effective`: the asset's own contract of another name, else a deleted contract that keeps the
 * name (one more read, only when the first does not stand in the way). `unknown` says why the
 * second could not be checked.
 */
export async function createBlocker(
  reader: CatalogReader,
  fqn: string,
  asset: CreateTarget,
  effective: LiveContract | null,
): Promise<{ blocker?: string; unknown?: string }> {
  const own = ownContractBlocker(fqn, asset, effective);
  return own === undefined ? deletedContractBlocker(reader, fqn) : { blocker: own };
}
