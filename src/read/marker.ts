// The marker of a managed contract: `extension.managedBy`, the address of the file that manages
// it (repository.ts). A custom property, so that the catalog keeps it, versions it and shows it
// beside the contract: OpenMetadata keeps one only where it is defined (a `managedBy` of type
// string, defined through its types API, as `contracts doctor --fix` does; its UI has no page for
// a data contract's custom properties); the spec's catalog keeps `extension` as it is given.
// Written with every create and change the tool plans, so that what a repository applied names
// it, and `--prune` can tell its own contracts from everyone else's.
import { holding, type ContractFile } from '../contract/positions.js';
import { isPlainObject } from '../model/json-value.js';
import type { Found } from '../model/finding.js';
import type { LiveResult } from '../plan/create-plan.js';
import type { CustomProperties } from '../plan/custom-properties.js';
import type { Profile } from '../model/profile.js';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { GitHistory } from '../git/history.js';
import {
  isRepository,
  managerOf,
  markerFor,
  nestedCheckout,
  repositoryPath,
  sameRepository,
  type Manager,
  type NoRepository,
  type Repository,
} from '../git/repository.js';

/** The custom property of data contracts that holds the marker. */
export const MARKER_PROPERTY = 'managedBy';

/** Who manages a live contract, as its marker names it; undefined when it has none of ours. */
export function managerOfContract(
  contract: Readonly<Record<string, unknown>>,
): Manager | undefined {
  const extension = contract.extension;
  return isPlainObject(extension) ? managerOf(extension[MARKER_PROPERTY]) : undefined;
}

/**
 * Why contracts cannot carry the marker on this catalog (no custom property for it on
 * OpenMetadata, or a catalog whose contracts have no `extension`); undefined when they can.
 */
export async function markerUnavailable(
  profile: Profile,
  properties: (() => Promise<CustomProperties>) | undefined,
  withoutExtension: boolean,
): Promise<string | undefined> {
  if (withoutExtension)
    return 'the catalog keeps no custom properties (extension) on data contracts';
  if (profile !== 'openmetadata' || properties === undefined) return undefined;
  const known = await properties();
  if ('unknown' in known)
    return `the catalog could not say which custom properties data contracts have (${known.unknown})`;
  return known.properties.some((property) => property.name === MARKER_PROPERTY)
    ? undefined
    : `the catalog defines no custom property ${MARKER_PROPERTY} on data contracts: run \`contracts doctor --fix\` with an admin's token to define it (a string property, through PUT /v1/metadata/types/{id})`;
}

/**
 * `file` with `marker` in its contract's `extension`, beside the custom properties the file or
 * the live contract holds (what the file leaves alone stays as the catalog has it); and a warning
 * when the live contract is managed from another repository, which this change takes it from.
 */
export function withMarker(
  file: ContractFile,
  read: LiveResult,
  marker: string,
): { file: ContractFile; warning?: Found } {
  const own = file.contract.extension;
  const live = read.kind === 'found' ? read.contract.extension : undefined;
  const kept = isPlainObject(own) ? own : isPlainObject(live) ? live : {};
  const marked = holding(file, {
    ...file.contract,
    extension: { ...kept, [MARKER_PROPERTY]: marker },
  });
  const manager = read.kind === 'found' ? managerOfContract(read.contract) : undefined;
  const mine = managerOf(marker);
  if (
    manager === undefined ||
    mine === undefined ||
    sameRepository(manager.repository, mine.repository)
  )
    return { file: marked };
  return {
    file: marked,
    warning: {
      code: 'marker.managed-elsewhere',
      severity: 'warning',
      message: `this contract is managed from another repository (${manager.repository}, ${manager.path}); applying this file makes ${mine.repository} its manager, and the other repository's plans will want it back: keep one file for it`,
      // The whole contract: at the name that identifies it.
      pointer: '/fullyQualifiedName',
    },
  };
}

/**
 * `file` keeping the live contract's marker where the file manages `extension` and this run marks
 * nothing (no repository, or a catalog that keeps no marker): the marker is the tool's, never the
 * file's, and a run that cannot write one does not take it away.
 */
export function keepingMarker(file: ContractFile, read: LiveResult): ContractFile {
  const own = file.contract.extension;
  if (!isPlainObject(own) || read.kind !== 'found') return file;
  const live = read.contract.extension;
  if (!isPlainObject(live) || live[MARKER_PROPERTY] === undefined || MARKER_PROPERTY in own)
    return file;
  return holding(file, {
    ...file.contract,
    extension: { ...own, [MARKER_PROPERTY]: live[MARKER_PROPERTY] },
  });
}

/** `contract` (a live one, in the file's model) without its marker, as a file holds it. */
export function withoutMarker<T extends Record<string, unknown>>(contract: T): T {
  const extension = contract.extension;
  if (!isPlainObject(extension) || !(MARKER_PROPERTY in extension)) return contract;
  const { [MARKER_PROPERTY]: _marker, ...rest } = extension;
  const copy: Record<string, unknown> = { ...contract };
  if (Object.keys(rest).length === 0) delete copy.extension;
  else copy.extension = rest;
  return copy as T;
}

/** `absolute` with its links resolved (as git names the checkout's top), or as it is if it cannot be. */
function resolvedPath(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** The marker string a live contract holds. */
function liveMarker(contract: Readonly<Record<string, unknown>>): string {
  return (contract.extension as Record<string, string>)[MARKER_PROPERTY]!;
}

/** Why a file's contract gets no marker, as a sentence. */
export interface Unmarked {
  unmarked: string;
}

/** What marks a file's contract as managed from its repository. */
export interface Marking {
  /**
   * The marker of the file at `file` (as a plan names it), whose live contract is `read`: the one
   * the live contract has when it names this repository, this file and a commit of this
   * checkout's history that held it, with no deletion of the file since (a marker is rewritten
   * with the run's commit only when it would name anything else, so that a new commit re-marks
   * nothing). Only a file inside the run's checkout, whose origin names a forge's repository, has
   * one: any other gets none, and why.
   */
  markerOf(file: string, read: LiveResult): Promise<string | Unmarked>;
  /**
   * Why the catalog keeps no marker (asked once a run), or undefined when it does; `properties`
   * are the catalog's custom properties of data contracts, where it has any (OpenMetadata).
   */
  unavailable(properties?: () => Promise<CustomProperties>): Promise<string | undefined>;
}

/**
 * The marking of a run in `cwd`, whose files are in `checkout` (or why there is none), against
 * `reader`'s catalog.
 */
export function markingFor(
  checkout: Repository | NoRepository,
  cwd: string,
  profile: Profile,
  reader: CatalogReader,
): Marking {
  let asked: Promise<string | undefined> | undefined;
  let history: Promise<GitHistory | undefined> | undefined;
  // The working folder's links resolved once a run, not once a file: files are named from it.
  let folder: string | undefined;
  const nested = new Map<string, string | undefined>();
  const unavailable: Marking['unavailable'] = (properties) =>
    (asked ??= markerUnavailable(profile, properties, reader.refusedExtension === true));
  // No repository: no marker whatever the catalog keeps, so the catalog is not asked.
  if (!isRepository(checkout))
    return {
      markerOf: () => Promise.resolve({ unmarked: checkout.none }),
      unavailable: () => Promise.resolve(undefined),
    };
  const repository = checkout;
  return {
    markerOf: async (file, read) => {
      folder ??= resolvedPath(cwd);
      const absolute = path.resolve(folder, file);
      const fresh = markerFor(repository, absolute);
      if (fresh === undefined)
        return { unmarked: `it is outside the git checkout (${repository.top})` };
      const inner = nestedCheckout(repository, absolute, nested);
      if (inner !== undefined)
        return {
          unmarked: `it is in another git checkout (${inner}) inside this one, whose repository is not this checkout's`,
        };
      if (read.kind !== 'found') return fresh;
      const live = managerOfContract(read.contract);
      if (
        live?.commit === undefined ||
        !sameRepository(live.repository, repository.url) ||
        live.path !== repositoryPath(repository, absolute)
      )
        return fresh;
      history ??= GitHistory.of(repository.top);
      const known = await history;
      if (known === undefined) return fresh;
      const ancestry = await known.ancestryOf(live.commit);
      // A commit this checkout lacks (a shallow clone) cannot be told wrong: the marker stays.
      if (ancestry === 'absent') return liveMarker(read.contract);
      if (ancestry === 'not-ancestor') return fresh;
      // A file deleted since and brought back is marked again: a checkout from between the two
      // must not read the old marker as the proof of a deletion.
      if ((await known.deletedSince(live.commit)).has(live.path)) return fresh;
      return (await known.holds(live.commit, live.path)) ? liveMarker(read.contract) : fresh;
    },
    unavailable,
  };
}
