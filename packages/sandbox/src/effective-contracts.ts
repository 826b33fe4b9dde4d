// The effective contract of an entity (`GET /v1/dataContracts/entity`): its own, with what it
// inherits from its one data product whose contract is in force; a copy of the product's when it
// has none; a data product's own contract for a product.
import { ApiError, type Json } from './http.js';
import type { SandboxProfile } from './openmetadata.js';
import type { ContractResource, SeedAsset } from './seed.js';
import type { Store } from './store.js';

/** The status in which a data product's contract is inherited. */
const IN_FORCE: Record<SandboxProfile, string> = { spec: 'Active', openmetadata: 'Approved' };

/** A reference to `asset`, as a contract's `entity`. */
export function entityReference(asset: SeedAsset): Json {
  return {
    id: asset.id,
    type: asset.entityType,
    name: asset.name,
    fullyQualifiedName: asset.fullyQualifiedName,
  };
}

/** The contract of the asset's one data product, when it is in force (Active; Approved on OpenMetadata). */
function productContractInForce(
  store: Store,
  profile: SandboxProfile,
  asset: SeedAsset,
): ContractResource | undefined {
  const products = asset.dataProducts ?? [];
  if (products.length !== 1) return undefined;
  const product = store.dataProducts.get(products[0]!);
  if (product?.contract === undefined) return undefined;
  const contract = store.contractByFqn(product.contract);
  return contract !== undefined &&
    contract.deleted !== true &&
    contract.entityStatus === IN_FORCE[profile]
    ? contract
    : undefined;
}

const markInherited = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ...(value as Json), inherited: true }
    : value;

/** The effective contract `query` (entityId, entityType) asks for; 404 when there is none. */
export function effectiveContract(
  store: Store,
  profile: SandboxProfile,
  query: URLSearchParams,
): ContractResource {
  const entityId = query.get('entityId');
  const entityType = query.get('entityType');
  if (entityId === null || entityId === '')
    throw new ApiError(400, 'query param entityId must not be null');
  if (entityType === null || entityType === '')
    throw new ApiError(400, 'query param entityType must not be null');
  if (entityType === 'dataProduct') {
    // A data product's effective contract is its own.
    const product = [...store.dataProducts.values()].find((p) => p.id === entityId);
    const contract =
      product?.contract === undefined ? undefined : store.contractByFqn(product.contract);
    if (contract === undefined || contract.deleted === true)
      throw new ApiError(404, `dataContract instance for dataProduct ${entityId} not found`);
    return { ...contract, inherited: false };
  }
  const asset = store.assets.get(entityId);
  if (asset === undefined || asset.entityType !== entityType || asset.deleted === true) {
    throw new ApiError(404, `${entityType} instance for ${entityId} not found`);
  }
  const own = store.contractForAsset(asset);
  const product = productContractInForce(store, profile, asset);
  if (own === undefined && product === undefined) {
    throw new ApiError(404, `dataContract instance for ${entityType} ${entityId} not found`);
  }
  if (own === undefined) {
    const inherited: Json = {
      ...structuredClone(product!),
      entity: entityReference(asset),
      entityStatus: 'Draft',
      inherited: true,
    };
    delete inherited.schema;
    delete inherited.qualityExpectations;
    delete inherited.latestResult;
    for (const field of ['termsOfUse', 'security', 'sla'])
      if (inherited[field] !== undefined) inherited[field] = markInherited(inherited[field]);
    if (Array.isArray(inherited.semantics))
      inherited.semantics = inherited.semantics.map(markInherited);
    return inherited as ContractResource;
  }
  const effective: Json = structuredClone(own);
  if (product !== undefined) {
    for (const field of ['termsOfUse', 'security', 'sla']) {
      if (effective[field] === undefined && product[field] !== undefined)
        effective[field] = markInherited(structuredClone(product[field]));
    }
    const ownRules = Array.isArray(effective.semantics) ? (effective.semantics as Json[]) : [];
    const ownNames = new Set(ownRules.map((rule) => rule.name));
    const productRules = (
      Array.isArray(product.semantics) ? (product.semantics as Json[]) : []
    ).filter((rule) => !ownNames.has(rule.name));
    if (productRules.length > 0)
      effective.semantics = [...productRules.map(markInherited), ...ownRules];
  }
  effective.inherited = false;
  return effective as ContractResource;
}
