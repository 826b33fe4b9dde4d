// Lineage and assets by name, as OpenMetadata serves them (the specification shows neither):
// `GET /v1/lineage/{entityType}/name/{fqn}?upstreamDepth&downstreamDepth` walks the edges
// (LineageRepository: nodes are entity references, without owners; edges name their ends by id),
// `PUT /v1/lineage` adds an edge `{edge: {fromEntity: {id, type}, toEntity: {id, type}}}`, and
// `GET /v1/{collection}/name/{fqn}?fields=owners` answers an asset with its owners.
import { requirePermission } from './auth.js';
import type { Directory } from './directory.js';
import { ApiError, parseFields, type Json } from './http.js';
import type { SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';

/** OpenMetadata's collection of each asset type, as its routes name them. */
export const ASSET_COLLECTIONS: Readonly<Record<string, string>> = {
  tables: 'table',
  topics: 'topic',
  dashboards: 'dashboard',
  charts: 'chart',
  pipelines: 'pipeline',
  mlmodels: 'mlmodel',
  containers: 'container',
  searchIndexes: 'searchIndex',
  storedProcedures: 'storedProcedure',
  apiEndpoints: 'apiEndpoint',
  metrics: 'metric',
  'dashboard/datamodels': 'dashboardDataModel',
};

/** The most levels of lineage a request may ask for either way. */
const MAX_DEPTH = 3;

/** An asset as an entity reference (EntityReference: no owners, no columns). */
function reference(asset: SeedAsset): Json {
  return {
    id: asset.id,
    type: asset.entityType,
    name: asset.name,
    fullyQualifiedName: asset.fullyQualifiedName,
    ...(typeof asset.displayName === 'string' ? { displayName: asset.displayName } : {}),
    deleted: asset.deleted === true,
  };
}

function depth(query: URLSearchParams, name: string): number {
  const text = query.get(name) ?? '1';
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > MAX_DEPTH)
    throw new ApiError(400, `query param ${name} must be between 0 and ${MAX_DEPTH}`);
  return value;
}

function assetNamed(store: Store, entityType: string, fqn: string): SeedAsset {
  for (const asset of store.assets.values())
    if (asset.entityType === entityType && asset.fullyQualifiedName === fqn) return asset;
  throw new ApiError(404, `${entityType} instance for ${fqn} not found`);
}

/** The lineage graph around an asset, `upstreamDepth` levels up and `downstreamDepth` down. */
export function getLineage(
  store: Store,
  user: SeedUser,
  entityType: string,
  fqn: string,
  query: URLSearchParams,
): Json {
  requirePermission(user, 'SearchEntities', 'ViewBasic');
  const up = depth(query, 'upstreamDepth');
  const down = depth(query, 'downstreamDepth');
  const entity = assetNamed(store, entityType, fqn);
  const byFqn = new Map(
    [...store.assets.values()].map((asset) => [asset.fullyQualifiedName, asset]),
  );
  const nodes = new Map<string, Json>();
  const walk = (
    start: SeedAsset,
    levels: number,
    next: (edge: { from: string; to: string }) => [string, string] | undefined,
    edges: Json[],
  ): void => {
    let frontier = [start];
    for (let level = 0; level < levels && frontier.length > 0; level++) {
      const found: SeedAsset[] = [];
      for (const at of frontier)
        for (const edge of store.lineage) {
          const pair = next(edge);
          if (pair === undefined || pair[0] !== at.fullyQualifiedName) continue;
          const other = byFqn.get(pair[1]);
          if (other === undefined) continue;
          const [fromAsset, toAsset] =
            edge.from === at.fullyQualifiedName ? [at, other] : [other, at];
          edges.push({ fromEntity: fromAsset.id, toEntity: toAsset.id });
          if (other.id !== entity.id && !nodes.has(other.id)) nodes.set(other.id, reference(other));
          found.push(other);
        }
      frontier = found;
    }
  };
  const upstreamEdges: Json[] = [];
  const downstreamEdges: Json[] = [];
  walk(entity, up, (edge) => [edge.to, edge.from], upstreamEdges);
  walk(entity, down, (edge) => [edge.from, edge.to], downstreamEdges);
  return { entity: reference(entity), nodes: [...nodes.values()], upstreamEdges, downstreamEdges };
}

/** `PUT /v1/lineage`: adds the edge its body names (once), between two assets by id. */
export function addLineage(store: Store, user: SeedUser, body: unknown): void {
  requirePermission(user, 'EditLineage', 'EditLineage');
  const edge = (body as { edge?: { fromEntity?: unknown; toEntity?: unknown } } | null)?.edge;
  const end = (value: unknown, name: string): SeedAsset => {
    const ref = value as { id?: unknown; type?: unknown } | null | undefined;
    if (typeof ref?.id !== 'string' || typeof ref.type !== 'string')
      throw new ApiError(400, `edge.${name} must be an entity reference with id and type`);
    const asset = store.assets.get(ref.id);
    if (asset === undefined || asset.entityType !== ref.type)
      throw new ApiError(404, `${ref.type} instance for ${ref.id} not found`);
    return asset;
  };
  const from = end(edge?.fromEntity, 'fromEntity');
  const to = end(edge?.toEntity, 'toEntity');
  if (from.id === to.id) throw new ApiError(400, 'Lineage edge can not be between same entity');
  const known = store.lineage.some(
    (e) => e.from === from.fullyQualifiedName && e.to === to.fullyQualifiedName,
  );
  if (!known) {
    store.lineage.push({ from: from.fullyQualifiedName, to: to.fullyQualifiedName });
    store.persist();
  }
}

/**
 * An asset's owners as the server answers them: entity references, with the id of each user or
 * team the catalog knows.
 */
export function ownerReferences(asset: SeedAsset, directory: Directory | undefined): Json[] {
  return (asset.owners ?? []).map((owner) => {
    const type = owner.type === 'team' ? 'team' : 'user';
    let id: string | undefined;
    try {
      id = directory?.byFullyQualifiedName(type, owner.name).id;
    } catch {
      id = undefined;
    }
    return {
      ...(id === undefined ? {} : { id }),
      type,
      name: owner.name,
      fullyQualifiedName: owner.name,
    };
  });
}

/** `GET /v1/{collection}/name/{fqn}`: the asset, with its owners when `fields` asks for them. */
export function assetByName(
  store: Store,
  directory: Directory,
  user: SeedUser,
  entityType: string,
  fqn: string,
  query: URLSearchParams,
): Json {
  requirePermission(user, 'SearchEntities', 'ViewBasic');
  const fields = parseFields(query, new Set(['owners', 'columns', 'tags']));
  const asset = assetNamed(store, entityType, fqn);
  const answer: Json = { ...reference(asset) };
  delete answer.type;
  if (typeof asset.description === 'string') answer.description = asset.description;
  if (fields.has('owners')) answer.owners = ownerReferences(asset, directory);
  if (fields.has('columns') && asset.columns !== undefined) answer.columns = asset.columns;
  if (fields.has('tags')) answer.tags = asset.tags ?? [];
  return answer;
}
