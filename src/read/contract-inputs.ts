// What one contract file's plan needs from the catalog: its live contract by FQN, its asset
// (looked up for all files at once), the ids of the users, teams and test cases it names, the
// catalog's rules, its marker, and, for a contract the catalog lacks, whether its asset inherits
// one from a data product. I/O only through the reader passed in.
import type { LiveContract } from '../catalog/client.js';
import { withContract, type ContractFile } from '../contract/parse.js';
import { fileForProfile, keptOnlyInGitFinding } from '../contract/odcs-file.js';
import type { Found as FindingDraft } from '../model/finding.js';
import { withVersionProperty } from './version-property.js';
import { keepingMarker, managerOfContract, withMarker, type Marking } from './marker.js';
import type { Codec } from '../profile/codec.js';
import type { Profile } from '../model/profile.js';
import {
  AuthError,
  CatalogError,
  ConfigError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
} from '../model/errors.js';
import { type LiveResult, type PlanInput } from '../plan/create-plan.js';
import { track, type ProgressHooks } from '../support/progress.js';
import { lookUpReferences, type ReferenceLookup } from './reference-ids.js';
import { ruleFindings, type CatalogRules } from '../plan/catalog-rules.js';
import { joinRefusals } from '../plan/refusal-text.js';
import { createBlocker, effectiveContractOf } from './create-blockers.js';
import { assetKey, lookupAssets, type AssetLookup } from './live-assets.js';
import { dataProductNames } from '../plan/asset-document.js';
import {
  assetFields,
  columnFindings,
  nestedColumnsNote,
  type AssetColumns,
} from '../plan/asset-columns.js';

import type { CatalogReader } from '../catalog/catalog-reader.js';
import { inheritanceNotes, inheritedValues } from './inheritance-notes.js';
import { knownFromLive } from './known-from-live.js';

/** Fields a plan reads with each contract, so that owners, reviewers and extension can be managed. */
export const CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;

export interface ReadOptions {
  /** Told as each contract's read starts and ends. */
  progress?: ProgressHooks;
  /** Look the assets up in the search index (default true). */
  checkAssets?: boolean;
  /**
   * The repository the files are in, and where they are: each contract created or changed is
   * marked as managed by its file there (read/marker.ts). None: contracts are not marked.
   */
  marking?: Marking;
}

type Found = LiveContract;

/**
 * What planning needs of a found asset, kept until its contract is read and planned: search
 * documents and listed tables do not stay in memory.
 */
export interface CheckedAsset {
  id: string;
  products: string[];
  columns: AssetColumns | undefined;
  piiColumns: string[];
}

/** Looks every file's asset up, keeping of each what its contract's checks need. */
export function checkAssets(
  files: readonly ContractFile[],
  reader: CatalogReader,
  profile: Profile,
): Promise<Map<string, AssetLookup<CheckedAsset>>> {
  return lookupAssets(
    reader,
    profile,
    files.map((file) => file.identity.entity),
    (asset): CheckedAsset => ({
      id: asset.id,
      products: dataProductNames(asset),
      columns: assetFields(asset, profile),
      piiColumns: asset.piiColumns ?? [],
    }),
  );
}

/** Reads one file's live contract; what stops the whole plan is thrown, the rest is a result. */
export async function readLiveContract(
  stored: ContractFile,
  reader: CatalogReader,
  progress: ProgressHooks | undefined,
): Promise<LiveResult> {
  const name = stored.identity.fullyQualifiedName;
  try {
    return {
      kind: 'found',
      contract: await track(progress, name, () => reader.getContractByName(name, CONTRACT_FIELDS)),
    };
  } catch (error) {
    // A bad token fails every request alike: stop the whole plan with one clear error.
    if (error instanceof AuthError) throw error;
    // So does a user who may not view contracts: said once, with the permission it needs.
    if (error instanceof ForbiddenError)
      throw new ConfigError(
        `the catalog refused to show data contracts to this token's user (403: ${reader.redact(error.serverMessage)}); it needs the permission to view data contracts (ViewDataContract, or ViewAll on OpenMetadata)`,
      );
    if (error instanceof NotFoundError) return { kind: 'missing' };
    if (error instanceof CatalogError || error instanceof NetworkError)
      return { kind: 'error', message: reader.redact(error.message) };
    throw error;
  }
}

/**
 * One file's plan input, from its live contract and the asset lookups; the input's file holds its
 * contract, read now.
 */
export async function readContractInputs(
  stored: ContractFile,
  read: LiveResult,
  assets: Map<string, AssetLookup<CheckedAsset>>,
  reader: CatalogReader,
  references: ReferenceLookup | undefined,
  rules: CatalogRules | undefined,
  codec: Codec,
  marking: Marking | undefined,
): Promise<PlanInput> {
  const profile = codec.profile;
  // The file's contract: the live one read back where that is what the file holds, else read
  // again from the file (an ODCS file's as this profile stores it).
  let file =
    (read.kind === 'found' ? knownFromLive(stored, read.contract, codec) : undefined) ??
    fileForProfile(withContract(stored), profile);
  const { type, fullyQualifiedName } = file.identity.entity;
  const key = assetKey(type, fullyQualifiedName);
  const lookup = assets.get(key);
  // Each lookup serves one contract (files name distinct assets): let it go.
  assets.delete(key);
  const notes: string[] = [];
  let inherited: PlanInput['inherited'];
  const warnings: FindingDraft[] = [];
  // What an ODCS file holds that the catalog does not store: said once for the file.
  const odcsOnly = file.format === 'odcs' ? keptOnlyInGitFinding(file) : undefined;
  if (odcsOnly !== undefined) warnings.push(odcsOnly);
  let assetError: string | undefined;
  let assetId: string | undefined;
  let lackingColumns: PlanInput['lackingColumns'];
  let createBlocked: string | undefined;
  let unmarked: ContractFile | undefined;
  let unmarkedBecause: string | undefined;
  if (lookup?.kind === 'found') assetId = lookup.asset.id;
  if (lookup?.kind === 'absent') {
    assetError = `${type} ${fullyQualifiedName} is not in the catalog's search index: the contract's asset does not exist (or is deleted)`;
  } else if (lookup?.kind === 'unchecked') {
    notes.push(`live-asset check skipped: ${lookup.reason}`);
  } else if (lookup?.kind === 'found' && read.kind !== 'error') {
    const columns = columnFindings(file, lookup.asset.columns, read);
    warnings.push(...columns.warnings);
    if (columns.nested.length > 0) notes.push(nestedColumnsNote(file, columns.nested));
    if (columns.lacking.length > 0)
      lackingColumns = {
        names: columns.lacking,
        unnamed: columns.unnamed,
        ...(columns.fromLive ? { fromLive: true } : {}),
      };
    const products = lookup.asset.products;
    // Read for the inheritance notes, and for a contract to create: the asset's own contract of
    // another name would stand in the way.
    if (products.length === 1 || read.kind === 'missing') {
      const target = { id: lookup.asset.id, type, fullyQualifiedName };
      // None (404): no contract in force either way. Another failure is said, not guessed at.
      const { contract: effective, unknown } = await effectiveContractOf(reader, target);
      if (unknown !== undefined)
        notes.push(
          `could not read the contract in force on ${type} ${fullyQualifiedName} (${unknown}): ${read.kind === 'missing' ? 'if the asset already has a contract of another name, the catalog will refuse this one' : 'what it inherits from its data product is not shown'}`,
        );
      if (effective !== null && products.length === 1) {
        const own = read.kind === 'found' ? (read.contract as Found) : null;
        notes.push(...inheritanceNotes(file, own, effective, products[0]!));
        inherited = { product: products[0]!, values: inheritedValues(own, effective) };
      }
      if (read.kind === 'missing') {
        const found = await createBlocker(
          reader,
          file.identity.fullyQualifiedName,
          target,
          effective,
        );
        createBlocked = found.blocker;
        if (found.unknown !== undefined) notes.push(found.unknown);
      }
    }
  }
  // Ids only for what may be sent: a contract read, or one to create on an asset found.
  const sendable =
    assetError === undefined &&
    (read.kind === 'found' ||
      (read.kind === 'missing' && assetId !== undefined && createBlocked === undefined));
  const { referenceIds, referenceError: unknownReference } =
    references === undefined || !sendable
      ? {}
      : await lookUpReferences(file, read, references, reader);
  // What the catalog's rules refuse (data asset rules, custom properties), when something may be
  // sent.
  // The declared version, where the catalog defines a custom property for it, is sent too.
  if (rules !== undefined && sendable)
    file = await withVersionProperty(file, read, rules.properties);
  // And the marker of the repository and file that manage the contract, where the catalog keeps it.
  if (sendable) {
    const marker =
      marking !== undefined && (await marking.unavailable(rules?.properties)) === undefined
        ? await marking.markerOf(file.file, read)
        : undefined;
    if (typeof marker === 'object') unmarkedBecause = marker.unmarked;
    if (typeof marker === 'string') {
      const marked = withMarker(file, read, marker);
      // A contract without the tool's marker (just imported, say) is not changed for it alone.
      if (read.kind === 'found' && managerOfContract(read.contract) === undefined)
        unmarked = keepingMarker(file, read);
      file = marked.file;
      if (marked.warning !== undefined) warnings.push(marked.warning);
    } else file = keepingMarker(file, read);
  }
  const ruled: Partial<Awaited<ReturnType<typeof ruleFindings>>> =
    rules !== undefined && sendable ? await ruleFindings(file.contract, read, rules) : {};
  if (ruled.note !== undefined) notes.push(ruled.note);
  const refused = [unknownReference, ruled.error].filter((error) => error !== undefined);
  // One error, at the first thing it says.
  const referenceError: FindingDraft | undefined =
    refused.length === 0
      ? undefined
      : { ...refused[0]!, message: joinRefusals(refused.map((error) => error.message)) };
  return {
    file,
    ...(unmarked === undefined ? {} : { unmarked }),
    ...(unmarkedBecause === undefined ? {} : { unmarkedBecause }),
    live: read,
    notes,
    warnings,
    ...(referenceIds === undefined ? {} : { referenceIds }),
    ...(referenceError === undefined ? {} : { referenceError }),
    ...(assetError === undefined ? {} : { assetError }),
    ...(assetId === undefined ? {} : { assetId }),
    ...(lookup?.kind === 'found' && lookup.asset.piiColumns.length > 0
      ? { piiColumns: lookup.asset.piiColumns }
      : {}),
    ...(lackingColumns === undefined ? {} : { lackingColumns }),
    ...(createBlocked === undefined ? {} : { createBlocked }),
    ...(ruled.assetRules === undefined ? {} : { assetRules: ruled.assetRules }),
    ...(inherited === undefined ? {} : { inherited }),
  };
}
