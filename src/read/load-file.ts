// Loads one contract file from disk, in whichever thread loads it: reads its bytes, parses and
// validates them, and says what the loading thread hands back (what names the contract, the
// digest of the bytes validated, which profiles cannot store it) as plain data. A loaded file
// keeps no contract: it is read again, and must be unchanged, when it is used.
import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ConfigError } from '../model/errors.js';
import { codecFor } from '../profile/codec.js';
import type { Profile } from '../model/profile.js';
import type { DesiredContract } from '../model/contract.js';
import {
  contractOfValidated,
  contractText,
  MAX_FILE_BYTES,
  parsedPositionally,
  parseContract,
  tooLargeMessage,
  type ContractFile,
  type ContractIdentity,
} from '../contract/parse.js';
import type { Problem, Result } from '../model/problem.js';
import { contractForProfile } from '../contract/odcs-file.js';
import { valueDigest, type ValueDigest } from '../contract/value-digest.js';

/** Where each file is read, one per thread: one byte over the limit, so a larger file shows. */
let scratch: Buffer | undefined;

/**
 * Reads one contract file's bytes; a file that cannot be read, or is over the size limit, is a
 * problem, never thrown. Synchronous: nothing else can happen while contract files load (no
 * request goes out before every file is valid), and for files of a few kilobytes plain system
 * calls cost a fraction of their asynchronous form. No fstat: the file is read into a buffer one
 * byte larger than the limit (a fstat and a buffer for each file were a third of reading it), and
 * only a file that fills it is asked its size, for the message.
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
    scratch ??= Buffer.allocUnsafe(MAX_FILE_BYTES + 1);
    let read = 0;
    while (read < scratch.length) {
      const bytesRead = readSync(fd, scratch, read, scratch.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > MAX_FILE_BYTES) return problem(tooLargeMessage(fstatSync(fd).size));
    // A copy of its own: the scratch buffer is read into again for the next file.
    return { ok: true, value: Buffer.from(scratch.subarray(0, read)) };
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

/** What loading one file found: plain data, so that it can come back from a loading thread. */
export type FileLoad =
  | {
      ok: true;
      identity: ContractIdentity;
      /** The digest of the bytes validated: a later read must find the same. */
      digest: string;
      /** Read by the fast path (js-yaml alone), so read again by it (see contractOfValidated). */
      fast: boolean;
      /**
       * The profiles, of those asked about, that cannot store this contract: all of them for an
       * ODCS document that names no catalog asset.
       */
      unstorableIn: Profile[];
      /** An ODCS document (odcs/), and when it names no catalog asset, why, at its place. */
      format?: 'odcs';
      unnamed?: Problem;
      versioned?: boolean;
      keptOnlyInGit?: boolean;
      /** With LoadWork.valueDigests, a file of this tool's format: its contract's digest. */
      value?: ValueDigest;
    }
  | { ok: false; problems: Problem[] };

/**
 * Loads one file from disk; problems are reported, never thrown. `profiles` are those whose
 * codec is asked, with the contract in memory, whether it can store it; with `valueDigests`, a
 * file of this tool's format also says its contract's digest.
 */
export function loadFile(
  absolute: string,
  shownAs: string,
  profiles: readonly Profile[],
  valueDigests = false,
): FileLoad {
  const bytes = readContractBytes(absolute, shownAs);
  if (!bytes.ok) return bytes;
  const parsed = parseContract(bytes.value, shownAs);
  if (!parsed.ok) return parsed;
  const contract = parsed.value.contract;
  const { fullyQualifiedName, entity } = contract;
  const { format, unnamed, versioned, keptOnlyInGit } = parsed.value;
  const value = valueDigests && format === undefined ? valueDigest(contract) : undefined;
  return {
    ok: true,
    identity: {
      fullyQualifiedName: copied(fullyQualifiedName),
      entity: { type: copied(entity.type), fullyQualifiedName: copied(entity.fullyQualifiedName) },
    },
    digest: digestOf(bytes.value),
    fast: !parsedPositionally(parsed.value),
    unstorableIn:
      unnamed === undefined
        ? profiles.filter(
            (profile) =>
              codecFor(profile).unstorable(contractForProfile(parsed.value, profile)).length > 0,
          )
        : [...profiles],
    ...(format === undefined ? {} : { format }),
    ...(unnamed === undefined ? {} : { unnamed }),
    ...(versioned === true || format === 'odcs' ? { versioned: true } : {}),
    ...(keptOnlyInGit === true ? { keptOnlyInGit: true } : {}),
    ...(value === undefined ? {} : { value }),
  };
}

/**
 * A loaded file as a command keeps it: what names its contract, and where its bytes are. The
 * contract and the text are read again from disk at each access, and the bytes must be those
 * validated; so ten thousand loaded files hold ten thousand names, not ten thousand contracts.
 */
export class StoredContractFile implements ContractFile {
  readonly identity: ContractIdentity;
  readonly format?: 'odcs';
  readonly unnamed?: Problem;
  readonly versioned?: boolean;
  readonly keptOnlyInGit?: boolean;
  /** The digest of the contract validated, when the load was asked for it (valueDigests). */
  readonly value?: ValueDigest;
  private readonly digest: string;
  private readonly fast: boolean;

  constructor(
    readonly file: string,
    private readonly absolute: string,
    loaded: Extract<FileLoad, { ok: true }>,
  ) {
    this.identity = loaded.identity;
    if (loaded.format !== undefined) this.format = loaded.format;
    if (loaded.unnamed !== undefined) this.unnamed = loaded.unnamed;
    if (loaded.versioned === true) this.versioned = true;
    if (loaded.keptOnlyInGit === true) this.keptOnlyInGit = true;
    if (loaded.value !== undefined) this.value = loaded.value;
    this.digest = loaded.digest;
    this.fast = loaded.fast;
  }

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

/**
 * The files one load reads, and the counter its threads share: each thread takes the next chunk
 * of files until none is left, so that a thread that started late or reads slower takes fewer.
 */
export interface LoadWork {
  absolute: readonly string[];
  shown: readonly string[];
  profiles: readonly Profile[];
  /**
   * Each valid file of this tool's format says its contract's digest (FileLoad's `value`); or, by
   * index, those marked.
   */
  valueDigests: boolean | readonly boolean[];
  /** One Int32: the next chunk to take. */
  next: SharedArrayBuffer;
}

/** Files a thread takes at a time. */
const CHUNK_SIZE = 100;

export function chunkCount(work: LoadWork): number {
  return Math.ceil(work.absolute.length / CHUNK_SIZE);
}

/** The index (among all the files of the load) of the first file of `chunk`. */
export function chunkStart(chunk: number): number {
  return chunk * CHUNK_SIZE;
}

/** Loads the files of one chunk, in order. */
export function loadChunk(work: LoadWork, chunk: number): FileLoad[] {
  const end = Math.min(work.absolute.length, (chunk + 1) * CHUNK_SIZE);
  const results: FileLoad[] = [];
  const digests = work.valueDigests;
  for (let i = chunkStart(chunk); i < end; i++) {
    const digested = typeof digests === 'boolean' ? digests : digests[i] === true;
    results.push(loadFile(work.absolute[i]!, work.shown[i]!, work.profiles, digested));
  }
  return results;
}

/**
 * Takes chunks until none is left, handing each one's results to `done` as it is loaded. With
 * `pause`, awaited after each chunk, the thread's other work runs between chunks (what the files
 * loaded so far set going: their live contracts read, the answers planned); without, the loop
 * runs to its end at once.
 */
export async function loadChunks(
  work: LoadWork,
  done: (chunk: number, results: FileLoad[]) => void,
  pause?: () => Promise<void>,
): Promise<void> {
  const next = new Int32Array(work.next);
  const chunks = chunkCount(work);
  for (let chunk = Atomics.add(next, 0, 1); chunk < chunks; chunk = Atomics.add(next, 0, 1)) {
    done(chunk, loadChunk(work, chunk));
    if (pause !== undefined) await pause();
  }
}
