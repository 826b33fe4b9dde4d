// What a plan of contract files is asked for: the files, the catalog, and the run's choices. Read
// by each of the pipeline's seams (load-files.ts, read-live.ts, decide.ts) and by plan-pipeline.ts.
import type { ProgressHooks } from '../support/progress.js';
import type { PolicyCheck } from '../policy/policies.js';
import type { ProfileSetting } from '../model/profile.js';
import type { NoRepository, Repository } from '../git/repository.js';
import type { PruneWithin } from '../prune/scope.js';
import type { LiveReadMode } from '../read/live-reads.js';

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
  /**
   * Keep the live contracts of changed contracts: `true` to apply the plan straight away (each
   * with the ETag a read by name gives, for If-Match); `without-etags` for what sends nothing
   * (pull).
   */
  keepLive?: boolean | 'without-etags';
  /**
   * How the live contracts are read (read/live-reads.ts): `auto` (the default) by the catalog's
   * list where its pages cost less than reads by name, else by name; one way only, for tests and
   * benchmarks. A contract read from the list for apply (keepLive true) gets the ETag a read by
   * name would have given (catalog/etag.ts, listedEtag).
   */
  liveReads?: LiveReadMode;
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
   * each contract created or changed is marked as managed by its file there. Why there is none: a
   * change says it. Undefined: not marked, nothing said.
   */
  repository?:
    Repository | NoRepository | undefined | Promise<Repository | NoRepository | undefined>;
  /**
   * `--prune`: also plan the deletion of the contracts this repository manages whose files are
   * gone; `within`, the files a change deleted or changed (absolute), limits it to theirs.
   */
  prune?: PruneWithin;
  /**
   * A plain plan (no --prune, every file): also name the contracts this repository manages whose
   * files are gone (prune/orphans.ts).
   */
  orphans?: boolean;
  /** How many levels of lineage name the consumers of a breaking change (default 2). */
  impactDepth?: number;
  /** Look the consumers of breaking changes up (default true; a saved plan's check need not). */
  consumers?: boolean;
}
