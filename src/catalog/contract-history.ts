// A contract's version history read from the catalog (OpenMetadata's
// `GET /v1/dataContracts/{id}/versions`: an EntityHistory whose versions are JSON texts of the
// whole contract, the current one first), and the edits made after a version. The answer is
// read as a stranger's: at most MAX_HISTORY_VERSIONS versions, each text parsed on its own, a
// version without a number or with a user that is not a name left out and said; a catalog
// without the route answers "no history here", not an error.
import { CatalogError } from '../model/errors.js';
import type { ContractEdit, ContractHistory, ContractVersion } from '../model/history.js';
import { HISTORY_ANSWER } from './shapes.js';
import type { CatalogTransport } from './transport.js';
import { pathSegment } from './url.js';

/** The most versions one history is read to (the newest ones); the rest are said, not read. */
export const MAX_HISTORY_VERSIONS = 1000;

/** Statuses of a catalog that serves no version history (or no such contract) at this path. */
const UNSERVED = new Set([404, 405, 501]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The top-level field names of a changeDescription's entries, sorted and unique. */
function changedFields(changeDescription: unknown): string[] {
  if (!isRecord(changeDescription)) return [];
  const names = new Set<string>();
  for (const list of ['fieldsAdded', 'fieldsUpdated', 'fieldsDeleted']) {
    const entries = changeDescription[list];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const name = isRecord(entry) ? entry.name : undefined;
      if (typeof name === 'string' && name !== '') names.add(name.split('.')[0]!);
    }
  }
  names.delete('');
  return [...names].sort();
}

/** One entry of the answer's `versions` as a version, or the sentence saying why it is none. */
function readVersion(entry: unknown, at: number): ContractVersion | string {
  let document: unknown = entry;
  if (typeof entry === 'string') {
    try {
      document = JSON.parse(entry) as unknown;
    } catch {
      return `versions[${at}] is not JSON`;
    }
  }
  if (!isRecord(document)) return `versions[${at}] is not a contract (a JSON object)`;
  const { version, updatedBy, updatedAt } = document;
  if (typeof version !== 'number' || !Number.isFinite(version))
    return `versions[${at}] has no version number`;
  if (updatedBy !== undefined && updatedBy !== null && typeof updatedBy !== 'string')
    return `version ${version} (versions[${at}]) names its user with something that is not a name`;
  return {
    version,
    ...(typeof updatedBy === 'string' ? { updatedBy } : {}),
    ...(typeof updatedAt === 'number' && Number.isFinite(updatedAt) ? { updatedAt } : {}),
    fields: changedFields(document.changeDescription),
    document,
  };
}

/**
 * The history in an EntityHistory answer: its versions newest first, one per number (the first
 * given wins: the server lists the current version first), and what was left out.
 */
export function historyOf(answer: { versions: unknown[] }): ContractHistory {
  const skipped: string[] = [];
  const entries = answer.versions;
  if (entries.length > MAX_HISTORY_VERSIONS)
    skipped.push(
      `the catalog gave ${entries.length} versions; only the first ${MAX_HISTORY_VERSIONS} were read`,
    );
  const seen = new Set<number>();
  const versions: ContractVersion[] = [];
  entries.slice(0, MAX_HISTORY_VERSIONS).forEach((entry, at) => {
    const read = readVersion(entry, at);
    if (typeof read === 'string') skipped.push(read);
    else if (!seen.has(read.version)) {
      seen.add(read.version);
      versions.push(read);
    }
  });
  versions.sort((a, b) => b.version - a.version);
  return skipped.length === 0 ? { versions } : { versions, skipped };
}

/**
 * A failed read of a history as "no history here" when the catalog does not serve it (404, 405,
 * 501: no such route, or no such contract); any other failure goes on.
 */
export function unavailableHistory(error: unknown, id: string): ContractHistory {
  if (error instanceof CatalogError && UNSERVED.has(error.status))
    return {
      unavailable: `the catalog gives no version history for contract ${id} (${error.request} answered ${error.status}: ${error.serverMessage})`,
    };
  throw error;
}

/**
 * `GET /v1/dataContracts/{id}/versions`: the contract's versions, newest first, or `unavailable`
 * with the sentence why where the catalog serves no history. A 401, a 403, a network failure or
 * an answer that is no history at all is the transport's typed error.
 */
export async function readContractHistory(
  http: Pick<CatalogTransport, 'getJson'>,
  id: string,
): Promise<ContractHistory> {
  let answer: { versions: unknown[] };
  try {
    answer = await http.getJson(`/dataContracts/${pathSegment(id)}/versions`, {}, HISTORY_ANSWER);
  } catch (error) {
    return unavailableHistory(error, id);
  }
  return historyOf(answer);
}

/** The edits after version `since`, oldest first. */
export function editsSince(history: readonly ContractVersion[], since: number): ContractEdit[] {
  return history
    .filter((entry) => entry.version > since)
    .sort((a, b) => a.version - b.version)
    .map((entry) => ({
      version: entry.version,
      user: entry.updatedBy,
      at: entry.updatedAt,
      fields: [...entry.fields],
    }));
}
