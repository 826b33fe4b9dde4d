// Where things are in a contract file: positions of JSON pointers (nested ones found on demand,
// with the yaml package's nodes and LineCounter), and of a byte that is not UTF-8.
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import { yamlLibrary } from '../support/yaml-library.js';
import { fromOdcs, sourcePointer, type OdcsReading } from './from-odcs.js';
import type { DesiredContract } from '../model/contract.js';
import type { Problem } from '../model/problem.js';

export interface Position {
  line: number;
  column: number;
}

/** What names a contract and its asset: small, and kept in memory for every loaded file. */
export interface ContractIdentity {
  fullyQualifiedName: string;
  entity: { type: string; fullyQualifiedName: string };
}

/** A contract file that loaded and validated. */
export interface ContractFile {
  file: string;
  identity: ContractIdentity;
  /**
   * The contract. A loaded file does not keep it: each access reads the file again (its bytes
   * must be those validated) and parses it, so read it once per use (see withContract).
   */
  contract: DesiredContract;
  /**
   * The file's text, for locating values when something must be said about them. A loaded file
   * reads it from disk again on each access (positionOf does so once per file).
   */
  text: string;
  /** An ODCS document read as a contract (odcs/), rather than a file of this tool's format. */
  format?: 'odcs';
  /** An ODCS file that names no catalog asset: why, at its place; nothing can be planned from it. */
  unnamed?: Problem;
  /** The file declares its semantic version (contractVersion; an ODCS document always does). */
  versioned?: boolean;
  /**
   * An ODCS document that holds what the catalog's contract has no field for, which stays only in
   * git (contract/odcs-file.ts, keptOnlyInGit): only such a file is read again to say so at its lines.
   */
  keptOnlyInGit?: boolean;
}

/**
 * The file with its contract read once and held, for as long as the result is in use: what one
 * step of a command (planning one file) reads many times. An ODCS file that keeps something only
 * in git is parsed positionally, since saying so needs the lines, and its contract is taken from
 * that one parse: the fast path reads a document as the positional parser does. The parse is held
 * by the result, not by `file`, which may live for the whole command.
 */
export function withContract(file: ContractFile): ContractFile {
  if (file.format !== 'odcs' || file.keptOnlyInGit !== true) return holding(file, file.contract);
  const parsed = parsePositionally(file.text);
  const reading = odcsReadingOfDocument(parsed.doc);
  if (reading?.contract === undefined) return holding(file, file.contract);
  const held = holding(file, reading.contract);
  positionalDocuments.set(held, parsed);
  odcsReadings.set(held, reading);
  return held;
}

/**
 * `file` holding `contract` (read once, or made from its own), its text still read from it, and
 * what was parsed of it to locate things in it shared.
 */
export function holding(file: ContractFile, contract: DesiredContract): ContractFile {
  const held = {
    file: file.file,
    identity: file.identity,
    contract,
    get text() {
      return file.text;
    },
    ...(file.format === undefined ? {} : { format: file.format }),
    ...(file.unnamed === undefined ? {} : { unnamed: file.unnamed }),
    ...(file.versioned === true ? { versioned: true } : {}),
    ...(file.keptOnlyInGit === true ? { keptOnlyInGit: true } : {}),
  };
  const parsed = positionalDocuments.get(file);
  if (parsed !== undefined) positionalDocuments.set(held, parsed);
  const reading = odcsReadings.get(file);
  if (reading !== undefined) odcsReadings.set(held, reading);
  return held;
}

/** The segments of a JSON Pointer: tokens unescaped (RFC 6901), list indexes as numbers. */
export function pointerSegments(pointer: string): Segment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^(0|[1-9]\d*)$/.test(token) ? Number(token) : token));
}

interface PositionalDocument {
  doc: Document;
  lines: LineCounter;
}

/** Files parsed for positions, once each, only when something in them must be located. */
const positionalDocuments = new WeakMap<ContractFile, PositionalDocument>();
/** For an ODCS file: its document, as the positional parser reads it, read as a contract. */
const odcsReadings = new WeakMap<ContractFile, OdcsReading | null>();

/** Keeps a document the loader parsed anyway, so that locating in it parses nothing again. */
export function rememberDocument(file: ContractFile, doc: Document, lines: LineCounter): void {
  positionalDocuments.set(file, { doc, lines });
}

/** `file` parsed by the positional parser, once, when something in it must be located. */
function positionalDocument(file: ContractFile): PositionalDocument {
  let parsed = positionalDocuments.get(file);
  if (parsed === undefined) {
    parsed = parsePositionally(file.text);
    positionalDocuments.set(file, parsed);
  }
  return parsed;
}

function parsePositionally(text: string): PositionalDocument {
  const { LineCounter, parseDocument } = yamlLibrary();
  const lines = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lines, uniqueKeys: false }), lines };
}

/**
 * An ODCS file's document as the positional parser reads it (the parse that locates things in
 * it, made once), read as a contract (from-odcs.ts): its contract, what it keeps only in git, and
 * which place of the document each field of the contract came from. Undefined when the document
 * is no mapping.
 */
export function odcsReadingOf(file: ContractFile): OdcsReading | undefined {
  let reading = odcsReadings.get(file);
  if (reading === undefined) {
    reading = odcsReadingOfDocument(positionalDocument(file).doc) ?? null;
    odcsReadings.set(file, reading);
  }
  return reading ?? undefined;
}

function odcsReadingOfDocument(doc: Document): OdcsReading | undefined {
  const read = doc.toJS() as unknown;
  return read !== null && typeof read === 'object' && !Array.isArray(read)
    ? fromOdcs(read as Record<string, unknown>)
    : undefined;
}

/** Whether `file` was parsed by the positional parser as it was read (the fast path declined it). */
export function parsedPositionally(file: ContractFile): boolean {
  return positionalDocuments.has(file);
}

/**
 * Where `pointer` is in the file, from the yaml package's nodes: a top-level field at its key
 * (at its value when `value` asks), a nested one (`/schema/3/dataType`) at its value, and
 * anything the file does not hold at its nearest ancestor that it does.
 */
export function positionOf(
  contractFile: ContractFile,
  pointer: string,
  value = false,
  /** A pointer into an ODCS document as written, not into the contract read from it. */
  inDocument = false,
): Position {
  return positionInFile(contractFile, filePointer(contractFile, pointer, inDocument), value);
}

/**
 * `pointer` into the file's contract as a pointer in the file's own terms: itself, or for an ODCS
 * file the place of the document it came from (itself when `inDocument` says it is one already).
 */
function filePointer(contractFile: ContractFile, pointer: string, inDocument: boolean): string {
  return contractFile.format === 'odcs' && !inDocument
    ? sourcePointer(odcsReadingOf(contractFile)?.sources ?? [], pointer)
    : pointer;
}

/** Where `pointer` is (positionOf), with the pointer in the file's own terms (filePointer). */
export function placeOf(
  contractFile: ContractFile,
  pointer: string,
  inDocument = false,
): Position & { pointer: string } {
  const own = filePointer(contractFile, pointer, inDocument);
  return { pointer: own, ...positionInFile(contractFile, own, false) };
}

/** Where `pointer`, in the file's own terms, is in the file (positionOf). */
function positionInFile(contractFile: ContractFile, pointer: string, value: boolean): Position {
  const parsed = positionalDocument(contractFile);
  const segments = pointerSegments(pointer);
  const { found, depth } = locate(parsed.doc, segments);
  if (depth === 0) return { line: 1, column: 1 };
  const atKey = depth === 1 && !(value && depth === segments.length);
  const node = atKey ? (found.keyNode ?? found.node) : found.node;
  const at = parsed.lines.linePos(nodeStart(node));
  return { line: at.line, column: at.col };
}

/** Offset of the first byte that is not part of valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export function positionOfByte(bytes: Uint8Array, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  // Columns count characters; the bytes before the bad one on its line are valid UTF-8.
  const column = new TextDecoder().decode(bytes.subarray(lineStart, offset)).length + 1;
  return { line, column };
}

export type Segment = string | number;

interface Located {
  node: YamlNode | null;
  keyNode: YamlNode | null;
}

/** The pairs of each mapping by key, built once per mapping the first time it is searched. */
const pairIndexes = new WeakMap<object, Map<string, { key: unknown; value: unknown }>>();

function pairByKey(
  map: { items: { key: unknown; value: unknown }[] },
  key: string,
): { key: unknown; value: unknown } | undefined {
  let index = pairIndexes.get(map);
  if (index === undefined) {
    index = new Map();
    const { isScalar } = yamlLibrary();
    for (const item of map.items) {
      if (!isScalar(item.key)) continue;
      const name = String(item.key.value);
      if (!index.has(name)) index.set(name, item);
    }
    pairIndexes.set(map, index);
  }
  return index.get(key);
}

/** Finds the YAML node at a path of segments (and the key node of its pair, when in a map). */
export function locate(
  doc: Document,
  segments: readonly Segment[],
): { found: Located; depth: number } {
  const { isMap, isSeq } = yamlLibrary();
  let found: Located = { node: doc.contents, keyNode: null };
  let depth = 0;
  for (const segment of segments) {
    const node = found.node;
    if (isMap(node)) {
      const pair = pairByKey(node, String(segment));
      if (pair === undefined) break;
      found = {
        node: (pair.value as YamlNode | null) ?? (pair.key as YamlNode),
        keyNode: pair.key as YamlNode,
      };
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as YamlNode | undefined;
      if (item === undefined) break;
      found = { node: item, keyNode: null };
    } else break;
    depth += 1;
  }
  return { found, depth };
}

export function nodeStart(node: YamlNode | null): number {
  return node?.range?.[0] ?? 0;
}
