// Reads contract files from disk: expands paths, loads every file, and checks what no single
// file can see (two files for one contract, two contracts for one asset).
import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import {
  contractOfValidated,
  contractText,
  MAX_FILE_BYTES,
  parsedPositionally,
  parseContract,
  positionOf,
  tooLargeMessage,
  type ContractFile,
  type ContractIdentity,
} from './parse.js';
import type { DesiredContract } from './model.js';
import type { Problem, Result } from './problem.js';

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
 * Reads one contract file's bytes; a file that cannot be read, or is over the size limit, is a
 * problem, never thrown. Synchronous: nothing else can happen while contract files load (no
 * request goes out before every file is valid), and for files of a few kilobytes four plain
 * system calls cost a fraction of their asynchronous form.
 */
function readContractBytes(absolute: string, shownAs: string): Result<Buffer> {
  const problem = (message: string): Result<Buffer> => ({
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
    if (size > MAX_FILE_BYTES) return problem(tooLargeMessage(size));
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const bytesRead = readSync(fd, bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { ok: true, value: bytes.subarray(0, read) };
  } catch (error) {
    return problem(`the file cannot be read: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

function digestOf(bytes: Uint8Array): string {
  return hash('sha1', bytes, 'base64');
}

/** Strings shorter than this are copied by V8 when sliced; longer ones keep their whole source. */
const SLICED_FROM = 13;

/**
 * A copy of `value` in storage of its own: joining two parts builds one flat string, where a
 * concatenation or a slice would keep a header pointing into other storage.
 */
function copied(value: string): string {
  return value.length < SLICED_FROM ? value : [value.slice(0, 1), value.slice(1)].join('');
}

/**
 * `value` with every string long enough to be a slice copied into storage of its own (mappings
 * and lists changed in place): js-yaml's strings are slices of the file's text, and any of them
 * kept (in a plan, say) would keep the whole text alive.
 */
function flattened<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      value[i] = typeof item === 'string' ? copied(item) : flattened(item);
    }
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      record[key] = typeof item === 'string' ? copied(item) : flattened(item);
    }
  }
  return value;
}

/**
 * A loaded file as a command keeps it: what names its contract, and where its bytes are. The
 * contract and the text are read again from disk at each access, and the bytes must be those
 * validated; so ten thousand loaded files hold ten thousand names, not ten thousand contracts.
 */
class StoredContractFile implements ContractFile {
  constructor(
    readonly file: string,
    readonly identity: ContractIdentity,
    private readonly absolute: string,
    private readonly digest: string,
    /** Read by the fast path when it was validated (see contractOfValidated). */
    private readonly fast: boolean,
  ) {}

  get contract(): DesiredContract {
    const contract = contractOfValidated(this.bytes(), this.file, this.fast);
    // The bytes are those that were validated, so they parse as they did then.
    if (contract === undefined) throw new ConfigError(`${this.file} can no longer be parsed`);
    return flattened(contract);
  }

  get text(): string {
    const text = contractText(this.bytes());
    if (text === undefined) throw new ConfigError(`${this.file} can no longer be decoded`);
    return text;
  }

  /** The file's bytes, which must be those validated. */
  private bytes(): Buffer {
    const bytes = readContractBytes(this.absolute, this.file);
    if (!bytes.ok || digestOf(bytes.value) !== this.digest)
      throw new ConfigError(
        `${this.file} changed on disk after it was validated; run the command again`,
      );
    return bytes.value;
  }
}

export interface LoadOptions {
  /**
   * Called with each valid file, its contract in memory, before the loader lets the contract go:
   * for checks of every file that would otherwise read each file again. The contract's strings
   * are slices of the file's text; keeping one keeps the whole text.
   */
  inspect?: (file: ContractFile) => void;
}

/**
 * Loads one file from disk; problems are reported, never thrown. Neither the text nor the
 * contract is kept: they are read again, and must be unchanged, when they are needed.
 */
function loadContractFile(
  absolute: string,
  shownAs: string,
  inspect: LoadOptions['inspect'],
): Result<ContractFile> {
  const bytes = readContractBytes(absolute, shownAs);
  if (!bytes.ok) return bytes;
  const parsed = parseContract(bytes.value, shownAs);
  if (!parsed.ok) return parsed;
  inspect?.(parsed.value);
  const { fullyQualifiedName, entity } = parsed.value.contract;
  const identity: ContractIdentity = {
    fullyQualifiedName: copied(fullyQualifiedName),
    entity: { type: copied(entity.type), fullyQualifiedName: copied(entity.fullyQualifiedName) },
  };
  return {
    ok: true,
    value: new StoredContractFile(
      shownAs,
      identity,
      absolute,
      digestOf(bytes.value),
      !parsedPositionally(parsed.value),
    ),
  };
}

/** Problems that involve two files: a repeated contract FQN, or two contracts for one asset. */
export function crossFileProblems(files: readonly ContractFile[]): Problem[] {
  const problems: Problem[] = [];
  const byFqn = new Map<string, ContractFile>();
  const byEntity = new Map<string, ContractFile>();
  for (const file of files) {
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

/** Loads every contract file under `paths`, in path order. */
export async function loadContracts(
  paths: readonly string[],
  cwd: string,
  options: LoadOptions = {},
): Promise<LoadedContracts> {
  const absolutePaths = await findContractFiles(paths, cwd);
  const files: ContractFile[] = [];
  const problems: Problem[] = [];
  for (const absolute of absolutePaths) {
    const result = loadContractFile(absolute, displayPath(cwd, absolute), options.inspect);
    if (result.ok) files.push(result.value);
    else for (const problem of result.problems) problems.push(problem);
  }
  for (const problem of crossFileProblems(files)) problems.push(problem);
  return { files, problems, fileCount: absolutePaths.length };
}
