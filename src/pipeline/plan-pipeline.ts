// From contract files to a plan: load and validate every file (nothing is sent if any is
// invalid), read the live contracts, make the plan. Shared by the CLI and the GitHub Action.
import path from 'node:path';
import type { LiveContract } from '../catalog/client.js';
import { loadContracts, type LoadOptions } from '../contract/load.js';
import type { DesiredContract } from '../contract/model.js';
import type { ContractFile } from '../contract/parse.js';
import type { Problem } from '../contract/problem.js';
import { assemblePlan } from '../plan/create-plan.js';
import { planContracts, type CatalogReader } from '../plan/read-plan-inputs.js';
import type { AssetRules } from '../plan/asset-rules.js';
import type { Plan } from '../plan/types.js';
import { codecFor, type Codec } from '../profile/codec.js';
import { PROFILES, resolveCatalog, type Profile, type ProfileSetting } from '../profile/profile.js';
import { FileFeed } from '../plan/file-feed.js';
import type { ProgressHooks } from '../progress.js';
import type { PolicyCheck } from '../policy/policies.js';
import { storageProblemsIn } from './storage-problems.js';
import { ConfigError } from '../errors.js';
import { customPropertyLookup } from '../plan/custom-properties.js';
import { markingFor } from '../prune/marker.js';
import { planDeletions } from '../prune/plan-deletions.js';
import { consumerImpact, DEFAULT_IMPACT_DEPTH } from '../impact/consumers.js';
import type { Repository } from '../prune/repository.js';
import type { PruneWithin } from '../prune/scope.js';

export interface PlanRequest {
  paths: readonly string[];
  cwd: string;
  catalogUrl: string;
  /** The commit the files are from, or the promise of it: git is asked while the files load. */
  gitCommit: string | null | Promise<string | null>;
  /** Plan only these files (absolute paths), e.g. those changed since a git ref; all are validated. */
  only?: ReadonlySet<string>;
  progress?: ProgressHooks;
  now?: () => Date;
  /** Live-asset warnings are errors. */
  strict?: boolean;
  /** Keep the live contracts of changed contracts, to apply the plan straight away. */
  keepLive?: boolean;
  /**
   * Hash the live contracts read (default true): a plan saved, printed as JSON or applied is
   * checked against them; one only shown needs none (PlanOptions.sealed).
   */
  sealed?: boolean;
  /** The catalog profile (`auto`, the default, asks the catalog). */
  profile?: ProfileSetting;
  /** The team's policies, checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /**
   * The repository the files are in (or the promise of it: git is asked while the files load):
   * each contract created or changed is marked as managed by its file there. None: not marked.
   */
  repository?: Repository | undefined | Promise<Repository | undefined>;
  /**
   * `--prune`: also plan the deletion of the contracts this repository manages whose files are
   * gone; `within`, the files a change deleted or changed (absolute), limits it to theirs.
   */
  prune?: PruneWithin;
  /** How many levels of lineage name the consumers of a breaking change (default 2). */
  impactDepth?: number;
  /** Look the consumers of breaking changes up (default true; a saved plan's check need not). */
  consumers?: boolean;
}

export type PlanOutcome =
  | { ok: false; problems: Problem[]; fileCount: number }
  | {
      ok: true;
      plan: Plan;
      files: ContractFile[];
      liveContracts: Map<string, LiveContract>;
      /** With keepLive, the desired contracts of the changes to apply, in the wire shape. */
      desired: Map<string, DesiredContract>;
      /** The connected catalog's codec. */
      codec: Codec;
      /** The data asset rules the plan weighed (OpenMetadata), for apply's second planning. */
      assetRules?: AssetRules;
      /** With prune: the contracts deleted files named that another repository manages, said. */
      keptForOthers: string[];
    };

/**
 * The loader's `onValid` for a plan: each file found valid is handed to `feed`, unless `keep`
 * leaves it out or the connected catalog's profile cannot store it (such a file, an ODCS file that
 * names no catalog asset among them, ends the run with its problems, and its contract is never
 * read). Files found before the catalog has named its profile wait until it has.
 */
function feeding(
  feed: FileFeed,
  connecting: Promise<{ profile: Profile }>,
  keep: (file: ContractFile) => boolean,
): NonNullable<LoadOptions['onValid']> {
  let profile: Profile | undefined;
  const waiting: [ContractFile, number, readonly Profile[]][] = [];
  const hand = (file: ContractFile, place: number, unstorableIn: readonly Profile[]): void => {
    if (!feed.closed && !unstorableIn.includes(profile!)) feed.push(file, place);
  };
  connecting.then(
    (connected) => {
      profile = connected.profile;
      for (const item of waiting.splice(0)) hand(...item);
    },
    () => undefined,
  );
  return (file, place, unstorableIn) => {
    if (!keep(file)) return;
    if (profile === undefined) waiting.push([file, place, unstorableIn]);
    else hand(file, place, unstorableIn);
  };
}

export async function planFromFiles(
  request: PlanRequest,
  reader: CatalogReader,
): Promise<PlanOutcome> {
  // Which files hold what each profile the catalog may speak cannot store is found while each
  // file's contract is in memory; once every file is valid, the catalog's answer picks a profile,
  // and only its files are read again to say what and where.
  const setting = request.profile ?? 'auto';
  // The catalog is asked what it is while the files load, and each file's live contract is read
  // as soon as the file is found valid: reads only. The plan is made, and anything written, only
  // once every file is valid; an invalid file ends the run with the files' problems alone, and
  // stops the reads (test/overlap.test.ts).
  const connected = resolveCatalog(setting, reader);
  connected.catch(() => undefined);
  // The preflight and the profile's question go out together; the preflight's verdict (a wrong
  // address, a refused token) is the one said.
  const connecting = (async () => {
    await reader.preflight?.();
    return await connected;
  })();
  connecting.catch(() => undefined);
  const only = request.only;
  const planned = (file: ContractFile): boolean =>
    only === undefined || only.has(path.resolve(request.cwd, file.file));
  const feed = new FileFeed();
  // Made before planning starts: the files found before the catalog names its profile are handed
  // over as soon as it does, before any is read.
  const onValid = feeding(feed, connecting, planned);
  const planning = (async () => {
    const { profile, release } = await connecting;
    const repository = await request.repository;
    const marking =
      repository === undefined ? undefined : markingFor(repository, request.cwd, profile, reader);
    const planned = await planContracts(feed, reader, {
      codec: codecFor(profile, release),
      ...(request.progress === undefined ? {} : { progress: request.progress }),
      strict: request.strict === true,
      keepLive: request.keepLive === true,
      sealed: request.sealed !== false,
      ...(request.policies === undefined ? {} : { policies: request.policies }),
      ...(marking === undefined ? {} : { marking }),
    });
    return { ...planned, marking };
  })();
  planning.catch(() => undefined);
  // Whatever ends the run before every file is found valid and storable stops the reads (abort
  // is a no-op once the feed is closed).
  try {
    const loaded = await loadContracts(request.paths, request.cwd, {
      unstorableIn: setting === 'auto' ? PROFILES : [setting],
      onValid,
      // A contract the catalog holds as the file says is then planned without reading it again
      // (only the files planned need it).
      valueDigests: only ?? true,
    });
    if (loaded.problems.length > 0)
      return { ok: false, problems: loaded.problems, fileCount: loaded.fileCount };
    const files = only === undefined ? loaded.files : loaded.files.filter(planned);
    // What the connected catalog cannot store is a problem of the file, before any plan is made.
    const { profile, release } = await connecting;
    const codec = codecFor(profile, release);
    const problems = storageProblemsIn(loaded, codec.profile);
    if (problems.length > 0) return { ok: false, problems, fileCount: loaded.fileCount };
    const repository = await request.repository;
    if (request.prune !== undefined && repository === undefined)
      throw new ConfigError(
        '--prune needs to know which repository manages the contracts, and this directory is in no git checkout with an origin remote: run it in a clone of the repository (or in GitHub Actions); nothing was planned',
      );
    request.progress?.total?.(files.length);
    feed.close();
    const { changes, liveForUpdates, desired, assetRules, marking } = await planning;
    let keptForOthers: string[] = [];
    const assets = new Map(
      loaded.files.map((file) => [file.identity.fullyQualifiedName, file.identity.entity]),
    );
    if (request.prune !== undefined && repository !== undefined && marking !== undefined) {
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
          declared: new Set(loaded.files.map((file) => file.identity.fullyQualifiedName)),
          ...(request.prune.within === undefined ? {} : { within: request.prune.within }),
        },
        request.prune.deletedNames,
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
    const plan = assemblePlan(changes, {
      catalogUrl: request.catalogUrl,
      catalogProfile: codec.profile,
      gitCommit: await request.gitCommit,
      createdAt: (request.now?.() ?? new Date()).toISOString(),
      ...(impact === undefined ? {} : { impact }),
    });
    return {
      ok: true,
      plan,
      files,
      liveContracts: liveForUpdates,
      desired,
      codec,
      ...(assetRules === undefined ? {} : { assetRules }),
      keptForOthers,
    };
  } finally {
    feed.abort();
  }
}
