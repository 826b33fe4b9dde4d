// `contracts restore FQN...`: the way back from a soft delete (`apply --prune`). Each contract is
// found by name among the deleted ones (`include=deleted`), and restored only when its marker
// names this repository, unless forced: every name is checked before anything is sent, and one
// refused (or not found) restores none. Then `PUT /v1/dataContracts/restore {"id"}`, one at a
// time, stopping at the first failure. OpenMetadata serves the route; the spec shows none.
import path from 'node:path';
import type { LiveContract } from '../catalog/client.js';
import { CatalogError, ConfigError, NetworkError, NotFoundError } from '../model/errors.js';
import {
  isRepository,
  sameRepository,
  type NoRepository,
  type Repository,
} from '../git/repository.js';
import { managerOfContract } from '../read/marker.js';
import { present } from './proof.js';

/** What restoring asks of the catalog: CatalogClient's, so tests may pass any object that has them. */
export interface CatalogRestorer {
  getContractByName(
    fqn: string,
    fields?: readonly string[],
    options?: { include?: 'all' | 'deleted' },
  ): Promise<LiveContract>;
  restoreContract(id: string): Promise<LiveContract | null>;
}

/** One contract named on the command line, and what became of it. */
export type RestoreResult =
  | {
      fullyQualifiedName: string;
      outcome: 'restored';
      id: string;
      /** The deleted version, and the version the restore made. */
      oldVersion: number;
      newVersion: number;
      /** The marker's path, when the marker names a file; whether that file is in the checkout. */
      file?: string;
      fileInCheckout?: boolean;
      /** The marker's commit, which held the file. */
      commit?: string;
      /** The answer was lost; reading the contract back showed it restored. */
      confirmedByReread?: true;
    }
  | { fullyQualifiedName: string; outcome: 'not-deleted'; id: string; version: number }
  | {
      fullyQualifiedName: string;
      outcome: 'failed';
      id: string;
      status: number | null;
      message: string;
    }
  | { fullyQualifiedName: string; outcome: 'not-attempted'; id: string };

export interface RestoreReport {
  results: RestoreResult[];
}

export interface RestoreOptions {
  /** The checkout the command runs in, or why there is none. */
  checkout: Repository | NoRepository;
  /** `--force`: restore whatever repository the marker names, or none. */
  force: boolean;
  /** The catalog's base URL as shown, for what it does not serve. */
  catalogUrl: string;
}

/** A deleted contract found, or why it is not restored. */
type Found =
  | { kind: 'deleted'; contract: LiveContract }
  | { kind: 'live'; contract: LiveContract }
  | { kind: 'refused'; reason: string }
  | { kind: 'missing' };

/** Why a deleted contract is not this checkout's to restore; undefined when it is. */
function refusal(contract: LiveContract, checkout: Repository | NoRepository): string | undefined {
  const manager = managerOfContract(contract);
  const force = 'run restore from the repository that manages it, or add --force';
  if (manager === undefined)
    return `${contract.fullyQualifiedName} carries no marker of this tool (extension.managedBy), so nothing says this repository manages it: ${force}`;
  if (!isRepository(checkout))
    return `${contract.fullyQualifiedName} is managed from ${manager.repository} (${manager.path}), and ${checkout.none}, so nothing says this is that repository: ${force}`;
  if (!sameRepository(manager.repository, checkout.url))
    return `${contract.fullyQualifiedName} is managed from ${manager.repository} (${manager.path}), not from this repository (${checkout.url}): ${force}`;
  return undefined;
}

/** The contract named `fqn`: deleted, live, or none; refused when not this checkout's. */
async function find(
  catalog: CatalogRestorer,
  fqn: string,
  options: RestoreOptions,
): Promise<Found> {
  let contract: LiveContract;
  try {
    contract = await catalog.getContractByName(fqn, ['extension'], { include: 'deleted' });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    try {
      return { kind: 'live', contract: await catalog.getContractByName(fqn) };
    } catch (again) {
      if (again instanceof NotFoundError) return { kind: 'missing' };
      throw again;
    }
  }
  const reason = options.force ? undefined : refusal(contract, options.checkout);
  return reason === undefined ? { kind: 'deleted', contract } : { kind: 'refused', reason };
}

/** What the restored contract's marker says of its file, from the checkout. */
async function fileOf(
  contract: LiveContract,
  checkout: Repository | NoRepository,
): Promise<
  Pick<Extract<RestoreResult, { outcome: 'restored' }>, 'file' | 'fileInCheckout' | 'commit'>
> {
  const manager = managerOfContract(contract);
  if (manager === undefined) return {};
  const known = {
    file: manager.path,
    ...(manager.commit === undefined ? {} : { commit: manager.commit }),
  };
  if (!isRepository(checkout) || !sameRepository(manager.repository, checkout.url)) return known;
  return {
    ...known,
    fileInCheckout: await present(path.join(checkout.top, ...manager.path.split('/'))),
  };
}

/**
 * After a restore whose answer was lost (a timeout, a reset, a 5xx): the contract read again by
 * name; restored when it is live again with the same id.
 */
async function readBack(catalog: CatalogRestorer, contract: LiveContract) {
  try {
    const live = await catalog.getContractByName(contract.fullyQualifiedName);
    return live.id === contract.id ? live : undefined;
  } catch {
    return undefined;
  }
}

/** Restores the deleted contracts `names` name, as the file's header says. */
export async function restoreContracts(
  catalog: CatalogRestorer,
  names: readonly string[],
  options: RestoreOptions,
): Promise<RestoreReport> {
  const unique = [...new Set(names)];
  const found: [string, Found][] = [];
  for (const fqn of unique) found.push([fqn, await find(catalog, fqn, options)]);
  const missing = found.filter(([, f]) => f.kind === 'missing').map(([fqn]) => fqn);
  const refused = found.flatMap(([, f]) => (f.kind === 'refused' ? [f.reason] : []));
  if (missing.length > 0 || refused.length > 0) {
    const sentences = [
      ...missing.map((fqn) => `the catalog has no data contract named ${fqn}, deleted or not`),
      ...refused,
    ];
    const message = `${sentences.join('; ')}. Nothing was restored.`;
    if (refused.length === 0)
      throw new NotFoundError(404, 'NOT_FOUND', message, 'GET /v1/dataContracts/name', message);
    throw new ConfigError(message);
  }
  const results: RestoreResult[] = [];
  let stopped = false;
  for (const [fqn, f] of found) {
    if (f.kind === 'live') {
      const { id, version } = f.contract;
      results.push({ fullyQualifiedName: fqn, outcome: 'not-deleted', id, version });
      continue;
    }
    if (f.kind !== 'deleted') continue;
    const { contract } = f;
    if (stopped) {
      results.push({ fullyQualifiedName: fqn, outcome: 'not-attempted', id: contract.id });
      continue;
    }
    let restored: LiveContract | null | undefined;
    let confirmed = false;
    try {
      restored = await catalog.restoreContract(contract.id);
    } catch (error) {
      const lost =
        error instanceof NetworkError || (error instanceof CatalogError && error.status >= 500);
      restored = lost ? await readBack(catalog, contract) : undefined;
      confirmed = restored !== undefined;
      if (restored === undefined) {
        stopped = true;
        results.push({
          fullyQualifiedName: fqn,
          outcome: 'failed',
          id: contract.id,
          status: error instanceof CatalogError ? error.status : null,
          message: error instanceof Error ? error.message : String(error),
        });
        continue;
      }
    }
    if (restored === null) {
      // The first restore sent is refused as a route: nothing was restored before it.
      if (results.every((result) => result.outcome !== 'restored'))
        throw new ConfigError(
          `${options.catalogUrl} does not serve PUT /v1/dataContracts/restore, which restores a soft-deleted data contract: OpenMetadata serves it, the spec's interface has no restore. Restore ${fqn} in the catalog itself. Nothing was restored.`,
        );
      stopped = true;
      results.push({
        fullyQualifiedName: fqn,
        outcome: 'failed',
        id: contract.id,
        status: null,
        message: 'the catalog no longer serves PUT /v1/dataContracts/restore',
      });
      continue;
    }
    results.push({
      fullyQualifiedName: fqn,
      outcome: 'restored',
      id: contract.id,
      oldVersion: contract.version,
      newVersion: restored.version,
      ...(await fileOf(contract, options.checkout)),
      ...(confirmed ? { confirmedByReread: true as const } : {}),
    });
  }
  return { results };
}

/** Whether the report fails the command: a restore failed (or was not attempted after one). */
export function restoreFailed(report: RestoreReport): boolean {
  return report.results.some(
    (result) => result.outcome === 'failed' || result.outcome === 'not-attempted',
  );
}
