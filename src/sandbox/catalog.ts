// The catalog interface of spec/catalog-service.md over the sandbox's store: contracts by id and
// name, effective contracts, PATCH, field query search, general search and the tables list.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import jsonpatch from 'fast-json-patch';
import { describeChange, nextVersion } from './change-description.js';
import { ApiError, JsonText, queryInteger } from './http.js';
import type { ContractResource, SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';
import { requirePermission } from './auth.js';
import {
  checkStoredContract,
  contractEtag,
  resolveReferences,
  type SandboxProfile,
} from './openmetadata.js';

export type Json = Record<string, unknown>;

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
/** Hits the real server's field query answers, whatever from and size ask. */
const OPENMETADATA_FIELD_QUERY_HITS = 10;
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

/** Search indexes and the entity types their documents hold. */
export const SEARCH_INDEXES: Record<string, readonly string[]> = {
  table_search_index: ['table'],
  topic_search_index: ['topic'],
  dashboard_search_index: ['dashboard'],
  pipeline_search_index: ['pipeline'],
  mlmodel_search_index: ['mlmodel'],
  container_search_index: ['container'],
  search_entity_search_index: ['searchIndex'],
  glossary_term_search_index: ['glossaryTerm'],
  tag_search_index: ['tag'],
  user_search_index: ['user'],
  team_search_index: ['team'],
  domain_search_index: ['domain'],
  data_product_search_index: ['dataProduct'],
};
const ENTITY_INDEXES = new Set([
  'table_search_index',
  'topic_search_index',
  'dashboard_search_index',
  'pipeline_search_index',
  'mlmodel_search_index',
  'container_search_index',
  'search_entity_search_index',
]);

/** Field paths each index accepts in a field query (the spec's table, plus name and FQN). */
function fieldAllowed(fieldName: string, index: string): boolean {
  switch (fieldName) {
    case 'name':
    case 'fullyQualifiedName':
    case 'displayName':
    case 'description':
    case 'tags.tagFQN':
    case 'owners.name':
      return true;
    case 'service.name':
      return ENTITY_INDEXES.has(index);
    case 'columns.name':
    case 'database.name':
    case 'databaseSchema.name':
      return index === 'table_search_index';
    default:
      return false;
  }
}

/** Largest from + size of a field query (the search engine's result window). */
export const MAX_RESULT_WINDOW = 10_000;
const TABLE_FIELDS = new Set([
  'owner',
  'owners',
  'tags',
  'columns',
  'followers',
  'tableConstraints',
  'usageSummary',
  'dataProducts',
  'extension',
]);

function wildcardRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length)
      source += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

/** Values at a dotted path, descending through arrays (`columns.name` → every column's name). */
function valuesAt(document: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return Array.isArray(document) ? document : [document];
  if (Array.isArray(document)) return document.flatMap((item) => valuesAt(item, path));
  if (document === null || typeof document !== 'object') return [];
  return valuesAt((document as Json)[path[0]!], path.slice(1));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function contractView(contract: ContractResource, fields: ReadonlySet<string>): Json {
  const view: Json = { ...contract };
  for (const field of OPTIONAL_CONTRACT_FIELDS) if (!fields.has(field)) delete view[field];
  return view;
}

function parseFields(
  query: URLSearchParams,
  allowed: ReadonlySet<string> | undefined,
): Set<string> {
  const raw = query.get('fields');
  const fields = new Set(
    (raw ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== ''),
  );
  if (allowed !== undefined) {
    for (const field of fields)
      if (!allowed.has(field)) throw new ApiError(400, `Invalid field name ${field}`);
  }
  return fields;
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

export class Catalog {
  private readonly cursorKey: Buffer;

  constructor(
    private readonly store: Store,
    secret: string,
    private readonly clock: () => number = Date.now,
    readonly profile: SandboxProfile = 'spec',
  ) {
    this.cursorKey = createHmac('sha256', secret).update('cursor-key').digest();
  }

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
    return contractView(contract, fields);
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
      return contractView({ ...contract, inherited: false }, fields);
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
      return contractView(inherited as ContractResource, fields);
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
    return contractView(effective as ContractResource, fields);
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
    if (this.store.contractByFqn(contract.fullyQualifiedName as string) !== undefined)
      throw new ApiError(
        400,
        `a data contract named ${String(contract.fullyQualifiedName)} exists`,
      );
    this.checkPatchedContract(contract as ContractResource, contract);
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
    if (ifMatch !== undefined && ifMatch !== contractEtag(current))
      throw new ApiError(
        412,
        `the data contract is at version ${String(current.version)}, not the one If-Match names (${ifMatch})`,
      );
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
    let patched = structuredClone(current) as Json;
    for (const [index, op] of effective.entries()) {
      checkSource(patched, op, index);
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
    this.checkPatchedContract(current, patched);
    const changed = !isDeepStrictEqual(stripComputed(current), stripComputed(patched));
    if (!changed) {
      return {
        ...current,
        changeDescription: {
          fieldsAdded: [],
          fieldsUpdated: [],
          fieldsDeleted: [],
          previousVersion: current.version,
        },
      };
    }
    const changeDescription = describeChange(current, patched, current.version);
    const next: Json = {
      ...patched,
      version: nextVersion(current.version),
      updatedAt: this.clock(),
      updatedBy: user.name,
      changeDescription,
    };
    this.store.putContract(next as ContractResource);
    return next;
  }

  private checkPatchedContract(before: ContractResource, after: Json): void {
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
      resolveReferences(after);
      checkStoredContract(after);
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
    if (asset?.columns !== undefined && columns.length > 0) {
      const known = new Set(asset.columns.map((column) => column.name));
      const missing = columns
        .map((column) => column.name as string)
        .filter((name) => !known.has(name));
      if (missing.length > 0) {
        throw new ApiError(
          400,
          `Schema validation failed. The following fields specified in the data contract do not exist in the ${asset.entityType}: ${missing.join(', ')}`,
        );
      }
    }
  }

  // 4.5
  fieldQuery(user: SeedUser, query: URLSearchParams): JsonText {
    requirePermission(user, 'SearchEntities', 'ViewBasic');
    const fieldName = query.get('fieldName');
    const fieldValue = query.get('fieldValue');
    const index = query.get('index');
    for (const [name, value] of [
      ['fieldName', fieldName],
      ['fieldValue', fieldValue],
      ['index', index],
    ] as const) {
      if (value === null || value === '')
        throw new ApiError(400, `query param ${name} must not be null`);
    }
    if (SEARCH_INDEXES[index!] === undefined) {
      throw new ApiError(
        400,
        `Invalid index '${index!}'; allowed indexes are ${Object.keys(SEARCH_INDEXES).join(', ')}`,
      );
    }
    if (!fieldAllowed(fieldName!, index!))
      throw new ApiError(400, `invalid field path '${fieldName!}' for index ${index!}`);
    let from = queryInteger(query, 'from', 0, 0, MAX_RESULT_WINDOW);
    let size = queryInteger(query, 'size', 10, 0, MAX_RESULT_WINDOW);
    if (from + size > MAX_RESULT_WINDOW)
      throw new ApiError(400, `from + size must be at most ${MAX_RESULT_WINDOW}`);
    // The real server ignores from and size: the search engine's first ten hits, always.
    if (this.profile === 'openmetadata') [from, size] = [0, OPENMETADATA_FIELD_QUERY_HITS];
    // Exact values and literal prefixes on name and FQN come from a sorted index, as a search
    // engine answers them; any other pattern is matched against every document.
    const literal = literalPattern(fieldValue!);
    if (literal !== null && (fieldName === 'fullyQualifiedName' || fieldName === 'name')) {
      return this.searchResponse(index!, from, size, this.byPrefix(index!, fieldName, literal));
    }
    const pattern = wildcardRegExp(fieldValue!);
    const path = fieldName!.split('.');
    return this.searchResponse(
      index!,
      from,
      size,
      this.searchDocuments(index!).filter((document) =>
        valuesAt(document, path).some((v) => typeof v === 'string' && pattern.test(v)),
      ),
    );
  }

  // 4.7: general search over name, FQN and description.
  search(user: SeedUser, query: URLSearchParams): JsonText {
    requirePermission(user, 'SearchEntities', 'ViewBasic');
    const q = query.get('q') ?? '*';
    const index = query.get('index') ?? 'table_search_index';
    if (SEARCH_INDEXES[index] === undefined) throw new ApiError(400, `Invalid index '${index}'`);
    const from = queryInteger(query, 'from', 0, 0, MAX_RESULT_WINDOW);
    const size = queryInteger(query, 'size', 10, 0, MAX_RESULT_WINDOW);
    const pattern = wildcardRegExp(q.includes('*') || q.includes('?') ? q : `*${q}*`);
    return this.searchResponse(
      index,
      from,
      size,
      this.searchDocuments(index).filter((document) =>
        ['name', 'fullyQualifiedName', 'description'].some(
          (field) => typeof document[field] === 'string' && pattern.test(document[field]),
        ),
      ),
    );
  }

  /** The documents of an index, in answer order (by FQN, then id); asset indexes are cached. */
  private searchDocuments(index: string): Json[] {
    if (isAssetIndex(index)) return this.assetIndex(index).documents;
    return this.documentsOf(index).sort(answerOrder);
  }

  private documentsOf(index: string): Json[] {
    const types = SEARCH_INDEXES[index]!;
    if (types.includes('user'))
      return [...this.store.users.values()].map((u) => ({
        id: u.name,
        name: u.name,
        fullyQualifiedName: u.name,
        entityType: 'user',
      }));
    if (types.includes('dataProduct')) {
      return [...this.store.dataProducts.values()].map((p) => ({
        ...p,
        id: typeof p.id === 'string' ? p.id : p.name,
        fullyQualifiedName: p.name,
        entityType: 'dataProduct',
      }));
    }
    return [...this.store.assets.values()].filter(
      (a) => types.includes(a.entityType) && a.deleted !== true,
    );
  }

  private assetIndexes = { version: -1, byIndex: new Map<string, AssetIndex>() };

  /** Documents in answer order, and by lowercased name and FQN for prefix lookups. */
  private assetIndex(index: string): AssetIndex {
    if (this.assetIndexes.version !== this.store.assets.version) {
      this.assetIndexes = { version: this.store.assets.version, byIndex: new Map() };
    }
    let built = this.assetIndexes.byIndex.get(index);
    if (built === undefined) {
      const documents = this.documentsOf(index).sort(answerOrder);
      const keyed = (field: 'name' | 'fullyQualifiedName'): [string, Json][] =>
        documents
          .filter((document) => typeof document[field] === 'string')
          .map((document): [string, Json] => [(document[field] as string).toLowerCase(), document])
          .sort((a, b) => compareText(a[0], b[0]));
      built = {
        documents,
        name: keyed('name'),
        fullyQualifiedName: keyed('fullyQualifiedName'),
        sources: new WeakMap(),
      };
      this.assetIndexes.byIndex.set(index, built);
    }
    return built;
  }

  /** Documents whose field equals `literal.text` or starts with it, case-insensitively, in answer order. */
  private byPrefix(
    index: string,
    field: 'name' | 'fullyQualifiedName',
    literal: { text: string; prefix: boolean },
  ): Json[] {
    const wanted = literal.text.toLowerCase();
    const matches = (value: string): boolean =>
      literal.prefix ? value.startsWith(wanted) : value === wanted;
    if (!isAssetIndex(index)) {
      return this.searchDocuments(index).filter(
        (document) => typeof document[field] === 'string' && matches(document[field].toLowerCase()),
      );
    }
    const keys = this.assetIndex(index)[field];
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compareText(keys[mid]![0], wanted) < 0) low = mid + 1;
      else high = mid;
    }
    const found: Json[] = [];
    for (let i = low; i < keys.length && matches(keys[i]![0]); i++) found.push(keys[i]![1]);
    return found.sort(answerOrder);
  }

  /**
   * `found` is in answer order (by FQN, then id), as searchDocuments gives it. Each hit's
   * `_source` is the document as indexed: asset documents are serialized once per version of the
   * store and kept, as a search engine stores `_source` and returns it without rebuilding it.
   */
  private searchResponse(index: string, from: number, size: number, found: Json[]): JsonText {
    const started = process.hrtime.bigint();
    const stored = isAssetIndex(index) ? this.assetIndex(index).sources : undefined;
    const indexText = JSON.stringify(index);
    const hits = found.slice(from, from + size).map((document) => {
      let source = stored?.get(document);
      if (source === undefined) {
        source = JSON.stringify(searchSource(document));
        stored?.set(document, source);
      }
      return `{"_index":${indexText},"_id":${JSON.stringify(String(document.id))},"_score":1,"_source":${source}}`;
    });
    const took = Number((process.hrtime.bigint() - started) / 1_000_000n);
    return new JsonText(
      `{"took":${took},"timed_out":false,"_shards":{"total":1,"successful":1,"failed":0,"skipped":0},` +
        `"hits":{"total":{"value":${found.length},"relation":"eq"},"max_score":${found.length > 0 ? 1 : 'null'},` +
        `"hits":[${hits.join(',')}]}}`,
    );
  }

  // 4.6
  listTables(_user: SeedUser, query: URLSearchParams): Json {
    const limit = queryInteger(query, 'limit', 10, 1, 1000);
    const before = query.get('before');
    const after = query.get('after');
    if (before !== null && after !== null)
      throw new ApiError(400, 'Only one of before or after may be given');
    const fields = parseFields(query, TABLE_FIELDS);
    const database = query.get('database');
    const databaseSchema = query.get('databaseSchema');
    const rows = [...this.store.assets.values()]
      .filter((asset) => asset.entityType === 'table' && asset.deleted !== true)
      .filter((asset) => database === null || databaseFqn(asset) === database)
      .filter(
        (asset) =>
          databaseSchema === null ||
          `${databaseFqn(asset)}.${asset.databaseSchema?.name ?? ''}` === databaseSchema,
      )
      .sort(compareRows);
    let start = 0;
    let end = rows.length;
    if (after !== null) {
      const cursor = this.readCursor(after);
      start = rows.findIndex((row) => compareRows(row, cursor) > 0);
      if (start === -1) start = rows.length;
      end = Math.min(rows.length, start + limit);
    } else if (before !== null) {
      const cursor = this.readCursor(before);
      end = rows.findIndex((row) => compareRows(row, cursor) >= 0);
      if (end === -1) end = rows.length;
      start = Math.max(0, end - limit);
    } else {
      end = Math.min(rows.length, limit);
    }
    const page = rows.slice(start, end);
    const paging: Json = { total: rows.length };
    if (page.length > 0 && start > 0) paging.before = this.writeCursor(page[0]!);
    if (page.length > 0 && end < rows.length)
      paging.after = this.writeCursor(page[page.length - 1]!);
    return { data: page.map((asset) => tableView(asset, fields)), paging };
  }

  private writeCursor(row: { name: string; id: string }): string {
    const body = JSON.stringify({ name: row.name, id: row.id });
    const mac = createHmac('sha256', this.cursorKey).update(body).digest('base64url').slice(0, 22);
    return Buffer.from(JSON.stringify({ name: row.name, id: row.id, mac })).toString('base64url');
  }

  private readCursor(cursor: string): { name: string; id: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    const record = parsed as { name?: unknown; id?: unknown; mac?: unknown };
    if (
      typeof record.name !== 'string' ||
      typeof record.id !== 'string' ||
      typeof record.mac !== 'string'
    ) {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    const expected = createHmac('sha256', this.cursorKey)
      .update(JSON.stringify({ name: record.name, id: record.id }))
      .digest('base64url')
      .slice(0, 22);
    const given = Buffer.from(record.mac);
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    return { name: record.name, id: record.id };
  }
}

function databaseFqn(asset: SeedAsset): string {
  return `${asset.service?.name ?? ''}.${asset.database?.name ?? ''}`;
}

interface AssetIndex {
  documents: Json[];
  name: [string, Json][];
  fullyQualifiedName: [string, Json][];
  /** Each document's `_source` as JSON text, made when first answered. */
  sources: WeakMap<Json, string>;
}

/** Whether an index holds assets (kept in a cached index), not users or data products. */
function isAssetIndex(index: string): boolean {
  const types = SEARCH_INDEXES[index]!;
  return !types.includes('user') && !types.includes('dataProduct');
}

function answerOrder(a: Json, b: Json): number {
  return (
    compareText(String(a.fullyQualifiedName), String(b.fullyQualifiedName)) ||
    compareText(String(a.id), String(b.id))
  );
}

/** A pattern without wildcards (exact) or with one trailing `*` (prefix), else null. */
function literalPattern(pattern: string): { text: string; prefix: boolean } | null {
  let text = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) text += pattern[++i]!;
    else if (ch === '*' && i === pattern.length - 1) return { text, prefix: true };
    else if (ch === '*' || ch === '?') return null;
    else text += ch;
  }
  return { text, prefix: false };
}

function compareRows(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return compareText(a.name, b.name) || compareText(a.id, b.id);
}

function searchSource(document: Json): Json {
  const source: Json = { ...document };
  if (Array.isArray(source.columns)) {
    source.columns = (source.columns as Json[]).map((column) => ({
      ...column,
      fullyQualifiedName:
        column.fullyQualifiedName ??
        `${String(document.fullyQualifiedName)}.${String(column.name)}`,
    }));
  }
  return source;
}

function tableView(asset: SeedAsset, fields: ReadonlySet<string>): Json {
  const view: Json = {
    id: asset.id,
    name: asset.name,
    fullyQualifiedName: asset.fullyQualifiedName,
    description: asset.description,
    serviceType: asset.serviceType,
    service:
      asset.service === undefined
        ? undefined
        : { type: 'databaseService', name: asset.service.name },
    database:
      asset.database === undefined
        ? undefined
        : { type: 'database', name: asset.database.name, fullyQualifiedName: databaseFqn(asset) },
    databaseSchema:
      asset.databaseSchema === undefined
        ? undefined
        : {
            type: 'databaseSchema',
            name: asset.databaseSchema.name,
            fullyQualifiedName: `${databaseFqn(asset)}.${asset.databaseSchema.name}`,
          },
    deleted: false,
  };
  for (const field of fields) {
    const source = field === 'owner' ? 'owners' : field;
    if (asset[source] !== undefined) view[source] = asset[source];
  }
  for (const key of Object.keys(view)) if (view[key] === undefined) delete view[key];
  return view;
}

function stripComputed(contract: Json): Json {
  const copy = { ...contract };
  for (const field of ['version', 'updatedAt', 'updatedBy', 'changeDescription'])
    delete copy[field];
  return copy;
}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
/** Deepest nesting a PATCH value may have; deeper bodies are refused before anything is applied. */
const MAX_BODY_DEPTH = 64;

/** Whether `value` nests objects and arrays deeper than `limit` (iterative: no stack to exhaust). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The reference tokens of a JSON Pointer (RFC 6901), or why it is not one. */
function pointerTokens(pointer: string): string[] | string {
  if (pointer === '') return [];
  if (/~(?![01])/.test(pointer))
    return `${pointer} is not a JSON Pointer: ~ must be followed by 0 or 1 (RFC 6901)`;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Whether the document has a value at `tokens`. */
function hasValueAt(document: unknown, tokens: readonly string[]): boolean {
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return false;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, token)) {
      current = (current as Json)[token];
    } else return false;
  }
  return true;
}

/**
 * A clear 400 for a move or copy that cannot work: nothing at `from`, or a value moved into one of
 * its own children. Checked against the document as the operations before it left it.
 */
function checkSource(document: Json, op: jsonpatch.Operation, index: number): void {
  if (op.op !== 'move' && op.op !== 'copy') return;
  const from = pointerTokens(op.from) as string[];
  if (!hasValueAt(document, from))
    throw new ApiError(
      400,
      `operation ${index} (${op.op} from ${op.from}): there is no value at ${op.from}`,
    );
  if (op.op === 'move' && op.path.startsWith(`${op.from}/`))
    throw new ApiError(
      400,
      `operation ${index} (move from ${op.from} to ${op.path}): a value cannot be moved into itself`,
    );
}

/** A body that is an array of well-formed RFC 6902 operations, or a 400 naming the bad one. */
function checkOperations(body: unknown): jsonpatch.Operation[] {
  if (!Array.isArray(body))
    throw new ApiError(400, 'the PATCH body must be a JSON array of RFC 6902 operations');
  body.forEach((op: unknown, index) => {
    const bad = (why: string): never => {
      throw new ApiError(400, `operation ${index} is invalid: ${why}`);
    };
    if (op === null || typeof op !== 'object' || Array.isArray(op))
      bad('each operation must be an object');
    const record = op as Json;
    if (typeof record.op !== 'string' || !OPS.has(record.op))
      bad(
        `op must be one of add, remove, replace, move, copy, test; got ${JSON.stringify(record.op)}`,
      );
    if (typeof record.path !== 'string' || (record.path !== '' && !record.path.startsWith('/')))
      bad('path must be a JSON Pointer such as /description');
    if (
      (record.op === 'move' || record.op === 'copy') &&
      (typeof record.from !== 'string' || (record.from !== '' && !record.from.startsWith('/')))
    ) {
      bad(`${record.op} needs from, a JSON Pointer`);
    }
    if (
      (record.op === 'add' || record.op === 'replace' || record.op === 'test') &&
      !('value' in record)
    )
      bad(`${record.op} needs a value`);
    if (
      [record.path, record.from].some(
        (pointer) =>
          typeof pointer === 'string' && /\/(__proto__|constructor|prototype)(\/|$)/.test(pointer),
      )
    ) {
      bad('path must not name __proto__, constructor or prototype');
    }
    if (record.path === '') bad('the whole document cannot be replaced');
    for (const pointer of [record.path, record.from]) {
      if (typeof pointer !== 'string') continue;
      const tokens = pointerTokens(pointer);
      if (typeof tokens === 'string') bad(tokens);
    }
    if (nestsDeeperThan(record.value, MAX_BODY_DEPTH))
      bad(`its value nests deeper than ${MAX_BODY_DEPTH} levels`);
  });
  return body as jsonpatch.Operation[];
}
