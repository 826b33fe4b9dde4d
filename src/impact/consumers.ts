// Who a breaking change hurts: for every contract a plan changes or deletes in a breaking way, the
// catalog's lineage names the assets downstream of its asset (N levels deep), and each of those
// its owners. Asked only when the plan has a breaking change, a few at a time; lineage that cannot
// be read is a note, never a failure.
import { AuthError, CatalogError, ForbiddenError, NetworkError } from '../model/errors.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { Profile } from '../model/profile.js';
import type { ChangeImpact, Consumer, Owner, PlanImpact, PlannedChange } from '../plan/types.js';

/** OpenMetadata's route for each asset type: where its owners are read. */
const COLLECTIONS: Readonly<Record<string, string>> = {
  table: 'tables',
  topic: 'topics',
  dashboard: 'dashboards',
  chart: 'charts',
  pipeline: 'pipelines',
  mlmodel: 'mlmodels',
  container: 'containers',
  searchIndex: 'searchIndexes',
  storedProcedure: 'storedProcedures',
  apiEndpoint: 'apiEndpoints',
  metric: 'metrics',
  dashboardDataModel: 'dashboard/datamodels',
};

/** Lineage reads at once. */
const AT_ONCE = 8;

/** The default depth of the lineage read, and the most OpenMetadata answers. */
export const DEFAULT_IMPACT_DEPTH = 2;
export const MAX_IMPACT_DEPTH = 3;

type Asset = { type: string; fullyQualifiedName: string };

export interface ImpactOptions {
  profile: Profile;
  depth: number;
  /** The asset of each planned contract, by the contract's fullyQualifiedName. */
  assetOf(fullyQualifiedName: string): Asset | undefined;
}

/** Why lineage could not be read: the catalog's status, the request it answered, its message. */
function redacted(reader: CatalogReader, error: unknown): string {
  if (error instanceof CatalogError)
    return `${error.status} ${error.errorType} from ${error.request}: ${reader.redact(error.serverMessage)}`;
  return reader.redact(error instanceof Error ? error.message : String(error));
}

function ownersOf(list: readonly { type?: unknown; name?: unknown }[]): Owner[] {
  return list
    .filter((owner) => typeof owner.name === 'string')
    .map((owner) => ({ type: owner.type === 'team' ? 'team' : 'user', name: String(owner.name) }));
}

/**
 * The consumers of each breaking change of `changes`, set on it as `impact` (in place); what the
 * plan says of the lookup as a whole, or undefined when nothing was breaking (and nothing asked).
 */
export async function consumerImpact(
  changes: PlannedChange[],
  reader: CatalogReader,
  options: ImpactOptions,
): Promise<PlanImpact | undefined> {
  const breaking = changes
    .map((change, index) => ({ change, index }))
    .filter(({ change }) => change.breaking.length > 0);
  if (breaking.length === 0) return undefined;
  const { depth } = options;
  const lineage = reader.lineage?.bind(reader);
  if (options.profile !== 'openmetadata' || lineage === undefined)
    return {
      depth,
      unavailable: 'this catalog (spec profile) serves no lineage',
    };
  let refused: string | undefined;
  const owners = new Map<string, Promise<Owner[] | null>>();
  const ownersOfAsset = (asset: Asset): Promise<Owner[] | null> => {
    const key = `${asset.type}\u0000${asset.fullyQualifiedName}`;
    let found = owners.get(key);
    if (found === undefined) {
      const collection = COLLECTIONS[asset.type];
      found =
        collection === undefined || reader.assetOwners === undefined
          ? Promise.resolve(null)
          : reader
              .assetOwners(collection, asset.fullyQualifiedName)
              .then(ownersOf, (error: unknown) => {
                if (error instanceof AuthError) throw error;
                return null;
              });
      owners.set(key, found);
    }
    return found;
  };
  const impactOf = async (asset: Asset): Promise<ChangeImpact> => {
    if (refused !== undefined) return { asset, consumers: [], unknown: refused };
    let graph;
    try {
      graph = await lineage(asset.type, asset.fullyQualifiedName, depth);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      if (error instanceof ForbiddenError) {
        refused = `the catalog refused to show lineage (${redacted(reader, error)})`;
        return { asset, consumers: [], unknown: refused };
      }
      if (error instanceof CatalogError || error instanceof NetworkError)
        return {
          asset,
          consumers: [],
          unknown: `its lineage could not be read (${redacted(reader, error)})`,
        };
      throw error;
    }
    // What the downstream edges reach from the asset, level by level.
    const nodes = new Map((graph.nodes ?? []).map((node) => [node.id, node]));
    const edges = graph.downstreamEdges ?? [];
    const reached = new Set<string>();
    let frontier = new Set([graph.entity.id]);
    while (frontier.size > 0) {
      const next = new Set<string>();
      for (const edge of edges)
        if (
          frontier.has(edge.fromEntity) &&
          !reached.has(edge.toEntity) &&
          edge.toEntity !== graph.entity.id
        ) {
          reached.add(edge.toEntity);
          next.add(edge.toEntity);
        }
      frontier = next;
    }
    const consumers: Consumer[] = [];
    for (const id of reached) {
      const node = nodes.get(id);
      if (node === undefined || node.deleted === true) continue;
      const downstream = { type: node.type, fullyQualifiedName: node.fullyQualifiedName };
      consumers.push({ ...downstream, owners: await ownersOfAsset(downstream) });
    }
    consumers.sort(
      (a, b) =>
        a.type.localeCompare(b.type) || a.fullyQualifiedName.localeCompare(b.fullyQualifiedName),
    );
    return { asset, consumers };
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < breaking.length) {
      const { change, index } = breaking[next++]!;
      const asset = options.assetOf(change.fullyQualifiedName);
      if (asset === undefined) continue;
      changes[index] = { ...change, impact: await impactOf(asset) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, breaking.length) }, worker));
  return refused === undefined ? { depth } : { depth, unavailable: refused };
}
