// Search in the sandbox: the field query (4.5) and the general search (4.7), answered in a
// search engine's raw shape from documents kept per version of the store.
import { ApiError, compareText, JsonText, queryInteger, type Json } from './http.js';
import { apiEndpointDocument, topicDocument } from './asset-schemas.js';
import type { SandboxProfile } from './openmetadata.js';
import type { SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';
import { requirePermission } from './auth.js';

/** Hits the real server's field query answers, whatever from and size ask. */
const OPENMETADATA_FIELD_QUERY_HITS = 10;

/** The specification's search indexes and the entity types their documents hold. */
const SPEC_INDEXES: ReadonlyMap<string, readonly string[]> = new Map([
  ['table_search_index', ['table']],
  ['topic_search_index', ['topic']],
  ['dashboard_search_index', ['dashboard']],
  ['pipeline_search_index', ['pipeline']],
  ['mlmodel_search_index', ['mlmodel']],
  ['container_search_index', ['container']],
  ['search_entity_search_index', ['searchIndex']],
  ['glossary_term_search_index', ['glossaryTerm']],
  ['tag_search_index', ['tag']],
  ['user_search_index', ['user']],
  ['team_search_index', ['team']],
  ['domain_search_index', ['domain']],
  ['data_product_search_index', ['dataProduct']],
]);

/** OpenMetadata's indexes of the other entity types it takes contracts on (`SearchUtil`). */
const OPENMETADATA_ASSET_INDEXES: ReadonlyMap<string, readonly string[]> = new Map([
  ['api_endpoint_search_index', ['apiEndpoint']],
  ['api_collection_search_index', ['apiCollection']],
  ['dashboard_data_model_search_index', ['dashboardDataModel']],
  ['chart_search_index', ['chart']],
  ['stored_procedure_search_index', ['storedProcedure']],
  ['database_search_index', ['database']],
  ['database_schema_search_index', ['databaseSchema']],
  ['directory_search_index', ['directory']],
  ['file_search_index', ['file']],
  ['spreadsheet_search_index', ['spreadsheet']],
  ['worksheet_search_index', ['worksheet']],
  ['metric_search_index', ['metric']],
  ['api_service_search_index', ['apiService']],
]);

const OPENMETADATA_INDEXES: ReadonlyMap<string, readonly string[]> = new Map([
  ...SPEC_INDEXES,
  ...OPENMETADATA_ASSET_INDEXES,
]);

/** The search indexes of a catalog of `profile`, and the entity types their documents hold. */
export function searchIndexes(profile: SandboxProfile): ReadonlyMap<string, readonly string[]> {
  return profile === 'openmetadata' ? OPENMETADATA_INDEXES : SPEC_INDEXES;
}

const ENTITY_INDEXES = new Set([
  'table_search_index',
  'topic_search_index',
  'dashboard_search_index',
  'pipeline_search_index',
  'mlmodel_search_index',
  'container_search_index',
  'search_entity_search_index',
  ...OPENMETADATA_ASSET_INDEXES.keys(),
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

interface AssetIndex {
  documents: Json[];
  name: [string, Json][];
  fullyQualifiedName: [string, Json][];
  /** Each document's `_source` as JSON text, made when first answered. */
  sources: WeakMap<Json, string>;
}

/** Whether an index holds assets (kept in a cached index), not users or data products. */
function isAssetIndex(index: string): boolean {
  const types = OPENMETADATA_INDEXES.get(index)!;
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

function searchSource(document: Json, profile: SandboxProfile): Json {
  // OpenMetadata indexes a topic's message schema and an API endpoint's schemas, not columns.
  if (profile === 'openmetadata' && document.entityType === 'topic')
    return topicDocument(document as SeedAsset);
  if (profile === 'openmetadata' && document.entityType === 'apiEndpoint')
    return apiEndpointDocument(document as SeedAsset);
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

export class Search {
  constructor(
    private readonly store: Store,
    private readonly profile: SandboxProfile,
  ) {}

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
    const indexes = searchIndexes(this.profile);
    if (!indexes.has(index!)) {
      throw new ApiError(
        400,
        `Invalid index '${index!}'; allowed indexes are ${[...indexes.keys()].join(', ')}`,
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
    if (!searchIndexes(this.profile).has(index))
      throw new ApiError(400, `Invalid index '${index}'`);
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
    const types = searchIndexes(this.profile).get(index)!;
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
        id: p.id,
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
        source = JSON.stringify(searchSource(document, this.profile));
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
}
