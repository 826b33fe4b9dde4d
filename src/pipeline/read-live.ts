// The pipeline's second seam: the catalog → what the plan weighs against. The catalog is asked
// what it is while the files load (connectCatalog); each file's live contract is read as soon as
// the file is found valid, and its change made by the planner as it arrives, through a bounded
// pool that parks the contracts read before the asset lookups are in (read/read-plan-inputs.ts):
// what is held stays bounded by what is in flight, not by the number of files. Once every file is
// valid, the deletions `--prune` plans and the consumers of breaking changes are read too. Reads
// only: nothing is written, and a run stopped early (load-files.ts) reads no more.
import path from 'node:path';
import type { LiveContract } from '../catalog/client.js';
import type { ContractFile } from '../contract/parse.js';
import type { DesiredContract } from '../model/contract.js';
import { ConfigError } from '../model/errors.js';
import { consumerImpact, DEFAULT_IMPACT_DEPTH } from '../impact/consumers.js';
import type { AssetRules } from '../plan/asset-rules.js';
import { customPropertyLookup } from '../plan/custom-properties.js';
import type { FileFeed } from '../read/file-feed.js';
import { readAndPlanEach, type CatalogReader } from '../read/read-plan-inputs.js';
import { liveReads } from '../read/live-reads.js';
import { listedEtag } from '../catalog/etag.js';
import type { PlanImpact, PlannedChange } from '../plan/types.js';
import { codecFor } from '../profile/codec.js';
import { resolveCatalog, type ConnectedCatalog } from '../profile/profile.js';
import { markingFor } from '../read/marker.js';
import { planDeletions } from '../prune/plan-deletions.js';
import { findOrphans, type Orphans } from '../prune/orphans.js';
import { isRepository, type NoRepository, type Repository } from '../git/repository.js';
import type { PlanRequest } from './plan-request.js';

/**
 * The catalog's preflight and its profile's question, sent together; the preflight's verdict (a
 * wrong address, a refused token) is the one said.
 */
export function connectCatalog(
  request: PlanRequest,
  reader: CatalogReader,
): Promise<ConnectedCatalog> {
  const connected = resolveCatalog(request.profile ?? 'auto', reader);
  connected.catch(() => undefined);
  const connecting = (async () => {
    await reader.preflight?.();
    return await connected;
  })();
  connecting.catch(() => undefined);
  return connecting;
}

/** What was read and the changes made of it, in path order. */
export interface LiveRead {
  /** One change per file planned, then the deletions `--prune` planned. */
  changes: PlannedChange[];
  /** With keepLive, the live contracts of the `update` changes. */
  liveForUpdates: Map<string, LiveContract>;
  /** With keepLive, the desired contracts of the changes to apply, in the wire shape. */
  desired: Map<string, DesiredContract>;
  assetRules?: AssetRules;
  /** Who each breaking change reaches, by the catalog's lineage. */
  impact?: PlanImpact;
  /** With prune: the contracts deleted files named that another repository manages. */
  keptForOthers: string[];
  /** With orphans: the contracts this repository manages whose files are gone. */
  orphans?: Orphans;
  /** What the run says of its reading, once (live contracts read by name for want of a list). */
  notes: readonly string[];
}

export interface LiveReading {
  /**
   * Once the files' feed is committed (every file valid): the change of each file planned, then
   * the deletions and the consumers; `all` are the valid files, planned or not (what a prune keeps
   * and whose assets the consumers are looked up by). Never asked of a run stopped early.
   */
  finish(all: readonly ContractFile[]): Promise<LiveRead>;
}

/**
 * Starts reading the live contracts of the files `valid` hands on, as they arrive; `planned`, how
 * many files are planned, known once they are found, lets the reader choose pages or names.
 */
export function readLive(
  valid: FileFeed,
  catalog: Promise<ConnectedCatalog>,
  request: PlanRequest,
  reader: CatalogReader,
  planned: Promise<number>,
): LiveReading {
  const planning = (async () => {
    const { profile, release } = await catalog;
    const codec = codecFor(profile, release);
    // Apply sends If-Match from what it keeps: a contract read from the list gets the ETag a read
    // by name would have given. Pull keeps them to write files, and reads as a plan does.
    const live = liveReads(
      reader,
      planned,
      request.liveReads ?? 'auto',
      request.keepLive === true ? (contract) => listedEtag(contract, codec) : undefined,
      // `--prune` lists every contract for their markers: the reader's walk of the list, whole,
      // serves it too.
      { names: request.prune !== undefined },
    );
    // Once every file is known, only their contracts are kept of the list.
    valid.complete.then(
      (files) => live.onlyFor?.(new Set(files.map((file) => file.identity.fullyQualifiedName))),
      () => undefined,
    );
    const checkout = await request.repository;
    const repository = isRepository(checkout) ? checkout : undefined;
    const marking =
      checkout === undefined ? undefined : markingFor(checkout, request.cwd, profile, reader);
    const read = await readAndPlanEach(valid, reader, {
      codec,
      ...(request.progress === undefined ? {} : { progress: request.progress }),
      strict: request.strict === true,
      keepLive: request.keepLive === true || request.keepLive === 'without-etags',
      live,
      sealed: request.sealed !== false,
      ...(request.policies === undefined ? {} : { policies: request.policies }),
      ...(marking === undefined ? {} : { marking }),
    });
    return { ...read, notes: live.notes, marking, profile, repository, live };
  })();
  planning.catch(() => undefined);
  return {
    finish: async (all) => {
      const {
        changes,
        liveForUpdates,
        desired,
        assetRules,
        notes,
        marking,
        profile,
        repository,
        live,
      } = await planning;
      let keptForOthers: string[] = [];
      const assets = new Map(
        all.map((file) => [file.identity.fullyQualifiedName, file.identity.entity]),
      );
      const prune = request.prune;
      if (prune !== undefined && repository !== undefined && marking !== undefined) {
        const unavailable = await marking.unavailable(
          profile === 'openmetadata' ? customPropertyLookup(reader) : undefined,
        );
        if (unavailable !== undefined)
          throw new ConfigError(
            `--prune cannot tell which contracts this repository manages: ${unavailable}; nothing was planned`,
          );
        const pruned = await planDeletions(
          reader,
          {
            repository,
            cwd: request.cwd,
            roots: request.paths.map((given) => path.resolve(request.cwd, given)),
            declared: new Set(all.map((file) => file.identity.fullyQualifiedName)),
            read: new Set(all.map((file) => path.resolve(request.cwd, file.file))),
            ...(prune.within === undefined ? {} : { within: prune.within }),
          },
          prune.deletedNames,
          await live.listed?.everyListed(),
        );
        changes.push(...pruned.changes);
        for (const [fqn, asset] of pruned.assets) assets.set(fqn, asset);
        keptForOthers = pruned.keptForOthers;
      }
      // Who each breaking change reaches, by the catalog's lineage (asked only when there is one).
      const impact =
        request.consumers === false
          ? undefined
          : await consumerImpact(changes, reader, {
              profile,
              depth: request.impactDepth ?? DEFAULT_IMPACT_DEPTH,
              assetOf: (fqn) => assets.get(fqn),
            });
      // A plain plan: the contracts this repository manages whose files are gone, where the
      // catalog keeps markers.
      const orphans =
        request.orphans === true && prune === undefined && repository !== undefined
          ? await orphansOf(all, { reader, repository, marking, profile, request })
          : undefined;
      return {
        changes,
        liveForUpdates,
        desired,
        ...(assetRules === undefined ? {} : { assetRules }),
        ...(impact === undefined ? {} : { impact }),
        keptForOthers,
        ...(orphans === undefined ? {} : { orphans }),
        notes,
      };
    },
  };
}

/** The orphans of a plain plan (prune/orphans.ts); undefined where the catalog keeps no marker. */
async function orphansOf(
  all: readonly ContractFile[],
  run: {
    reader: CatalogReader;
    repository: Repository;
    marking: ReturnType<typeof markingFor> | undefined;
    profile: ConnectedCatalog['profile'];
    request: PlanRequest;
  },
): Promise<Orphans | undefined> {
  const { reader, repository, marking, profile, request } = run;
  const unavailable = await marking?.unavailable(
    profile === 'openmetadata' ? customPropertyLookup(reader) : undefined,
  );
  if (marking === undefined || unavailable !== undefined) return undefined;
  return findOrphans(reader, repository, {
    cwd: request.cwd,
    roots: request.paths.map((given) => path.resolve(request.cwd, given)),
    declared: new Set(all.map((file) => file.identity.fullyQualifiedName)),
    read: new Set(all.map((file) => path.resolve(request.cwd, file.file))),
  });
}

/** Whether `--prune` can run: it needs the repository that manages the contracts. */
export function checkPruneable(
  request: PlanRequest,
  checkout: Repository | NoRepository | undefined,
): void {
  if (request.prune !== undefined && !isRepository(checkout))
    throw new ConfigError(
      `--prune needs to know which repository manages the contracts, and ${checkout === undefined ? 'this directory is in no git checkout with an origin remote' : checkout.none}: run it in a clone of the repository (or in GitHub Actions); nothing was planned`,
    );
}
