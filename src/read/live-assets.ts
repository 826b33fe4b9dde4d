// Finds the assets contracts point at: the tables of a database with many of them through its
// table list, the others through the field query search in batches (one query per search index
// and FQN prefix, `warehouse.sales.public.*`, rather than one per asset), so live-asset checks cost
// a handful of requests however many contracts there are.
import { AuthError, CatalogError, NetworkError } from '../model/errors.js';
import { ListCursors } from '../catalog/paging.js';
import type { Profile } from '../model/profile.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { assetDocument, type AssetDocument } from '../plan/asset-document.js';

/** The search indexes of the specification's list, by the entity type their documents hold. */
const SPEC_INDEXES = new Map([
  ['table', 'table_search_index'],
  ['topic', 'topic_search_index'],
  ['dashboard', 'dashboard_search_index'],
  ['pipeline', 'pipeline_search_index'],
  ['mlmodel', 'mlmodel_search_index'],
  ['container', 'container_search_index'],
  ['searchIndex', 'search_entity_search_index'],
  ['glossaryTerm', 'glossary_term_search_index'],
  ['dataProduct', 'data_product_search_index'],
  ['domain', 'domain_search_index'],
]);

/**
 * OpenMetadata's indexes of the other entity types it takes contracts on (its `SearchUtil` data
 * asset indexes): API endpoints and dashboard data models, whose contracts may hold a schema, and
 * the rest. A release without one of them answers its query with an error, and the assets of
 * that type are left unchecked with the server's message.
 */
const OPENMETADATA_INDEXES = new Map([
  ...SPEC_INDEXES,
  ['apiEndpoint', 'api_endpoint_search_index'],
  ['apiCollection', 'api_collection_search_index'],
  ['dashboardDataModel', 'dashboard_data_model_search_index'],
  ['chart', 'chart_search_index'],
  ['storedProcedure', 'stored_procedure_search_index'],
  ['database', 'database_search_index'],
  ['databaseSchema', 'database_schema_search_index'],
  ['directory', 'directory_search_index'],
  ['file', 'file_search_index'],
  ['spreadsheet', 'spreadsheet_search_index'],
  ['worksheet', 'worksheet_search_index'],
  ['metric', 'metric_search_index'],
  ['apiService', 'api_service_search_index'],
]);

/** The search index of an entity type on a catalog of `profile`, if it has one. */
export function searchIndexFor(entityType: string, profile: Profile): string | undefined {
  return (profile === 'openmetadata' ? OPENMETADATA_INDEXES : SPEC_INDEXES).get(entityType);
}

/** Escapes the wildcard characters of a field query value, so it matches only itself. */
function exactFieldValue(value: string): string {
  return value.replace(/[\\*?]/g, (ch) => `\\${ch}`);
}

export type AssetLookup<Found = AssetDocument> =
  { kind: 'found'; asset: Found } | { kind: 'absent' } | { kind: 'unchecked'; reason: string };

/** Largest window of one field query (from + size). */
const RESULT_WINDOW = 10_000;
/**
 * Hits per query: ten search documents, so each answer stays well under the size at which the
 * engine keeps strings and buffers until a full collection (about 128 KiB). With twenty, the
 * larger answers crossed it and peak memory of a 10,000-contract plan swung by 100 MB.
 */
const PAGE_SIZE = 10;

/**
 * Tables of one database that a plan checks, from which the database's tables are listed
 * (`GET /v1/tables?database=…`, LIST_PAGE_SIZE at a time) instead of searched: one request per
 * 200 tables, where the field query needs one per ten hits, or one per table on a server that
 * ignores `from` (OpenMetadata). Pages stay at 200 because a real table comes with all its
 * columns' descriptions and tags: a page of 1,000 can be megabytes to build, send and parse.
 */
const LIST_FROM = 50;
const LIST_PAGE_SIZE = 200;
/** A database with more tables than this many times those checked is searched instead. */
const LIST_AT_MOST = 4;

/** The parts of an FQN: dot-separated, a part holding a dot written in double quotes. */
export function fqnParts(fqn: string): string[] {
  // Most FQNs quote nothing: split at once (a tenth of the walk below, over 10,000 tables).
  if (!fqn.includes('"')) return fqn.split('.');
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of fqn) {
    if (ch === '"') quoted = !quoted;
    if (ch === '.' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** A table's database (`service.database`), or undefined for an FQN that is not a table's. */
function tableDatabase(fqn: string): string | undefined {
  const parts = fqnParts(fqn);
  return parts.length === 4 ? `${parts[0]!}.${parts[1]!}` : undefined;
}

/**
 * Lists a database's tables, handing each wanted one to `found` as its page arrives. Stops early,
 * leaving the rest to the field query, when the catalog cannot list them so (no list, a refusal,
 * an unknown field) or the database holds many more tables than are wanted.
 */
async function listDatabase(
  reader: CatalogReader,
  database: string,
  wanted: ReadonlySet<string>,
  found: (asset: AssetDocument) => void,
): Promise<void> {
  if (reader.listPage === undefined) return;
  const params = {
    database,
    fields: 'columns,dataProducts',
    limit: String(LIST_PAGE_SIZE),
  };
  // A cursor given twice, or a list without an end, is an error (see ListCursors): the listing
  // stops, and the tables it did not find are searched for instead.
  const cursors = new ListCursors('GET /v1/tables');
  let cursor: { after: string } | undefined;
  for (;;) {
    let page;
    try {
      page = await reader.listPage<Partial<AssetDocument>>('/tables', params, cursor);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      if (error instanceof CatalogError && error.status >= 400 && error.status < 500) return;
      throw error;
    }
    if (cursor === undefined && (page.paging.total ?? 0) > LIST_AT_MOST * wanted.size) return;
    for (const row of page.data) {
      if (typeof row.fullyQualifiedName === 'string' && wanted.has(row.fullyQualifiedName))
        found(assetDocument(row, ''));
    }
    cursor = cursors.next(page);
    if (cursor === undefined) return;
  }
}

export function assetKey(type: string, fqn: string): string {
  return `${type}\u0000${fqn}`;
}

/**
 * Pages through a field query into `into`. True when every hit was seen; false when the window
 * ran out, or when the server answered a later page with hits it had already sent (a server that
 * ignores `from`, as OpenMetadata's field query does, always sends its first hits): then nothing
 * may be concluded from what is missing.
 */
async function search(
  reader: CatalogReader,
  index: string,
  fieldValue: string,
  into: Map<string, AssetDocument>,
): Promise<boolean> {
  const seen = new Set<string>();
  for (let from = 0; from < RESULT_WINDOW; from += PAGE_SIZE) {
    const size = Math.min(PAGE_SIZE, RESULT_WINDOW - from);
    const result = await reader.fieldQuery({
      fieldName: 'fullyQualifiedName',
      fieldValue,
      index,
      from,
      size,
    });
    for (const hit of result.hits.hits) {
      const source = hit._source as Partial<AssetDocument>;
      const identity = hit._id;
      if (seen.has(identity)) return false;
      seen.add(identity);
      if (typeof source.fullyQualifiedName !== 'string') continue;
      // Keep only what the checks read: search documents are large, and there is one per contract.
      into.set(source.fullyQualifiedName, assetDocument(source, hit._id));
    }
    if (from + result.hits.hits.length >= result.hits.total.value || result.hits.hits.length < size)
      return true;
  }
  return false;
}

/** The tables to check, by database (`service.db`), of the databases with LIST_FROM or more. */
function listableTables(
  entities: readonly { type: string; fullyQualifiedName: string }[],
): Map<string, Set<string>> {
  const byDatabase = new Map<string, Set<string>>();
  for (const entity of entities) {
    if (entity.type !== 'table') continue;
    const database = tableDatabase(entity.fullyQualifiedName);
    if (database === undefined) continue;
    let tables = byDatabase.get(database);
    if (tables === undefined) byDatabase.set(database, (tables = new Set()));
    tables.add(entity.fullyQualifiedName);
  }
  for (const [database, tables] of byDatabase)
    if (tables.size < LIST_FROM) byDatabase.delete(database);
  return byDatabase;
}

/**
 * Lists the tables of each database, handing each wanted one to `found`. A table not listed is
 * left to the field query: the list's database filter is read from the FQN, and nothing is
 * concluded from its absence; a list that fails leaves its tables to the field query too, which
 * says what went wrong.
 */
async function listDatabases(
  reader: CatalogReader,
  byDatabase: ReadonlyMap<string, ReadonlySet<string>>,
  found: (asset: AssetDocument) => void,
): Promise<void> {
  await Promise.all(
    [...byDatabase].map(async ([database, tables]) => {
      try {
        await listDatabase(reader, database, tables, found);
      } catch (error) {
        if (error instanceof AuthError) throw error;
        if (!(error instanceof CatalogError || error instanceof NetworkError)) throw error;
      }
    }),
  );
}

/**
 * Looks up every entity; returns `found`, `absent`, or `unchecked` (no search index for the type,
 * or the search failed, e.g. 403 for a token without SearchEntities). `keep` reduces each found
 * document, by its asset key, as soon as its page or query has answered, so that the documents of
 * many assets are never all held at once.
 */
export async function lookupAssets<Found = AssetDocument>(
  reader: CatalogReader,
  profile: Profile,
  entities: readonly { type: string; fullyQualifiedName: string }[],
  keep: (asset: AssetDocument, key: string) => Found = (asset) => asset as Found,
): Promise<Map<string, AssetLookup<Found>>> {
  const results = new Map<string, AssetLookup<Found>>();
  const listable = listableTables(entities);
  const listableFqns = new Set([...listable.values()].flatMap((tables) => [...tables]));
  // The other assets are searched while the large databases are listed; what the lists did not
  // hold is searched for after.
  await Promise.all([
    searchAll(
      reader,
      profile,
      entities.filter(
        (entity) => entity.type !== 'table' || !listableFqns.has(entity.fullyQualifiedName),
      ),
      keep,
      results,
    ),
    listDatabases(reader, listable, (asset) => {
      const key = assetKey('table', asset.fullyQualifiedName);
      results.set(key, { kind: 'found', asset: keep(asset, key) });
    }).then(() =>
      searchAll(
        reader,
        profile,
        [...listableFqns]
          .filter((fqn) => !results.has(assetKey('table', fqn)))
          .map((fqn) => ({ type: 'table', fullyQualifiedName: fqn })),
        keep,
        results,
      ),
    ),
  ]);
  return results;
}

/** Looks `entities` up through the field query, into `results`. */
async function searchAll<Found>(
  reader: CatalogReader,
  profile: Profile,
  entities: readonly { type: string; fullyQualifiedName: string }[],
  keep: (asset: AssetDocument, key: string) => Found,
  results: Map<string, AssetLookup<Found>>,
): Promise<void> {
  const groups = new Map<
    string,
    { index: string; type: string; prefix: string; fqns: Set<string> }
  >();
  for (const entity of entities) {
    const index = searchIndexFor(entity.type, profile);
    if (index === undefined) {
      results.set(assetKey(entity.type, entity.fullyQualifiedName), {
        kind: 'unchecked',
        reason: `the catalog has no search index for ${entity.type}`,
      });
      continue;
    }
    const dot = entity.fullyQualifiedName.lastIndexOf('.');
    const prefix = dot === -1 ? '' : entity.fullyQualifiedName.slice(0, dot);
    const groupKey = `${index}\u0000${prefix}`;
    let group = groups.get(groupKey);
    if (group === undefined) {
      group = { index, type: entity.type, prefix, fqns: new Set() };
      groups.set(groupKey, group);
    }
    group.fqns.add(entity.fullyQualifiedName);
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const found = new Map<string, AssetDocument>();
      try {
        const complete =
          group.fqns.size > 1 && group.prefix !== ''
            ? await search(reader, group.index, `${exactFieldValue(group.prefix)}.*`, found)
            : false;
        // One asset, or a prefix whose hits could not all be seen (more than one query window
        // holds, or a server that ignores from): ask for each asset not found yet.
        if (!complete) {
          await Promise.all(
            [...group.fqns]
              .filter((fqn) => !found.has(fqn))
              .map((fqn) => search(reader, group.index, exactFieldValue(fqn), found)),
          );
        }
        for (const fqn of group.fqns) {
          const asset = found.get(fqn);
          const key = assetKey(group.type, fqn);
          results.set(
            key,
            asset === undefined ? { kind: 'absent' } : { kind: 'found', asset: keep(asset, key) },
          );
        }
      } catch (error) {
        if (error instanceof AuthError) throw error;
        if (!(error instanceof CatalogError || error instanceof NetworkError)) throw error;
        const reason =
          error instanceof CatalogError && error.status === 403
            ? 'the token may not search entities (403)'
            : reader.redact(error.message);
        for (const fqn of group.fqns)
          results.set(assetKey(group.type, fqn), { kind: 'unchecked', reason });
      }
    }),
  );
}
