// The routes of a real OpenMetadata server beyond the catalog interface that the sandbox serves
// under the openmetadata profile alone (a catalog of the spec profile answers them 404): ODCS
// exports of a contract, users, teams and test cases by name, assets by name with their owners,
// lineage, running a contract with its results, a contract's version history, the user's
// permissions, and defining a custom property through the types API. A GET of a path only other methods serve is a 405, as Jersey
// answers it (`/dataContracts/{id}/validate`, `/dataContracts/odcs`, `/lineage`, and
// `/dataContracts/validate` on the releases with the create dry run).
import type { IncomingMessage } from 'node:http';
import type { Catalog } from './catalog.js';
import type { ContractRuns } from './contract-runs.js';
import { getVersion, listVersions, type VersionView } from './contract-versions.js';
import { fullView } from './contracts.js';
import { ApiError, parseJsonBody, readBody, type Json } from './http.js';
import { addLineage, assetByName, ASSET_COLLECTIONS, getLineage } from './lineage.js';
import { odcsOfContract, odcsRequest } from './odcs-export.js';
import type { Reply } from './request-log.js';
import type { SeedUser } from './seed.js';
import type { Store } from './store.js';
import { yamlLibrary } from './yaml-library.js';
import { permissionsAnswer } from './permissions.js';
import type { OpenMetadataRelease } from './release.js';
import { addCustomProperty } from './types-api.js';

/** What OpenMetadata's ODCS export reads of a contract. */
const ODCS_FIELDS = new URLSearchParams('fields=owners');

/** How a version history shows each version: the contract with all its fields. */
const VERSION_VIEW: VersionView = (contract) => fullView(contract, 'openmetadata');

export interface RouteContext {
  method: string;
  /** The path under /api/v1, split. */
  route: readonly string[];
  query: URLSearchParams;
  request: IncomingMessage;
  user: SeedUser;
  catalog: Catalog;
  store: Store;
  runs: ContractRuns;
  release: OpenMetadataRelease | undefined;
  clock: () => number;
}

/** Jersey's answer to a method the path's resource methods do not take. */
const notAllowed = (): never => {
  throw new ApiError(405, 'HTTP 405 Method Not Allowed');
};

const ok = (body: unknown): Reply => ({ status: 200, body });

function onlyGet(context: RouteContext): void {
  if (context.method !== 'GET')
    throw new ApiError(405, `Method ${context.method} not allowed on ${context.request.url ?? ''}`);
}

/** The reply of an OpenMetadata-only route, or undefined for a route that is none of them. */
export async function openMetadataRoute(context: RouteContext): Promise<Reply | undefined> {
  const { route, method, query, user, catalog, store, runs } = context;
  const directory = catalog.directory;
  if (directory === undefined) return undefined;
  if (route[0] === 'permissions') {
    onlyGet(context);
    const answer = permissionsAnswer(store, user, route.slice(1));
    return answer === undefined ? undefined : ok(answer);
  }
  if (route[0] === 'metadata' && route[1] === 'types' && route.length === 3 && method === 'PUT') {
    const body = parseJsonBody(await readBody(context.request));
    return ok(addCustomProperty(store, user, route[2]!, body, context.clock));
  }
  if (route[0] === 'dataContracts' && method === 'GET') {
    // Paths whose resource methods take POST or PUT only.
    if (route.length === 2 && route[1] === 'odcs') notAllowed();
    if (route.length === 3 && route[2] === 'validate') notAllowed();
    if (route.length === 2 && route[1] === 'validate' && context.release?.has('createDryRun'))
      notAllowed();
  }
  if (route[0] === 'lineage' && route.length === 1 && method === 'GET') notAllowed();
  if (route[0] === 'dataContracts') {
    // OpenMetadata's ODCS export of a contract, as JSON or YAML.
    const odcs = odcsRequest(route);
    if (odcs !== undefined) {
      onlyGet(context);
      const contract = catalog.contracts.getContract(user, odcs.lookup, ODCS_FIELDS);
      const document = odcsOfContract(contract);
      return odcs.yaml
        ? { status: 200, body: undefined, yaml: yamlLibrary().stringify(document) }
        : ok(document);
    }
    // A contract's version history, and one version of it.
    if (route.length === 3 && route[2] === 'versions') {
      onlyGet(context);
      return ok(listVersions(store, user, route[1]!, VERSION_VIEW));
    }
    if (route.length === 4 && route[2] === 'versions') {
      onlyGet(context);
      return ok(getVersion(store, user, route[1]!, route[3]!, VERSION_VIEW));
    }
    // Running a contract, and reading its results.
    if (route.length === 3 && route[2] === 'validate' && method === 'POST')
      return ok(runs.validate(user, route[1]!));
    if (route.length === 4 && route[2] === 'results') {
      onlyGet(context);
      return ok(runs.read(user, route[1]!, route[3]!));
    }
    if (route.length === 3 && route[2] === 'results' && method === 'GET')
      return ok(runs.list(user, route[1]!, query));
    if (route.length === 3 && route[2] === 'results' && method === 'PUT') {
      const body = parseJsonBody(await readBody(context.request));
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ApiError(400, 'a data contract result must be a JSON object');
      return ok(runs.record(user, route[1]!, body as Json));
    }
    return undefined;
  }
  if (route[0] === 'lineage') {
    if (route.length === 1 && method === 'PUT') {
      addLineage(store, user, parseJsonBody(await readBody(context.request)));
      return { status: 200, body: undefined };
    }
    if (route.length === 4 && route[2] === 'name') {
      onlyGet(context);
      return ok(getLineage(store, user, route[1]!, route[3]!, query));
    }
    return undefined;
  }
  // Users, teams and test cases by name: what a reference to one needs.
  const byName = (prefix: string[]): boolean =>
    route.length === prefix.length + 1 && prefix.every((segment, k) => route[k] === segment);
  const entityType = byName(['users', 'name'])
    ? 'user'
    : byName(['teams', 'name'])
      ? 'team'
      : byName(['dataQuality', 'testCases', 'name'])
        ? 'testCase'
        : undefined;
  if (entityType !== undefined) {
    onlyGet(context);
    return ok(directory.byFullyQualifiedName(entityType, route[route.length - 1]!));
  }
  // Assets by name (`/tables/name/{fqn}`, `/dashboard/datamodels/name/{fqn}`, ...).
  const at = route.indexOf('name');
  const assetType =
    at > 0 && at === route.length - 2 ? ASSET_COLLECTIONS[route.slice(0, at).join('/')] : undefined;
  if (assetType !== undefined) {
    onlyGet(context);
    return ok(assetByName(store, directory, user, assetType, route[route.length - 1]!, query));
  }
  return undefined;
}
