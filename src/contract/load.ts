// Reads contract files from disk: expands paths, loads every file, and checks what no single
// file can see (two files for one contract, two contracts for one asset).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { MAX_FILE_BYTES, parseContract, positionOf, type ContractFile } from './parse.js';
import type { Problem } from './problem.js';

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

function displayPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  const shown = relative === '' || relative.startsWith('..') ? absolute : relative;
  return shown.split(path.sep).join('/');
}

/**
 * Adds the contract files below `directory` to `found`. Symbolic links are followed, to a file
 * or a directory (each directory once, so a link loop ends); a link to nothing that names a
 * contract file is an error, never skipped silently.
 */
async function walk(directory: string, found: string[], seen: Set<string>): Promise<void> {
  const real = await realpath(directory);
  if (seen.has(real)) return;
  seen.add(real);
  const entries = await readdir(directory, { withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    const contractName = /\.ya?ml$/i.test(entry.name);
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
    }
    if (isDirectory) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(full, found, seen);
    } else if (isFile && contractName) {
      found.push(full);
    }
  }
}

/**
 * Expands PATH arguments to contract files: a directory means every *.yaml / *.yml below it,
 * a file is taken as given. Returns absolute paths, sorted, without repeats.
 */
export async function findContractFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    let info;
    try {
      info = await stat(absolute);
    } catch {
      throw new ConfigError(`${given}: no such file or directory`);
    }
    if (info.isDirectory()) await walk(absolute, found, new Set());
    else if (info.isFile()) found.push(absolute);
    else throw new ConfigError(`${given}: not a regular file or directory`);
  }
  return [...new Set(found)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export interface LoadedContracts {
  /** Files that loaded and validated, in path order. */
  files: ContractFile[];
  /** Every problem of every file, and the cross-file ones. */
  problems: Problem[];
  /** How many files were read. */
  fileCount: number;
}

/**
 * Loads one file from disk; problems are reported, never thrown. Synchronous: nothing else can
 * happen while contract files load (no request goes out before every file is valid), and for
 * files of a few kilobytes four plain system calls cost a fraction of their asynchronous form.
 */
export function loadContractFile(
  absolute: string,
  shownAs: string,
): ReturnType<typeof parseContract> {
  const problem = (message: string): ReturnType<typeof parseContract> => ({
    ok: false,
    problems: [{ file: shownAs, line: 1, column: 1, path: '', message }],
  });
  let fd: number;
  try {
    fd = openSync(absolute, 'r');
  } catch (error) {
    return problem(`the file cannot be read: ${(error as Error).message}`);
  }
  try {
    // One open, one fstat, one read: the size is checked before anything large is read.
    const { size } = fstatSync(fd);
    if (size > MAX_FILE_BYTES) {
      return problem(
        `the file is ${size} bytes, over the limit of ${MAX_FILE_BYTES} bytes (1 MiB); a contract file should be a few kilobytes`,
      );
    }
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const bytesRead = readSync(fd, bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return parseContract(bytes.subarray(0, read), shownAs);
  } catch (error) {
    return problem(`the file cannot be read: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** Problems that involve two files: a repeated contract FQN, or two contracts for one asset. */
export function crossFileProblems(files: readonly ContractFile[]): Problem[] {
  const problems: Problem[] = [];
  const byFqn = new Map<string, ContractFile>();
  const byEntity = new Map<string, ContractFile>();
  for (const file of files) {
    const fqn = file.contract.fullyQualifiedName;
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
    const entity = file.contract.entity;
    const entityKey = `${entity.type}\u0000${entity.fullyQualifiedName}`;
    const earlierEntity = byEntity.get(entityKey);
    if (earlierEntity === undefined) byEntity.set(entityKey, file);
    else if (earlierEntity.contract.fullyQualifiedName !== fqn) {
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

/** Loads every contract file under `paths`, in path order. */
export async function loadContracts(
  paths: readonly string[],
  cwd: string,
): Promise<LoadedContracts> {
  const absolutePaths = await findContractFiles(paths, cwd);
  const files: ContractFile[] = [];
  const problems: Problem[] = [];
  for (const absolute of absolutePaths) {
    const result = loadContractFile(absolute, displayPath(cwd, absolute));
    if (result.ok) files.push(result.value);
    else for (const problem of result.problems) problems.push(problem);
  }
  for (const problem of crossFileProblems(files)) problems.push(problem);
  return { files, problems, fileCount: absolutePaths.length };
}
