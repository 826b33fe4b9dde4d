// The pipeline's first seam: contract files → parsed, validated, storable by the connected catalog.
// Behind it, the loader's threads (read/load.ts) and the overlap with the next seam: each file
// found valid is handed on at once, through `valid`, so that its live contract is read while the
// rest still load (read-live.ts). Nothing is decided from the files handed on until every file is
// valid (`commit`); an invalid file ends the run with the files' problems alone, and stops the
// reads (`stop`; test/overlap.test.ts).
import path from 'node:path';
import { loadContracts, type LoadedContracts, type LoadOptions } from '../read/load.js';
import type { ContractFile } from '../contract/parse.js';
import type { Problem } from '../model/problem.js';
import { FileFeed } from '../read/file-feed.js';
import { codecFor, type Codec } from '../profile/codec.js';
import { PROFILES, type Profile } from '../model/profile.js';
import type { ConnectedCatalog } from '../profile/profile.js';
import type { PlanRequest } from './plan-request.js';
import { storageProblemsIn } from './storage-problems.js';

/** The files' problems, which end the run before anything is planned. */
export interface Refused {
  ok: false;
  problems: Problem[];
  fileCount: number;
}

/** Every file valid and storable: the files, and the codec of the catalog connected to. */
export interface LoadedFiles {
  ok: true;
  loaded: LoadedContracts;
  /** The files planned (`only`'s, when given), in path order. */
  files: ContractFile[];
  codec: Codec;
}

export interface FileLoading {
  /** The files planned, each handed on as soon as it is found valid and storable. */
  readonly valid: FileFeed;
  /** Every file loaded and checked: refused with the problems, or loaded. */
  readonly done: Promise<Refused | LoadedFiles>;
  /** Every file is valid and the run goes on: what was handed on may now be planned. */
  commit(): void;
  /** How many files are to be planned, known once the files are found (0 when none were). */
  readonly planned: Promise<number>;
  /** The run ends early: nothing more is read for the files handed on (no-op after `commit`). */
  stop(): void;
}

/**
 * The loader's `onValid` for a plan: each file found valid is handed to `feed`, unless `keep`
 * leaves it out or the connected catalog's profile cannot store it (such a file, an ODCS file that
 * names no catalog asset among them, ends the run with its problems, and its contract is never
 * read). Files found before the catalog has named its profile wait until it has.
 */
function feeding(
  feed: FileFeed,
  catalog: Promise<ConnectedCatalog>,
  keep: (file: ContractFile) => boolean,
): NonNullable<LoadOptions['onValid']> {
  let profile: Profile | undefined;
  const waiting: [ContractFile, number, readonly Profile[]][] = [];
  const hand = (file: ContractFile, place: number, unstorableIn: readonly Profile[]): void => {
    if (!feed.closed && !unstorableIn.includes(profile!)) feed.push(file, place);
  };
  catalog.then(
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

/**
 * Loads and validates the files of `request`, and checks them against what the catalog (asked
 * while they load) can store. Which files hold what each profile the catalog may speak cannot
 * store is found while each file's contract is in memory; once every file is valid, the catalog's
 * answer picks a profile, and only its files are read again to say what and where.
 */
export function loadFiles(request: PlanRequest, catalog: Promise<ConnectedCatalog>): FileLoading {
  const setting = request.profile ?? 'auto';
  const only = request.only;
  const planned = (file: ContractFile): boolean =>
    only === undefined || only.has(path.resolve(request.cwd, file.file));
  const valid = new FileFeed();
  // Made before the reads start: the files found before the catalog names its profile are handed
  // over as soon as it does, before any is read.
  const onValid = feeding(valid, catalog, planned);
  let found!: (count: number) => void;
  const plannedCount = new Promise<number>((resolve) => {
    found = resolve;
  });
  const done = (async (): Promise<Refused | LoadedFiles> => {
    const loaded = await loadContracts(request.paths, request.cwd, {
      onFound: (files) => {
        found(only === undefined ? files.length : files.filter((file) => only.has(file)).length);
      },
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
    const { profile, release } = await catalog;
    const codec = codecFor(profile, release);
    const problems = storageProblemsIn(loaded, codec.profile, codec);
    if (problems.length > 0) return { ok: false, problems, fileCount: loaded.fileCount };
    return { ok: true, loaded, files, codec };
  })();
  // Resolved before any file is read; 0 when the files could not even be found.
  done.then(
    () => found(0),
    () => found(0),
  );
  return {
    valid,
    done,
    planned: plannedCount,
    commit: () => valid.close(),
    stop: () => valid.abort(),
  };
}
