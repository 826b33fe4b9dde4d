// Data contracts in the sandbox: by id and name, effective contracts with data-product
// inheritance, create and PATCH (RFC 6902 applied with a real JSON-patch library), as the
// specification and, under the openmetadata profile, a real OpenMetadata server answer them.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import jsonpatch from 'fast-json-patch';
import { requirePermission } from './auth.js';
import { COMPUTED } from './change-description.js';
import { nextVersionOf } from './versioning.js';
import { checkCustomProperties } from './custom-properties.js';
import { ApiError, parseFields, type Json } from './http.js';
import {
  checkReviewerTypes,
  checkStoredContract,
  resolveReferences,
  withoutEmptyRelationships,
  withRelationships,
  type SandboxProfile,
} from './openmetadata.js';
import { checkDataAssetRules } from './asset-rules.js';
import { schemaNamesOf } from './asset-schemas.js';
import type { OpenMetadataRelease } from './release.js';
import type { Directory } from './directory.js';
import { stringify } from 'lossless-json';
import { javaEquals } from './java-json.js';
import { checkOperations, checkSource, valueAt } from './patch-operations.js';
import type { ContractResource, SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';

const OPTIONAL_CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;
const STATUSES: Record<SandboxProfile, readonly string[]> = {
  spec: ['Draft', 'Active', 'Deprecated'],
  openmetadata: [
    'Draft',
    'In Review',
    'Approved',
    'Archived',
    'Deprecated',
    'Rejected',
    'Unprocessed',
  ],
};
/** The status in which a data product's contract is inherited. */
const IN_FORCE: Record<SandboxProfile, string> = { spec: 'Active', openmetadata: 'Approved' };
/** Fields PATCH can never change: restored silently, as the real server does. */
const RESTORED_ON_PATCH = [
  'id',
  'name',
  'fullyQualifiedName',
  'createdAt',
  'createdBy',
  'version',
  'updatedAt',
  'updatedBy',
  'changeDescription',
  'href',
  'inherited',
  'latestResult',
];

function contractView(
  contract: ContractResource,
  fields: ReadonlySet<string>,
  profile: SandboxProfile,
): Json {
  const view: Json = profile === 'openmetadata' ? withRelationships(contract) : { ...contract };
  for (const field of OPTIONAL_CONTRACT_FIELDS) if (!fields.has(field)) delete view[field];
  return view;
}

function includeFilter(query: URLSearchParams): (contract: ContractResource) => boolean {
  const include = query.get('include') ?? 'non-deleted';
  if (include === 'all') return () => true;
  if (include === 'deleted') return (c) => c.deleted === true;
  if (include === 'non-deleted') return (c) => c.deleted !== true;
  throw new ApiError(
    400,
    `query param include must be one of [all, deleted, non-deleted], got '${include}'`,
  );
}

function entityReference(asset: SeedAsset): Json {
  return {
    id: asset.id,
    type: asset.entityType,
    name: asset.name,
    fullyQualifiedName: asset.fullyQualifiedName,
  };
}

function stripComputed(contract: Json): Json {
  const copy = { ...contract };
  for (const field of COMPUTED) delete copy[field];
  return copy;
}

export class Contracts {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly profile: SandboxProfile,
    /** The entities references may name (openmetadata); any name resolves without one. */
    private readonly directory?: Directory,
    /** The OpenMetadata release played (openmetadata): how it weighs If-Match. */
    private readonly release?: OpenMetadataRelease,
  ) {}

  // 4.1 / 4.2
  getContract(
    user: SeedUser,
    lookup: { id: string } | { fqn: string },
    query: URLSearchParams,
  ): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    const fields = parseFields(query, new Set(OPTIONAL_CONTRACT_FIELDS));
    const visible = includeFilter(query);
    const contract =
      'id' in lookup ? this.store.contracts.get(lookup.id) : this.store.contractByFqn(lookup.fqn);
    if (contract === undefined || !visible(contract)) {
      throw new ApiError(
        404,
        `dataContract instance for ${'id' in lookup ? lookup.id : lookup.fqn} not found`,
      );
    }
    return contractView(contract, fields, this.profile);
  }

  // 4.3
  getEffectiveContract(user: SeedUser, query: URLSearchParams): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    const entityId = query.get('entityId');
    const entityType = query.get('entityType');
    if (entityId === null || entityId === '')
      throw new ApiError(400, 'query param entityId must not be null');
    if (entityType === null || entityType === '')
      throw new ApiError(400, 'query param entityType must not be null');
    const fields = parseFields(query, undefined);
    if (entityType === 'dataProduct') {
      // A data product's effective contract is its own.
      const product = [...this.store.dataProducts.values()].find(
        (p) => (typeof p.id === 'string' ? p.id : p.name) === entityId,
      );
      const contract =
        product?.contract === undefined ? undefined : this.store.contractByFqn(product.contract);
      if (contract === undefined || contract.deleted === true)
        throw new ApiError(404, `dataContract instance for dataProduct ${entityId} not found`);
      return contractView({ ...contract, inherited: false }, fields, this.profile);
    }
    const asset = this.store.assets.get(entityId);
    if (asset === undefined || asset.entityType !== entityType || asset.deleted === true) {
      throw new ApiError(404, `${entityType} instance for ${entityId} not found`);
    }
    const own = this.store.contractForAsset(asset);
    const product = this.productContractInForce(asset);
    if (own === undefined && product === undefined) {
      throw new ApiError(404, `dataContract instance for ${entityType} ${entityId} not found`);
    }
    const markInherited = (value: unknown): unknown =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { ...(value as Json), inherited: true }
        : value;
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
      return contractView(inherited as ContractResource, fields, this.profile);
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
    return contractView(effective as ContractResource, fields, this.profile);
  }

  /** The contract of the asset's one data product, when it is in force (Active; Approved on OpenMetadata). */
  private productContractInForce(asset: SeedAsset): ContractResource | undefined {
    const products = asset.dataProducts ?? [];
    if (products.length !== 1) return undefined;
    const product = this.store.dataProducts.get(products[0]!);
    if (product?.contract === undefined) return undefined;
    const contract = this.store.contractByFqn(product.contract);
    return contract !== undefined &&
      contract.deleted !== true &&
      contract.entityStatus === IN_FORCE[this.profile]
      ? contract
      : undefined;
  }

  /**
   * `POST /v1/dataContracts` (the real server's create; the specification does not show one):
   * `name` and `entity {id, type}` required; one contract per asset; named after its asset.
   */
  createContract(user: SeedUser, contentType: string | undefined, body: () => unknown): Json {
    requirePermission(user, 'EditDataContract', 'Create');
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json')
      throw new ApiError(
        415,
        `POST requires Content-Type application/json, got '${contentType ?? ''}'`,
      );
    const request = body();
    if (request === null || typeof request !== 'object' || Array.isArray(request))
      throw new ApiError(400, 'the body must be a CreateDataContract object');
    const { name, entity, ...fields } = request as Json;
    if (typeof name !== 'string' || name === '') throw new ApiError(400, 'name must not be null');
    const reference = entity as { id?: unknown; type?: unknown } | undefined;
    if (typeof reference?.id !== 'string' || typeof reference.type !== 'string')
      throw new ApiError(400, 'entity must be a reference with id and type');
    for (const field of Object.keys(fields))
      if (RESTORED_ON_PATCH.includes(field) || field === 'deleted')
        throw new ApiError(400, `${field} cannot be set when creating a data contract`);
    const asset = this.store.assets.get(reference.id);
    if (asset === undefined || asset.deleted === true || asset.entityType !== reference.type)
      throw new ApiError(404, `${reference.type} instance for ${reference.id} not found`);
    if (this.store.contractForAsset(asset) !== undefined)
      throw new ApiError(
        400,
        `A data contract already exists for entity '${asset.entityType}' with ID ${asset.id}`,
      );
    const now = this.clock();
    const contract: Json = {
      ...structuredClone(fields),
      id: randomUUID(),
      name,
      fullyQualifiedName: `${asset.fullyQualifiedName}.dataContract_${name}`,
      entity: entityReference(asset),
      entityStatus: fields.entityStatus ?? 'Draft',
      version: 0.1,
      createdAt: now,
      createdBy: user.name,
      updatedAt: now,
      updatedBy: user.name,
    };
    // The create body takes the terms of use as text; OpenMetadata stores them as {content}.
    if (this.profile === 'openmetadata' && typeof contract.termsOfUse === 'string')
      contract.termsOfUse = { content: contract.termsOfUse };
    // The name is unique among all contracts, deleted ones included (a row they keep): the real
    // server's insert breaks its unique key, which it answers with a 409.
    if (this.store.contractByFqn(contract.fullyQualifiedName as string) !== undefined)
      throw new ApiError(409, 'Entity already exists');
    this.checkPatchedContract(contract as ContractResource, contract, true);
    this.store.putContract(contract as ContractResource);
    return contract;
  }

  // 4.4
  patchContract(
    user: SeedUser,
    id: string,
    contentType: string | undefined,
    body: () => unknown,
    ifMatch?: string,
  ): Json {
    requirePermission(user, 'EditDataContract', 'EditAll');
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json-patch+json') {
      throw new ApiError(
        415,
        `PATCH requires Content-Type application/json-patch+json, got '${contentType ?? ''}'`,
      );
    }
    const current = this.store.contracts.get(id);
    if (current === undefined || current.deleted === true)
      throw new ApiError(404, `dataContract instance for ${id} not found`);
    if (user.denyEdit?.includes(current.fullyQualifiedName) === true) {
      throw new ApiError(
        403,
        `Principal: CatalogPrincipal{name='${user.name}'} operations [EditAll] not allowed on ${current.fullyQualifiedName}`,
      );
    }
    if (ifMatch !== undefined) this.release?.checkIfMatch(ifMatch, current);
    const operations = checkOperations(body());
    const effective = operations.filter((op) => !/(^|\/)href$/.test(op.path));
    for (const [index, op] of effective.entries()) {
      if (op.path === '/deleted' || op.path.startsWith('/deleted/')) {
        throw new ApiError(
          400,
          `operation ${index} (${op.op} ${op.path}): deleted cannot be changed with PATCH`,
        );
      }
    }
    // One operation at a time on a copy, so a failure names its own index (fast-json-patch's
    // validator reports 0 for every operation) and nothing is kept unless all apply.
    // OpenMetadata patches the contract as it reads it, relationship lists and all.
    let patched = structuredClone<Json>(
      this.profile === 'openmetadata' ? withRelationships(current) : current,
    );
    for (const [index, op] of effective.entries()) {
      checkSource(patched, op, index);
      if (this.profile === 'openmetadata' && op.op === 'test') {
        // JSON-P's test: numbers compared as BigDecimals (the stored version 1.0 is not 1).
        const stored = valueAt(patched, op.path);
        if (stored === undefined || !javaEquals(op.value, stored.value, op.path))
          throw new ApiError(
            400,
            `operation ${index} (test ${op.path}) failed: the value at ${op.path} is not ${stringify(op.value) ?? ''}`,
          );
        continue;
      }
      try {
        patched = jsonpatch.applyOperation(patched, op, true, true, true, index).newDocument;
      } catch (error) {
        const message = (error as Error).message.split('\n')[0]!;
        throw new ApiError(
          400,
          `operation ${index} (${op.op} ${op.path}) cannot be applied: ${message}`,
        );
      }
    }
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched))
      throw new ApiError(400, 'the patch must leave a data contract object');
    for (const field of RESTORED_ON_PATCH) {
      if (current[field] === undefined) delete patched[field];
      else patched[field] = current[field];
    }
    // Relationship lists with nothing in them are no lists (whatever the seed wrote).
    const stored = (c: Json) =>
      this.profile === 'openmetadata' ? withoutEmptyRelationships(c) : c;
    patched = stored(patched);
    this.checkPatchedContract(current, patched);
    // Checked by OpenMetadata's updater, on every PATCH; a create does not check it.
    if (this.profile === 'openmetadata') checkReviewerTypes(patched);
    const changed = !isDeepStrictEqual(stripComputed(stored(current)), stripComputed(patched));
    // Answered as OpenMetadata answers a PATCH: with its relationship lists.
    const shown = (c: Json) => (this.profile === 'openmetadata' ? withRelationships(c) : c);
    if (!changed) {
      return shown({
        ...current,
        changeDescription: {
          fieldsAdded: [],
          fieldsUpdated: [],
          fieldsDeleted: [],
          previousVersion: current.version,
        },
      });
    }
    const next = nextVersionOf(current, patched, {
      user: user.name,
      now: this.clock(),
      profile: this.profile,
      store: this.store,
    });
    if (next.stored) this.store.putContract(next.contract);
    return shown(next.contract);
  }

  /** Checks `after`, the contract `before` becomes (`created`: the contract a create makes). */
  private checkPatchedContract(before: ContractResource, after: Json, created = false): void {
    if (!isDeepStrictEqual(after.entity, before.entity))
      throw new ApiError(400, 'entity of a data contract cannot be changed');
    const statuses = STATUSES[this.profile];
    if (after.entityStatus !== undefined && !statuses.includes(after.entityStatus as string)) {
      throw new ApiError(
        400,
        `entityStatus must be one of [${statuses.join(', ')}], got ${JSON.stringify(after.entityStatus)}`,
      );
    }
    if (this.profile === 'openmetadata') {
      resolveReferences(after, this.directory);
      checkStoredContract(after);
      checkDataAssetRules(created ? null : before, after, this.store.dataAssetRules);
      checkCustomProperties(after, this.store.customProperties);
    }
    for (const field of ['description', 'termsOfUse']) {
      if (
        after[field] !== undefined &&
        typeof after[field] !== 'string' &&
        !(field === 'termsOfUse' && typeof after[field] === 'object')
      ) {
        throw new ApiError(400, `${field} must be a string`);
      }
    }
    for (const field of ['sla', 'security', 'extension']) {
      const value = after[field];
      if (
        value !== undefined &&
        (value === null || typeof value !== 'object' || Array.isArray(value))
      )
        throw new ApiError(400, `${field} must be an object`);
    }
    const listItems = (field: string, required: readonly string[]): Json[] => {
      const value = after[field];
      if (value === undefined) return [];
      if (!Array.isArray(value)) throw new ApiError(400, `${field} must be an array`);
      return value.map((item, i) => {
        if (item === null || typeof item !== 'object' || Array.isArray(item))
          throw new ApiError(400, `${field}[${i}] must be an object`);
        for (const key of required) {
          if (typeof (item as Json)[key] !== 'string')
            throw new ApiError(400, `${field}[${i}].${key} must be a string`);
        }
        return item as Json;
      });
    };
    const columns = listItems('schema', ['name', 'dataType']);
    listItems('semantics', ['name']);
    listItems('qualityExpectations', ['fullyQualifiedName']);
    for (const field of ['owners', 'reviewers']) {
      for (const [i, ref] of listItems(field, ['type']).entries()) {
        if (ref.type !== 'user' && ref.type !== 'team')
          throw new ApiError(400, `${field}[${i}].type must be user or team`);
      }
    }
    const asset =
      before.entity.id !== undefined
        ? this.store.assets.get(before.entity.id)
        : this.store.assetByFqn(before.entity.type, before.entity.fullyQualifiedName);
    // The specification's topics are checked by their columns; OpenMetadata's by their message
    // fields, and one without a message schema has none.
    const known =
      asset === undefined
        ? undefined
        : this.profile === 'openmetadata'
          ? schemaNamesOf(asset)
          : asset.columns && new Set(asset.columns.map((column) => column.name));
    if (known !== undefined && columns.length > 0) {
      const missing = columns
        .map((column) => column.name as string)
        .filter((name) => !known.has(name));
      if (missing.length > 0) {
        throw new ApiError(
          400,
          `Schema validation failed. The following fields specified in the data contract do not exist in the ${before.entity.type}: ${missing.join(', ')}`,
        );
      }
    }
  }
}
