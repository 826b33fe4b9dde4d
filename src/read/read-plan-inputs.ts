// Reads what a plan needs from the catalog, for every file, a bounded number at once and as soon
// as the files arrive (contract-inputs.ts reads one file's); the plan of each is made by
// createPlan as its inputs are in.
import type { LiveContract } from '../catalog/client.js';
import type { DesiredContract } from '../model/contract.js';
import type { ContractFile } from '../contract/parse.js';
import { specCodec } from '../profile/codec.js';
import { planChange, type LiveResult, type PlanOptions } from '../plan/create-plan.js';
import type { PlannedChange } from '../plan/types.js';
import { referenceLookup } from './reference-ids.js';
import { catalogRules } from '../plan/catalog-rules.js';
import type { AssetRules } from '../plan/asset-rules.js';
import { withCreateDryRun } from '../plan/create-dry-run.js';
import type { AssetLookup } from './live-assets.js';

import type { CatalogReader } from '../catalog/catalog-reader.js';
import { FileFeed } from './file-feed.js';
import { ReadingOrder } from './reading-order.js';
import {
  checkAssets,
  readContractInputs,
  type CheckedAsset,
  type ReadOptions,
} from './contract-inputs.js';
import { byName, type LiveReads } from './live-reads.js';

export type { CatalogReader };
export { CONTRACT_FIELDS, type ReadOptions } from './contract-inputs.js';

/** Contracts read at once: enough to keep the reader's connections busy, few enough to stay small. */
const IN_FLIGHT = 64;
/**
 * Live contracts read before the asset lookups are all in, kept until they are: the reads go on
 * while the files load and the catalog lists tables, and a slow list cannot make memory grow
 * without bound. Two thousand (about 14 MB at 7 KB a contract) let plan read through the loading
 * of 10,000 files at +5 ms a request; one thousand ran out before it, and plan took 2% longer.
 * They are kept as the answers parsed into them: as JSON text they took as much of the heap
 * (10,000 of the bench's contracts: 63 MiB as text, 62 MiB as objects), and writing and parsing
 * the text again cost CPU.
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
export async function readAndPlanEach(
  files: readonly ContractFile[] | FileFeed,
  reader: CatalogReader,
  options: ReadOptions & PlanOptions & { keepLive?: boolean; live?: LiveReads } = {},
): Promise<PlannedContracts> {
  // The reader: by name unless the pipeline chose another (read/live-reads.ts).
  const reads = options.live ?? byName(reader);
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
    const input = await readContractInputs(
      feed.files[index]!,
      live,
      found,
      reader,
      references,
      rules,
      codec,
      options.marking,
    );
    const change = await withCreateDryRun(planChange(input, options), reader, codec, input.file);
    changes[index] = change;
    assetRules ??= input.assetRules;
    const fqn = change.fullyQualifiedName;
    if (options.keepLive === true && (change.action === 'update' || change.action === 'create')) {
      desired.set(fqn, codec.toWire(input.file.contract));
      if (change.action === 'update' && live.kind === 'found')
        liveForUpdates.set(fqn, live.contract as LiveContract);
    }
  };
  const parked: { index: number; live: LiveResult }[] = [];
  const planParked = async (found: Map<string, AssetLookup<CheckedAsset>>): Promise<void> => {
    // Another worker may have taken the last one while this one waited for the lookups.
    const item = parked.pop();
    if (item !== undefined) await planOne(item.index, item.live, found);
  };
  const order = new ReadingOrder(feed, reads);
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failed !== undefined) throw failed.error;
      if (feed.aborted) return;
      const next = order.take();
      if (next === 'wait') {
        await order.changed();
        continue;
      }
      if (next === 'none') {
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
      const index = next.index;
      const reading = reads.read(feed.files[index]!, options.progress);
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
        parked.push({ index, live });
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
