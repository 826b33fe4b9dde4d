// Finds the assets contracts point at through the field query search, in batches: one query per
// search index and FQN prefix (`warehouse.sales.public.*`) rather than one per asset, so live-asset
// checks cost a handful of requests however many contracts there are.
import { AuthError, CatalogError, NetworkError } from '../errors.js';
import type { CatalogReader } from './catalog-reader.js';

const SEARCH_INDEX_BY_TYPE: Record<string, string> = {
  table: 'table_search_index',
  topic: 'topic_search_index',
  dashboard: 'dashboard_search_index',
  pipeline: 'pipeline_search_index',
  mlmodel: 'mlmodel_search_index',
  container: 'container_search_index',
  searchIndex: 'search_entity_search_index',
  glossaryTerm: 'glossary_term_search_index',
  dataProduct: 'data_product_search_index',
  domain: 'domain_search_index',
};

export function searchIndexFor(entityType: string): string | undefined {
  return SEARCH_INDEX_BY_TYPE[entityType];
}

/** Escapes the wildcard characters of a field query value, so it matches only itself. */
export function exactFieldValue(value: string): string {
  return value.replace(/[\\*?]/g, (ch) => `\\${ch}`);
}

export interface AssetDocument {
  id: string;
  fullyQualifiedName: string;
  columns?: { name?: unknown; dataType?: unknown }[];
  dataProducts?: unknown[];
  [field: string]: unknown;
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

export function assetKey(type: string, fqn: string): string {
  return `${type}\u0000${fqn}`;
}

/** Names of the data products an indexed asset belongs to (names, or references with a name). */
export function dataProductNames(asset: AssetDocument): string[] {
  return (asset.dataProducts ?? [])
    .map((p) =>
      typeof p === 'string'
        ? p
        : p !== null && typeof p === 'object'
          ? ((p as { name?: unknown; fullyQualifiedName?: unknown }).name ??
            (p as { fullyQualifiedName?: unknown }).fullyQualifiedName)
          : undefined,
    )
    .filter((name): name is string => typeof name === 'string');
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
      const columns = Array.isArray(source.columns)
        ? source.columns.map((c) => ({ name: c.name, dataType: c.dataType }))
        : undefined;
      into.set(source.fullyQualifiedName, {
        id: typeof source.id === 'string' ? source.id : hit._id,
        fullyQualifiedName: source.fullyQualifiedName,
        ...(columns === undefined ? {} : { columns }),
        ...(Array.isArray(source.dataProducts) ? { dataProducts: source.dataProducts } : {}),
      });
    }
    if (from + result.hits.hits.length >= result.hits.total.value || result.hits.hits.length < size)
      return true;
  }
  return false;
}

/**
 * Looks up every entity; returns `found`, `absent`, or `unchecked` (no search index for the type,
 * or the search failed, e.g. 403 for a token without SearchEntities). `keep` reduces each found
 * document, by its asset key, as soon as its query has answered, so that the search documents of
 * many assets are never all held at once.
 */
export async function lookupAssets<Found = AssetDocument>(
  reader: CatalogReader,
  entities: readonly { type: string; fullyQualifiedName: string }[],
  keep: (asset: AssetDocument, key: string) => Found = (asset) => asset as Found,
): Promise<Map<string, AssetLookup<Found>>> {
  const results = new Map<string, AssetLookup<Found>>();
  const groups = new Map<
    string,
    { index: string; type: string; prefix: string; fqns: Set<string> }
  >();
  for (const entity of entities) {
    const index = searchIndexFor(entity.type);
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
  return results;
}
