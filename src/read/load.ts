// Reads contract files from disk: expands paths, loads every file (many files in two threads),
// and checks what no single file can see (two files for one contract, two contracts for one
// asset).
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../model/errors.js';
import type { Profile } from '../model/profile.js';
import { startThread } from '../support/threads.js';
import { largeLoad } from '../support/heap.js';
import {
  chunkCount,
  chunkStart,
  loadChunk,
  loadChunks,
  StoredContractFile,
  type FileLoad,
  type LoadWork,
} from './load-file.js';
import { positionOf, type ContractFile } from '../contract/parse.js';
import type { Problem } from '../model/problem.js';
import { boundsOf, refusalOf, type Bounds } from '../settings/within-repository.js';

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);
/** The names of contract files. */
const CONTRACT_FILE_NAME = /\.ya?ml$/i;

/**
 * Whether `relative`, a path below a directory given as PATH, is one a walk of that directory
 * takes as a contract file (for files that are no longer there to walk: deleted ones).
 */
export function isContractFilePath(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  return (
    CONTRACT_FILE_NAME.test(parts[parts.length - 1]!) &&
    !parts.slice(0, -1).some((part) => SKIPPED_DIRECTORIES.has(part))
  );
}

/**
 * How each file is shown: relative to `cwd` when below it, else absolute; with forward slashes.
 * The files are absolute and normalized, so one below `cwd` is what follows `cwd` in its path,
 * as path.relative would say it, for a fraction of its cost.
 */
function displayPaths(cwd: string, files: readonly string[]): string[] {
  const base = path.resolve(cwd);
  const below = base.endsWith(path.sep) ? base : `${base}${path.sep}`;
  return files.map((absolute) => {
    const shown = absolute.startsWith(below) ? absolute.slice(below.length) : absolute;
    return path.sep === '/' ? shown : shown.split(path.sep).join('/');
  });
}

/** A path not read: outside the repository or in .git (within-repository.ts), as shown. */
interface Refused {
  file: string;
  message: string;
}

/** What a walk finds: contract files (absolute), and the paths it refused to read. */
interface Found {
  files: string[];
  refused: Refused[];
  bounds: Bounds;
  cwd: string;
}

/**
 * Adds the contract files below `directory` (absolute and normalized) to `found`. Symbolic links
 * are followed, to a file or a directory (each directory once, so a link loop ends); a link to
 * nothing that names a contract file is an error, never skipped silently; a link that leads out
 * of the repository or into .git, to a contract file or a directory, is refused, never followed.
 */
async function walk(directory: string, found: Found, seen: Set<string>): Promise<void> {
  const real = await realpath(directory);
  if (seen.has(real)) return;
  seen.add(real);
  const entries = await readdir(directory, { withFileTypes: true });
  // `directory` is absolute and normalized, so joining by hand is path.join's result, for a tenth
  // of its cost (10,000 entries: 2 ms against 25 ms).
  const parent = directory.endsWith(path.sep) ? directory : `${directory}${path.sep}`;
  for (const entry of entries) {
    const full = `${parent}${entry.name}`;
    const contractName = CONTRACT_FILE_NAME.test(entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await stat(full).catch(() => undefined);
      if (target === undefined) {
        if (contractName)
          throw new ConfigError(
            `${full} is a symbolic link to a file that does not exist; fix or remove the link`,
          );
        continue;
      }
      isDirectory = target.isDirectory();
      isFile = target.isFile();
      if (!isDirectory && !(isFile && contractName)) continue;
      const refusal = refusalOf(full, found.bounds, true);
      if (refusal !== undefined) {
        found.refused.push({ file: displayPaths(found.cwd, [full])[0]!, message: refusal });
        continue;
      }
    }
    if (isDirectory) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(full, found, seen);
    } else if (isFile && contractName) {
      found.files.push(full);
    }
  }
}

/**
 * Expands PATH arguments to contract files: a directory means every *.yaml / *.yml below it,
 * a file is taken as given; a path that leads out of the repository or into .git is refused,
 * before anything is read. Files are absolute, sorted, without repeats.
 */
async function expandPaths(paths: readonly string[], cwd: string): Promise<Found> {
  const found: Found = { files: [], refused: [], bounds: boundsOf(cwd), cwd };
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    let info;
    try {
      info = await stat(absolute);
    } catch {
      // Run from inside the contracts folder, the default path names a folder below it.
      const inside = path.basename(cwd) === given.replace(/\/+$/, '');
      throw new ConfigError(
        `${given}: no such file or directory${inside ? ` here, and this folder is itself named ${path.basename(cwd)}: run from the folder above it, or name the files (\`.\` for all of them)` : ''}`,
      );
    }
    const refusal = refusalOf(absolute, found.bounds);
    if (refusal !== undefined) {
      found.refused.push({ file: given.split(path.sep).join('/'), message: refusal });
      continue;
    }
    if (info.isDirectory()) await walk(absolute, found, new Set());
    else if (info.isFile()) found.files.push(absolute);
    else throw new ConfigError(`${given}: not a regular file or directory`);
  }
  // By UTF-16 code units, as `<` compares.
  found.files = [...new Set(found.files)].sort();
  return found;
}

/**
 * Expands PATH arguments to contract files (see expandPaths): absolute paths, sorted, without
 * repeats; a ConfigError for a path that leads out of the repository or into .git.
 */
export async function findContractFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const found = await expandPaths(paths, cwd);
  const first = found.refused[0];
  if (first !== undefined) throw new ConfigError(`${first.file}: ${first.message}`);
  return found.files;
}

export interface LoadedContracts {
  /** Files that loaded and validated, in path order. */
  files: ContractFile[];
  /** Every problem of every file, and the cross-file ones. */
  problems: Problem[];
  /** How many files were read. */
  fileCount: number;
  /** For each profile asked about (LoadOptions.unstorableIn), the valid files it cannot store. */
  unstorable: Map<Profile, Set<string>>;
  /** How many of the files the second thread loaded (0 when it did not start or took none). */
  loadedBySecondThread: number;
}

export interface LoadOptions {
  /**
   * Profiles whose codec is asked, while each valid file's contract is in memory, whether it can
   * store it: what would otherwise read every file again.
   */
  unstorableIn?: readonly Profile[];
  /**
   * Told of each file as soon as it is found valid (in the order the files are loaded, with its
   * index in path order), while the rest still load: this thread then has other work to run (the
   * files' reads and plans), and lets it run between the chunks it loads, or, where a second
   * thread loads, loads none itself (see loadAll). A file told of may still turn out to clash with another (the same
   * contract twice): the result's problems are what counts. `unstorableIn`: the profiles asked
   * about (unstorableIn above) that cannot store its contract.
   */
  onValid?: (file: ContractFile, place: number, unstorableIn: readonly Profile[]) => void;
  /**
   * Keep each valid file's contract digest (contract/value-digest.ts): what lets a plan take a
   * contract the catalog already holds for the file's without reading the file again. A set: only
   * for those files (absolute paths), the ones a plan of some of the files plans.
   */
  valueDigests?: boolean | ReadonlySet<string>;
  /** Told, before any is read, of the contract files found (absolute paths). */
  onFound?: (files: readonly string[]) => void;
}

/**
 * From this many files on, a second thread loads beside this one (in a plan, instead of it: see
 * loadAll): starting it costs about what loading a thousand files does here, so it takes part
 * only in larger loads.
 */
const SECOND_THREAD_FROM = 1000;

/**
 * Loads the files of `work`, in this thread and, for many files, in a second one: both take
 * chunks from the counter they share. A second thread that took no chunk by the time this one is
 * done (it was still starting) is stopped, not waited for. Chunks it took but never handed back
 * (it could not start, or stopped) are loaded here, so its failing costs time, never a file.
 *
 * `yielding`: this thread has other work while the files load (a plan reads and plans each file
 * found valid). Then, where a second thread loads, this one loads nothing itself (unless that
 * thread fails): loading here too made a plan of 10,000 files spend more CPU, not less time. This
 * thread's share of the files, its other work run between chunks, and the loader's code made hot
 * (and compiled) in both threads came to 0.4 to 0.6 s more CPU in 9 (medians of alternating runs
 * against the sandbox), for the same time or longer.
 */
async function loadAll(
  work: LoadWork,
  loaded: (chunk: number, results: FileLoad[]) => void,
  yielding: boolean,
): Promise<{ loads: FileLoad[]; bySecondThread: number }> {
  const results = new Array<FileLoad[] | undefined>(chunkCount(work));
  let bySecondThread = 0;
  const take = (chunk: number, loads: FileLoad[]): void => {
    results[chunk] = loads;
    loaded(chunk, loads);
  };
  const thread =
    work.absolute.length >= SECOND_THREAD_FROM
      ? startThread(import.meta.url, 'load-thread.ts', { workerData: work })
      : undefined;
  const helped = new Promise<void>((resolve) => {
    if (thread === undefined) return resolve();
    thread.on('message', ({ chunk, results: loads }: { chunk: number; results: FileLoad[] }) => {
      take(chunk, loads);
      bySecondThread += loads.length;
    });
    thread.once('exit', () => resolve());
    // An error ends the thread too ('exit' follows); its chunks are loaded below.
    thread.on('error', () => undefined);
  });
  let here = 0;
  const done = (chunk: number, loads: FileLoad[]): void => {
    take(chunk, loads);
    here += 1;
  };
  if (thread === undefined || !yielding)
    await loadChunks(
      work,
      done,
      yielding ? () => new Promise<void>((resolve) => setImmediate(resolve)) : undefined,
    );
  if (here === results.length) void thread?.terminate();
  else await helped;
  // The chunks a thread took and never handed back are loaded here.
  for (let chunk = 0; chunk < results.length; chunk++)
    if (results[chunk] === undefined) take(chunk, loadChunk(work, chunk));
  return { loads: results.flat() as FileLoad[], bySecondThread };
}

/** Problems that involve two files: a repeated contract FQN, or two contracts for one asset. */
export function crossFileProblems(files: readonly ContractFile[]): Problem[] {
  const problems: Problem[] = [];
  const byFqn = new Map<string, ContractFile>();
  const byEntity = new Map<string, ContractFile>();
  for (const file of files) {
    // An ODCS file that names no asset is refused when planned; it names nothing to compare.
    if (file.unnamed !== undefined) continue;
    const fqn = file.identity.fullyQualifiedName;
    const earlier = byFqn.get(fqn);
    if (earlier === undefined) byFqn.set(fqn, file);
    else {
      const here = positionOf(file, '/fullyQualifiedName');
      const there = positionOf(earlier, '/fullyQualifiedName');
      problems.push({
        file: file.file,
        line: here.line,
        column: here.column,
        path: 'fullyQualifiedName',
        message: `fullyQualifiedName '${fqn}' is also used by ${earlier.file}:${there.line}:${there.column}; keep each contract in exactly one file`,
      });
    }
    const entity = file.identity.entity;
    const entityKey = `${entity.type}\u0000${entity.fullyQualifiedName}`;
    const earlierEntity = byEntity.get(entityKey);
    if (earlierEntity === undefined) byEntity.set(entityKey, file);
    else if (earlierEntity.identity.fullyQualifiedName !== fqn) {
      const here = positionOf(file, '/entity');
      const there = positionOf(earlierEntity, '/entity');
      problems.push({
        file: file.file,
        line: here.line,
        column: here.column,
        path: 'entity',
        message: `entity ${entity.type} '${entity.fullyQualifiedName}' already has a contract in ${earlierEntity.file}:${there.line}:${there.column}; an asset has at most one contract`,
      });
    }
  }
  return problems;
}

/** `text`, or the equal string `seen` holds already. */
function interned(seen: Map<string, string>, text: string): string {
  const held = seen.get(text);
  if (held !== undefined) return held;
  seen.set(text, text);
  return text;
}

/** Loads every contract file under `paths`, in path order. */
export async function loadContracts(
  paths: readonly string[],
  cwd: string,
  options: LoadOptions = {},
): Promise<LoadedContracts> {
  const found = await expandPaths(paths, cwd);
  const absolute = found.files;
  options.onFound?.(absolute);
  // A load this large is a run that holds many contracts: the program may bound the heap for it
  // (support/heap.ts; never a library caller's process).
  if (absolute.length >= SECOND_THREAD_FROM) largeLoad();
  const profiles = options.unstorableIn ?? [];
  const shown = displayPaths(cwd, absolute);
  const fieldLists = new Map<string, string>();
  const digested = options.valueDigests;
  // Each valid file as kept, made once as its chunk comes in (and told of, when asked).
  const stored = new Array<ContractFile | undefined>(absolute.length);
  const { loads, bySecondThread } = await loadAll(
    {
      absolute,
      shown,
      profiles,
      valueDigests:
        typeof digested === 'object'
          ? absolute.map((file) => digested.has(file))
          : digested === true,
      next: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT),
    },
    (chunk, loads) => {
      const start = chunkStart(chunk);
      loads.forEach((loaded, offset) => {
        if (!loaded.ok) return;
        // Files of one repository mostly name the same fields: one string for each list.
        if (loaded.value !== undefined)
          loaded.value.fields = interned(fieldLists, loaded.value.fields);
        const i = start + offset;
        const file = new StoredContractFile(shown[i]!, absolute[i]!, loaded);
        stored[i] = file;
        options.onValid?.(file, i, loaded.unstorableIn);
      });
    },
    options.onValid !== undefined,
  );
  const files: ContractFile[] = [];
  // A path refused is a problem at it, never read: nothing of what it holds is said.
  const problems: Problem[] = found.refused.map(({ file, message }) => ({
    file,
    line: 1,
    column: 1,
    path: '',
    message,
  }));
  const unstorable = new Map(profiles.map((profile) => [profile, new Set<string>()]));
  loads.forEach((loaded, i) => {
    if (!loaded.ok) {
      for (const problem of loaded.problems) problems.push(problem);
      return;
    }
    const file = stored[i]!;
    files.push(file);
    for (const profile of loaded.unstorableIn) unstorable.get(profile)?.add(file.file);
  });
  for (const problem of crossFileProblems(files)) problems.push(problem);
  return {
    files,
    problems,
    fileCount: absolute.length + found.refused.length,
    unstorable,
    loadedBySecondThread: bySecondThread,
  };
}
