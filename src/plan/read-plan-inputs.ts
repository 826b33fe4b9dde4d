// Reads what a plan needs from the catalog: each file's live contract by FQN, and for a contract
// the catalog lacks, whether its asset inherits one from a data product. I/O only through the
// reader passed in; the plan itself is made by createPlan.
import type { LiveContract } from '../catalog/client.js';
import type { DesiredContract } from '../contract/model.js';
import { withContract, type ContractFile } from '../contract/parse.js';
import { fileForProfile, keptOnlyInGitOf } from '../odcs/odcs-file.js';
import { withVersionProperty } from '../gate/version-property.js';
import { keepingMarker, withMarker, type Marking } from '../prune/marker.js';
import { specCodec, type Codec } from '../profile/codec.js';
import type { Profile } from '../profile/profile.js';
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
import { lookUpReferences, referenceLookup, type ReferenceLookup } from './reference-ids.js';
import { catalogRules, ruleFindings, type CatalogRules } from './catalog-rules.js';
import type { AssetRules } from './asset-rules.js';
import { joinRefusals } from './refusal-text.js';
import { createBlocker, effectiveContractOf } from './create-blockers.js';
import { withCreateDryRun } from './create-dry-run.js';
import { assetKey, lookupAssets, type AssetLookup } from './live-assets.js';
import { dataProductNames } from './asset-document.js';
import {
  assetFields,
  columnFindings,
  nestedColumnsNote,
  type AssetColumns,
} from './asset-columns.js';

import type { CatalogReader } from './catalog-reader.js';
import { inheritanceNotes } from './inheritance-notes.js';
import { FileFeed } from './file-feed.js';
import { knownFromLive } from './known-from-live.js';
import { etagOf, withEtag } from '../catalog/etag.js';

export type { CatalogReader };

/** Fields a plan reads with each contract, so that owners, reviewers and extension can be managed. */
export const CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;

export interface ReadOptions {
  /** Told as each contract's read starts and ends. */
  progress?: ProgressHooks;
  /** Look the assets up in the search index (default true). */
  checkAssets?: boolean;
  /**
   * The repository the files are in, and where they are: each contract created or changed is
   * marked as managed by its file there (prune/marker.ts). None: contracts are not marked.
   */
  marking?: Marking;
}

type Found = LiveContract;

/**
 * What planning needs of a found asset, kept until its contract is read and planned: search
 * documents and listed tables do not stay in memory.
 */
interface CheckedAsset {
  id: string;
  products: string[];
  columns: AssetColumns | undefined;
  piiColumns: string[];
}

/** Looks every file's asset up, keeping of each what its contract's checks need. */
function checkAssets(
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
async function readLive(
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
async function planInput(
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
  const warnings: string[] = [];
  // What an ODCS file holds that the catalog does not store: said once for the file.
  const odcsOnly = file.format === 'odcs' ? keptOnlyInGitOf(file) : undefined;
  if (odcsOnly !== undefined) warnings.push(odcsOnly);
  let assetError: string | undefined;
  let assetId: string | undefined;
  let lackingColumns: PlanInput['lackingColumns'];
  let createBlocked: string | undefined;
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
      if (effective !== null && products.length === 1)
        notes.push(
          ...inheritanceNotes(
            file,
            read.kind === 'found' ? (read.contract as Found) : null,
            effective,
            products[0]!,
          ),
        );
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
    if (marker !== undefined) {
      const marked = withMarker(file, read, marker);
      file = marked.file;
      if (marked.warning !== undefined) warnings.push(marked.warning);
    } else file = keepingMarker(file, read);
  }
  const ruled: Partial<Awaited<ReturnType<typeof ruleFindings>>> =
    rules !== undefined && sendable ? await ruleFindings(file.contract, read, rules) : {};
  if (ruled.note !== undefined) notes.push(ruled.note);
  const refused = [unknownReference, ruled.error].filter((error) => error !== undefined);
  const referenceError = refused.length === 0 ? undefined : joinRefusals(refused);
  return {
    file,
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
  };
}

/**
 * A live contract parked until the lookups are in: as its JSON text and the ETag it was read with,
 * a few kilobytes of one string rather than the objects an answer parses into (several times
 * larger), while hundreds wait.
 */
type Parked =
  Exclude<LiveResult, { kind: 'found' }> | { kind: 'text'; text: string; etag?: string };

function parkedAs(live: LiveResult): Parked {
  if (live.kind !== 'found') return live;
  const etag = etagOf(live.contract);
  return {
    kind: 'text',
    text: JSON.stringify(live.contract),
    ...(etag === undefined ? {} : { etag }),
  };
}

function unparked(parked: Parked): LiveResult {
  if (parked.kind !== 'text') return parked;
  const contract = JSON.parse(parked.text) as LiveContract;
  return { kind: 'found', contract: withEtag(contract, parked.etag) };
}

/** Contracts read at once: enough to keep the reader's connections busy, few enough to stay small. */
const IN_FLIGHT = 64;
/**
 * Live contracts read before the asset lookups are all in, kept (as text) until they are: the reads
 * go on while the files load and the catalog lists tables, and a slow list cannot make memory grow
 * without bound. Two thousand (about 14 MB at 7 KB a contract) let plan read through the loading
 * of 10,000 files at +5 ms a request; one thousand ran out before it, and plan took 2% longer.
 */
const PARKED_AT_MOST = 2000;

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
  /** The data asset rules weighed (OpenMetadata), for weighing a change planned again in apply. */
  assetRules?: AssetRules;
}

/**
 * Reads and plans every file, each as soon as its live contract arrives (or, while the asset
 * lookups are out, as soon as they are in); neither a live contract nor a file's contract is kept
 * beyond its own change (except those apply will patch), so memory stays bounded by what is in
 * flight, not by the number of files. The files may be a feed that is still being loaded: reads
 * start as files arrive, the asset lookups once the feed closes (until then the contracts read
 * are parked), and a feed aborted stops the reads (what was planned is then thrown away).
 */
export async function planContracts(
  files: readonly ContractFile[] | FileFeed,
  reader: CatalogReader,
  options: ReadOptions & PlanOptions & { keepLive?: boolean } = {},
): Promise<PlannedContracts> {
  const feed = files instanceof FileFeed ? files : FileFeed.of(files);
  const codec = options.codec ?? specCodec;
  const assetsReady =
    (options.checkAssets ?? true)
      ? feed.complete.then((all) =>
          feed.aborted
            ? new Map<string, AssetLookup<CheckedAsset>>()
            : checkAssets(all, reader, codec.profile),
        )
      : Promise.resolve(new Map<string, AssetLookup<CheckedAsset>>());
  let assets: Map<string, AssetLookup<CheckedAsset>> | undefined;
  // The lookups' failure, or a worker's: the others then read no more.
  let failed: { error: unknown } | undefined;
  assetsReady.then(
    (found) => {
      assets = found;
    },
    (error: unknown) => {
      failed = { error };
    },
  );
  const references = codec.referencesById ? referenceLookup(reader) : undefined;
  // What an OpenMetadata catalog holds that a contract must keep to: asked once, when needed.
  const rules = codec.profile === 'openmetadata' ? catalogRules(reader) : undefined;
  const liveForUpdates = new Map<string, LiveContract>();
  const desired = new Map<string, DesiredContract>();
  let assetRules: AssetRules | undefined;
  // A bounded pool rather than one promise per file: what is in flight (answers, live contracts)
  // stays a few dozen contracts, and at most PARKED_AT_MOST more while the lookups are out.
  // One change per file, by its index in the feed (the order of arrival).
  const changes: PlannedChange[] = [];
  const planOne = async (
    index: number,
    live: LiveResult,
    found: Map<string, AssetLookup<CheckedAsset>>,
  ): Promise<void> => {
    const input = await planInput(
      feed.files[index]!,
      live,
      found,
      reader,
      references,
      rules,
      codec,
      options.marking,
    );
    const change = await withCreateDryRun(planChange(input, options), reader, codec);
    changes[index] = change;
    assetRules ??= input.assetRules;
    const fqn = change.fullyQualifiedName;
    if (options.keepLive === true && (change.action === 'update' || change.action === 'create')) {
      desired.set(fqn, codec.toWire(input.file.contract));
      if (change.action === 'update' && live.kind === 'found')
        liveForUpdates.set(fqn, live.contract as LiveContract);
    }
  };
  const parked: { index: number; live: Parked }[] = [];
  const planParked = async (found: Map<string, AssetLookup<CheckedAsset>>): Promise<void> => {
    // Another worker may have taken the last one while this one waited for the lookups.
    const item = parked.pop();
    if (item !== undefined) await planOne(item.index, unparked(item.live), found);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failed !== undefined) throw failed.error;
      if (feed.aborted) return;
      if (next >= feed.files.length) {
        // More files are on their way: wait for them (what is parked waits for the lookups).
        if (!feed.closed) {
          await feed.more();
          continue;
        }
        if (parked.length === 0) return;
        const found = assets ?? (await assetsReady);
        if (feed.aborted) return;
        await planParked(found);
        continue;
      }
      const index = next++;
      const reading = readLive(feed.files[index]!, reader, options.progress);
      // Once the lookups are in, each read that goes out plans one parked contract while it is
      // out: the parked ones are worked off without the reads pausing for them.
      if (assets !== undefined && parked.length > 0) {
        reading.catch(() => undefined); // awaited below; planning may throw first
        await planParked(assets);
      }
      const live = await reading;
      if (feed.aborted) return;
      // Kept while the lookups are out, so that the reads go on; planned at once after.
      if (assets === undefined && failed === undefined && parked.length < PARKED_AT_MOST) {
        parked.push({ index, live: parkedAs(live) });
        continue;
      }
      const found = assets ?? (await assetsReady);
      if (feed.aborted) return;
      await planOne(index, live, found);
    }
  };
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, () =>
      worker().catch((error: unknown) => {
        failed ??= { error };
        throw error;
      }),
    ),
  );
  return {
    changes: feed.aborted ? [] : feed.inPathOrder(changes),
    liveForUpdates,
    desired,
    ...(assetRules === undefined ? {} : { assetRules }),
  };
}
