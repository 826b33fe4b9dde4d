// Reads what a plan needs from the catalog: each file's live contract by FQN, and for a contract
// the catalog lacks, whether its asset inherits one from a data product. I/O only through the
// reader passed in; the plan itself is made by createPlan.
import type { LiveContract } from '../catalog/client.js';
import type { DesiredContract } from '../contract/model.js';
import type { ContractFile } from '../contract/parse.js';
import { specCodec } from '../profile/codec.js';
import {
  AuthError,
  CatalogError,
  ConfigError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
} from '../errors.js';
import { planChange, type LiveResult, type PlanInput, type PlanOptions } from './create-plan.js';
import type { PlannedChange } from './types.js';
import { track, type ProgressHooks } from '../progress.js';
import {
  assetKey,
  dataProductNames,
  lookupAssets,
  type AssetDocument,
  type AssetLookup,
} from './live-assets.js';

export { exactFieldValue, searchIndexFor } from './live-assets.js';

import type { CatalogReader } from './catalog-reader.js';

export type { CatalogReader };

/** Fields a plan reads with each contract, so that owners, reviewers and extension can be managed. */
export const CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;

export interface ReadOptions {
  /** Told as each contract's read starts and ends. */
  progress?: ProgressHooks;
  /** Look the assets up in the search index (default true). */
  checkAssets?: boolean;
}

type Found = LiveContract;

/** Column findings: the names the asset lacks, and warnings for types that differ. */
function columnFindings(
  file: ContractFile,
  asset: AssetDocument,
): { lacking: string[]; unnamed: string[]; warnings: string[] } {
  const schema = file.contract.schema;
  const none = { lacking: [], unnamed: [], warnings: [] };
  if (!Array.isArray(schema) || asset.columns === undefined) return none;
  const types = new Map<string, string>();
  for (const column of asset.columns) {
    if (typeof column.name === 'string')
      types.set(column.name, typeof column.dataType === 'string' ? column.dataType : '');
  }
  const { type, fullyQualifiedName } = file.contract.entity;
  const lacking: string[] = [];
  const warnings: string[] = [];
  const named = new Set<string>();
  for (const column of schema as { name: string; dataType: string }[]) {
    named.add(column.name);
    const actual = types.get(column.name);
    if (actual === undefined) lacking.push(column.name);
    else if (
      actual !== '' &&
      actual !== column.dataType &&
      actual.toUpperCase() !== column.dataType.toUpperCase()
    ) {
      warnings.push(
        `column ${column.name} is ${column.dataType} in the contract but ${actual} in ${type} ${fullyQualifiedName}`,
      );
    }
  }
  // The asset's columns the file does not name: where a rename the asset has not had may show.
  const unnamed = lacking.length === 0 ? [] : [...types.keys()].filter((name) => !named.has(name));
  return { lacking, unnamed, warnings };
}

const INHERITABLE = ['termsOfUse', 'security', 'sla'] as const;

/** Which fields of an asset's effective contract come from its data product, said for reviewers. */
function inheritanceNotes(
  file: ContractFile,
  own: Found | null,
  effective: LiveContract,
  product: string,
): string[] {
  const { type, fullyQualifiedName } = file.contract.entity;
  if (own === null) {
    return effective.inherited === true
      ? [
          `${type} ${fullyQualifiedName} currently inherits contract ${effective.fullyQualifiedName} from data product ${product}; creating its own contract will override the inherited one`,
        ]
      : [];
  }
  const inherited: string[] = INHERITABLE.filter(
    (field) => own[field] === undefined && effective[field] !== undefined,
  );
  const ownRules = new Set(
    Array.isArray(own.semantics)
      ? (own.semantics as { name?: unknown }[]).map((rule) => rule.name)
      : [],
  );
  const rules = (
    Array.isArray(effective.semantics)
      ? (effective.semantics as { name?: unknown; inherited?: unknown }[])
      : []
  )
    .filter((rule) => rule.inherited === true || !ownRules.has(rule.name))
    .map((rule) => String(rule.name));
  const notes: string[] = [];
  const managedHere: string[] = inherited.filter(
    (field) => file.contract[field] !== undefined && file.contract[field] !== null,
  );
  const notManaged = inherited.filter((field) => !managedHere.includes(field));
  // A rule the file itself names is the contract's own once applied, not one to edit elsewhere.
  const fileRules = new Set(
    Array.isArray(file.contract.semantics)
      ? (file.contract.semantics as { name?: unknown }[]).map((rule) => rule.name)
      : [],
  );
  managedHere.push(
    ...rules.filter((rule) => fileRules.has(rule)).map((rule) => `semantics rule ${rule}`),
  );
  const described = [
    ...notManaged,
    ...rules.filter((rule) => !fileRules.has(rule)).map((rule) => `semantics rule ${rule}`),
  ];
  if (described.length > 0) {
    notes.push(
      `inherited from data product ${product}: ${described.join(', ')}; change ${described.length === 1 ? 'it' : 'them'} in the product's contract, not here`,
    );
  }
  if (managedHere.length > 0) {
    notes.push(
      `${managedHere.join(', ')} ${managedHere.length === 1 ? 'is' : 'are'} now inherited from data product ${product}; this file gives the contract its own value instead`,
    );
  }
  return notes;
}

/** What planning needs of a found asset: search documents do not stay in memory. */
interface CheckedAsset {
  id: string;
  products: string[];
  warnings: string[];
  /** The file's columns the asset lacks, and the asset's columns the file does not name. */
  lacking: string[];
  unnamed: string[];
}

/** Looks every file's asset up and checks its columns as each answer arrives. */
function checkAssets(
  files: readonly ContractFile[],
  reader: CatalogReader,
): Promise<Map<string, AssetLookup<CheckedAsset>>> {
  const fileByAsset = new Map<string, ContractFile>();
  for (const file of files)
    fileByAsset.set(
      assetKey(file.contract.entity.type, file.contract.entity.fullyQualifiedName),
      file,
    );
  return lookupAssets(
    reader,
    files.map((file) => file.contract.entity),
    (asset, key): CheckedAsset => ({
      id: asset.id,
      products: dataProductNames(asset),
      ...columnFindings(fileByAsset.get(key)!, asset),
    }),
  );
}

/** Reads one file's live contract and builds its plan input once the asset lookups are in. */
async function readOne(
  file: ContractFile,
  reader: CatalogReader,
  assetsReady: Promise<Map<string, AssetLookup<CheckedAsset>>>,
  progress: ProgressHooks | undefined,
): Promise<PlanInput> {
  let read: LiveResult;
  const name = file.contract.fullyQualifiedName;
  try {
    read = {
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
    if (error instanceof NotFoundError) read = { kind: 'missing' };
    else if (error instanceof CatalogError || error instanceof NetworkError)
      read = { kind: 'error', message: reader.redact(error.message) };
    else throw error;
  }
  const assets = await assetsReady;
  const { type, fullyQualifiedName } = file.contract.entity;
  const key = assetKey(type, fullyQualifiedName);
  const lookup = assets.get(key);
  // Each lookup serves one contract (files name distinct assets): let it go.
  assets.delete(key);
  const notes: string[] = [];
  const warnings: string[] = [];
  let assetError: string | undefined;
  let assetId: string | undefined;
  let lackingColumns: PlanInput['lackingColumns'];
  if (lookup?.kind === 'found') assetId = lookup.asset.id;
  if (lookup?.kind === 'absent') {
    assetError = `${type} ${fullyQualifiedName} is not in the catalog's search index: the contract's asset does not exist (or is deleted)`;
  } else if (lookup?.kind === 'unchecked') {
    notes.push(`live-asset check skipped: ${lookup.reason}`);
  } else if (lookup?.kind === 'found' && read.kind !== 'error') {
    warnings.push(...lookup.asset.warnings);
    if (lookup.asset.lacking.length > 0)
      lackingColumns = { names: lookup.asset.lacking, unnamed: lookup.asset.unnamed };
    const products = lookup.asset.products;
    if (products.length === 1) {
      try {
        const effective = await reader.getEffectiveContract(lookup.asset.id, type);
        notes.push(
          ...inheritanceNotes(
            file,
            read.kind === 'found' ? (read.contract as Found) : null,
            effective,
            products[0]!,
          ),
        );
      } catch (error) {
        if (error instanceof AuthError) throw error;
        // 404: no contract in force either way; other failures only lose the note.
      }
    }
  }
  return {
    file,
    live: read,
    notes,
    warnings,
    ...(assetError === undefined ? {} : { assetError }),
    ...(assetId === undefined ? {} : { assetId }),
    ...(lackingColumns === undefined ? {} : { lackingColumns }),
  };
}

function startReading(
  files: readonly ContractFile[],
  reader: CatalogReader,
  options: ReadOptions,
): { read: (file: ContractFile) => Promise<PlanInput> } {
  const assetsReady =
    (options.checkAssets ?? true)
      ? checkAssets(files, reader)
      : Promise.resolve(new Map<string, AssetLookup<CheckedAsset>>());
  // Do not leave a rejection unobserved while the contract reads are still running.
  assetsReady.catch(() => undefined);
  return { read: (file) => readOne(file, reader, assetsReady, options.progress) };
}

/** Contracts planned at once: enough to keep the reader's connections busy, few enough to stay small. */
const IN_FLIGHT = 64;

export interface PlannedContracts {
  /** One planned change per file, in file order. */
  changes: PlannedChange[];
  /** With keepLive, the live contracts of the `update` changes, for applying them straight away. */
  liveForUpdates: Map<string, LiveContract>;
  /**
   * With keepLive, the desired contracts (in the catalog's wire shape) of the `update` and
   * `create` changes, for planning one again if it moved during apply.
   */
  desired: Map<string, DesiredContract>;
}

/**
 * Reads and plans every file, each as soon as its live contract arrives; live contracts are not
 * kept beyond their own change (except those apply will patch), so memory stays bounded by the
 * contract files, not by the catalog's answers.
 */
export async function planContracts(
  files: readonly ContractFile[],
  reader: CatalogReader,
  options: ReadOptions & PlanOptions & { keepLive?: boolean } = {},
): Promise<PlannedContracts> {
  const { read } = startReading(files, reader, options);
  const codec = options.codec ?? specCodec;
  const liveForUpdates = new Map<string, LiveContract>();
  const desired = new Map<string, DesiredContract>();
  // A bounded pool rather than one promise per file: what is in flight (answers, live contracts)
  // stays a few dozen contracts, however many files there are.
  const changes = new Array<PlannedChange>(files.length);
  const planOne = async (index: number): Promise<void> => {
    const file = files[index]!;
    const input = await read(file);
    const change = planChange(input, options);
    changes[index] = change;
    const fqn = change.fullyQualifiedName;
    if (options.keepLive === true && (change.action === 'update' || change.action === 'create')) {
      desired.set(fqn, codec.toWire(file.contract));
      if (change.action === 'update' && input.live.kind === 'found')
        liveForUpdates.set(fqn, input.live.contract as LiveContract);
    }
    // What is left to do with the file (a finding, an annotation) reads it again.
    file.release?.();
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) await planOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, files.length) }, worker));
  return { changes, liveForUpdates, desired };
}
