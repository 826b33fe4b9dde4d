// Parses one contract file's bytes into a DesiredContract, keeping source positions so that
// every problem is reported at its file:line:col. Pure: no file system access.
import {
  LineCounter,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  parseDocument,
  visit,
  type Document,
  type Node as YamlNode,
} from 'yaml';
import { ARRAY_KEYS, type DesiredContract } from './model.js';
import { dottedPath, notListed, type Problem, type Result } from './problem.js';
import { fastLoad, scanPositions } from './fast-parse.js';
import { readPlainYaml } from './plain-yaml.js';
import { matchesSchema, schemaProblems } from './schema.js';

/** Largest contract file accepted. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Aliases one document may resolve; a handful is plenty for a contract, a bomb needs thousands. */
const MAX_ALIAS_COUNT = 50;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Deepest nesting of mappings and lists a contract file may have, in every command. */
export const MAX_NESTING = 64;
const NESTING_MESSAGE = `nesting deeper than ${MAX_NESTING} levels; a contract file needs only a few`;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface Position {
  line: number;
  column: number;
}

/** A contract file that loaded and validated. */
export interface ContractFile {
  file: string;
  contract: DesiredContract;
  /** Positions of the top-level keys, by JSON pointer (`/schema`). */
  positions: ReadonlyMap<string, Position>;
  /** The file's text, for locating nested values when something must be said about them. */
  text?: string;
}

/** Files parsed for positions, once each, only when a nested value must be located. */
const positionalDocuments = new WeakMap<ContractFile, { doc: Document; lines: LineCounter }>();

/**
 * Where `pointer` is in the file: a nested value (`/schema/3/dataType`) at its own line and
 * column, else its nearest ancestor with a known position. A top-level field is at its key,
 * unless `value` asks for its value.
 */
export function positionOf(contractFile: ContractFile, pointer: string, value = false): Position {
  const segments = pointer.split('/').slice(1);
  if ((segments.length > 1 || value) && contractFile.text !== undefined) {
    let parsed = positionalDocuments.get(contractFile);
    if (parsed === undefined) {
      const lines = new LineCounter();
      const doc = parseDocument(contractFile.text, { lineCounter: lines, uniqueKeys: false });
      parsed = { doc, lines };
      positionalDocuments.set(contractFile, parsed);
    }
    const tokens = segments.map((token) => {
      const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(0|[1-9]\d*)$/.test(name) ? Number(name) : name;
    });
    const { found, depth } = locate(parsed.doc, tokens);
    if ((depth === segments.length || depth > 1) && found.node !== null) {
      const at = parsed.lines.linePos(nodeStart(found.node));
      return { line: at.line, column: at.col };
    }
  }
  let current = pointer;
  for (;;) {
    const found = contractFile.positions.get(current);
    if (found !== undefined) return found;
    if (current === '') return { line: 1, column: 1 };
    current = current.slice(0, current.lastIndexOf('/'));
  }
}

/** Offset of the first byte that is not part of valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
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

function positionOfByte(bytes: Uint8Array, offset: number): Position {
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

type Segment = string | number;

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
function locate(doc: Document, segments: readonly Segment[]): { found: Located; depth: number } {
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

function nodeStart(node: YamlNode | null): number {
  return node?.range?.[0] ?? 0;
}

/**
 * The fast path: a plain file that loads, validates and has every top-level key located needs
 * no positional parse. Undefined means "parse positionally" (it never reports problems itself).
 */
export function fastParseContract(text: string, file: string): ContractFile | undefined {
  // The plain reader first: it locates every top-level key and reads only finite numbers.
  const plain = readPlainYaml(text);
  if (plain !== undefined) {
    if (!matchesSchema(plain.value) || hasRepeatedItemKeys(plain.value) || hasOddNode(plain.value))
      return undefined;
    return { file, contract: plain.value as DesiredContract, positions: plain.positions, text };
  }
  // js-yaml for plain-enough files it declines (flow collections across lines, folded blocks…).
  const fast = fastLoad(text);
  if (fast === undefined || !matchesSchema(fast) || hasRepeatedItemKeys(fast) || hasOddNode(fast))
    return undefined;
  const positions = scanPositions(text);
  if (!Object.keys(fast).every((key) => positions.has(`/${escapePointer(key)}`))) return undefined;
  return { file, contract: fast as DesiredContract, positions, text };
}

/** Parses and validates one contract file. `file` is the path shown in problems. */
export interface ParseOptions {
  /** Try the fast path first (default true); false always parses positionally. */
  fastPath?: boolean;
}

/** Problems listed per file; the rest are counted in one more problem. */
export const MAX_PROBLEMS_PER_FILE = 100;

export function parseContract(
  input: string | Uint8Array,
  file: string,
  options: ParseOptions = {},
): Result<ContractFile> {
  const result = parseAndCheck(input, file, options);
  if (result.ok || result.problems.length <= MAX_PROBLEMS_PER_FILE + 1) return result;
  const problems = result.problems.slice(0, MAX_PROBLEMS_PER_FILE);
  // Said where the first problem not listed is.
  problems.push(
    notListed(
      result.problems.length - MAX_PROBLEMS_PER_FILE,
      result.problems[MAX_PROBLEMS_PER_FILE]!,
    ),
  );
  return { ok: false, problems };
}

function parseAndCheck(
  input: string | Uint8Array,
  file: string,
  options: ParseOptions,
): Result<ContractFile> {
  const at = (line: number, column: number, path: string, message: string): Problem => ({
    file,
    line,
    column,
    path,
    message,
  });
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    if (input.length > MAX_FILE_BYTES) {
      return {
        ok: false,
        problems: [
          at(
            1,
            1,
            '',
            `the file is ${input.length} bytes, over the limit of ${MAX_FILE_BYTES} bytes (1 MiB); a contract file should be a few kilobytes`,
          ),
        ],
      };
    }
    let decoded: string | undefined;
    try {
      decoded = STRICT_UTF8.decode(input);
    } catch {
      decoded = undefined;
    }
    const bad = decoded === undefined ? firstInvalidUtf8(input) : -1;
    if (bad >= 0) {
      const pos = positionOfByte(input, bad);
      return {
        ok: false,
        problems: [
          at(
            pos.line,
            pos.column,
            '',
            `the file is not valid UTF-8 (byte 0x${input[bad]!.toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8`,
          ),
        ],
      };
    }
    text = decoded ?? '';
  }
  if (text.length > MAX_FILE_BYTES) {
    return {
      ok: false,
      problems: [at(1, 1, '', `the file is over the limit of ${MAX_FILE_BYTES} bytes (1 MiB)`)],
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) {
    const offset = text.indexOf('\u0000');
    const lines = text.slice(0, offset).split('\n');
    return {
      ok: false,
      problems: [
        at(
          lines.length,
          lines[lines.length - 1]!.length + 1,
          '',
          'the file contains a NUL character; contract files are text',
        ),
      ],
    };
  }

  const fast = options.fastPath === false ? undefined : fastParseContract(text, file);
  if (fast !== undefined) return { ok: true, value: fast };

  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter,
    // The yaml package checks unique keys in quadratic time; the visit below does it in linear.
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
    schema: 'core',
    merge: false,
    intAsBigInt: false,
  });
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const problems: Problem[] = [];
  const docList = Array.isArray(docs) ? docs : [];
  const first = docList[0];
  if (first === undefined || first.contents === null) {
    const empty = docList.length === 0 || (first !== undefined && first.errors.length === 0);
    if (empty) {
      return {
        ok: false,
        problems: [
          at(
            1,
            1,
            '',
            'the file is empty; a contract needs at least name, fullyQualifiedName and entity',
          ),
        ],
      };
    }
  }
  if (docList.length > 1) {
    const second = docList[1]!;
    const p = pos(second.range[0]);
    problems.push(
      at(
        p.line,
        p.column,
        '',
        `the file holds ${docList.length} YAML documents; put one contract in each file`,
      ),
    );
  }
  for (const doc of docList.slice(0, 1)) {
    for (const error of [...doc.errors, ...doc.warnings]) {
      // Unresolved tags are reported by the tag check below, with a better sentence.
      if (error.code === 'TAG_RESOLVE_FAILED') continue;
      const p = pos(error.pos[0]);
      const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
      const message =
        error.code === 'DUPLICATE_KEY'
          ? 'duplicate key: each key may appear once in a mapping'
          : /call stack/i.test(reason)
            ? NESTING_MESSAGE
            : `YAML ${error.name === 'YAMLWarning' ? 'warning' : 'syntax error'}: ${reason}`;
      problems.push(at(p.line, p.column, '', message));
    }
  }
  if (problems.length > 0 || first === undefined) return { ok: false, problems };

  // Checks on the syntax tree before anything is turned into JavaScript objects.
  let aliasCount = 0;
  let firstAlias: YamlNode | null = null;
  visit(first, {
    Node(_key, node) {
      if (isAlias(node)) {
        aliasCount += 1;
        firstAlias ??= node;
      }
      if ((isScalar(node) || isMap(node) || isSeq(node)) && node.tag !== undefined) {
        const shown = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
        // The node's range starts after its tag; point at the tag as written, when it is there.
        const start = nodeStart(node);
        const tagAt = text.lastIndexOf(shown, start);
        const p = pos(tagAt >= 0 && !text.slice(tagAt, start).includes('\n') ? tagAt : start);
        problems.push(
          at(
            p.line,
            p.column,
            '',
            `the tag ${shown} is not allowed; write plain YAML values without tags`,
          ),
        );
      }
      return undefined;
    },
    Map(_key, map) {
      const seen = new Set<string>();
      for (const item of map.items) {
        if (!isScalar(item.key)) continue;
        const name = String(item.key.value);
        if (!seen.has(name)) {
          seen.add(name);
          continue;
        }
        const p = pos(nodeStart(item.key));
        problems.push(
          at(p.line, p.column, '', 'duplicate key: each key may appear once in a mapping'),
        );
      }
      return undefined;
    },
    Pair(_key, pair) {
      if (isPair(pair) && isScalar(pair.key) && FORBIDDEN_KEYS.has(String(pair.key.value))) {
        const p = pos(nodeStart(pair.key));
        problems.push(
          at(
            p.line,
            p.column,
            '',
            `the key ${String(pair.key.value)} is not allowed in a contract file`,
          ),
        );
      } else if (isPair(pair) && pair.key !== null && !isScalar(pair.key)) {
        const p = pos(nodeStart(pair.key as YamlNode));
        problems.push(
          at(p.line, p.column, '', 'keys must be plain strings, not mappings, lists or aliases'),
        );
      }
      return undefined;
    },
  });
  const aliasAt = pos(nodeStart(firstAlias));
  if (aliasCount > MAX_ALIAS_COUNT) {
    problems.push(
      at(
        aliasAt.line,
        aliasAt.column,
        '',
        `the file uses ${aliasCount} aliases, over the limit of ${MAX_ALIAS_COUNT}; write the values out`,
      ),
    );
  }
  if (problems.length > 0) return { ok: false, problems };

  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = /alias/i.test(reason)
      ? 'the aliases in this file expand to far too much data (a YAML alias bomb); write the values out'
      : error instanceof RangeError
        ? NESTING_MESSAGE
        : `the file could not be read as data: ${reason}`;
    return { ok: false, problems: [at(aliasAt.line, aliasAt.column, '', message)] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const p = pos(nodeStart(first.contents));
    return {
      ok: false,
      problems: [
        at(
          p.line,
          p.column,
          '',
          'a contract file must be a mapping of keys to values (name: ..., fullyQualifiedName: ..., entity: ...)',
        ),
      ],
    };
  }

  const locateProblem = (
    segments: readonly Segment[],
    pointAtKey: boolean,
    message: string,
  ): Problem => {
    const { found, depth } = locate(first, segments);
    const exact = depth === segments.length;
    const node =
      exact && pointAtKey && found.keyNode !== null
        ? found.keyNode
        : exact
          ? found.node
          : (found.keyNode ?? found.node);
    const p = pos(nodeStart(node));
    return at(p.line, p.column, dottedPath(segments), message);
  };

  problems.push(...schemaProblems(value, locateProblem));
  problems.push(...oddNodeProblems(value, locateProblem));
  problems.push(
    ...duplicateItemProblems(value as Record<string, unknown>, first, pos, locateProblem),
  );
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ok: false, problems };
  }

  const positions = new Map<string, Position>();
  const root = first.contents;
  if (isMap(root)) {
    for (const pair of root.items) {
      if (!isScalar(pair.key)) continue;
      const top = `/${escapePointer(String(pair.key.value))}`;
      positions.set(top, pos(nodeStart(pair.key)));
    }
  }
  return { ok: true, value: { file, contract: value as DesiredContract, positions, text } };
}

type OddNode = {
  segments: Segment[];
  kind: 'non-finite' | 'forbidden-key' | 'too-deep';
  value: unknown;
};

/**
 * Values a contract may not hold, however the YAML wrote them, in document order and at most
 * `max`: numbers JSON cannot carry (Infinity, NaN), forbidden keys (`__proto__`, also when written
 * with escapes), and nesting deeper than MAX_NESTING. Iterative, so no input can exhaust the stack.
 */
function oddNodes(value: unknown, max: number): OddNode[] {
  const found: OddNode[] = [];
  const stack: { node: unknown; segments: Segment[] }[] = [{ node: value, segments: [] }];
  while (stack.length > 0 && found.length < max) {
    const { node, segments } = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) found.push({ segments, kind: 'non-finite', value: node });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (segments.length >= MAX_NESTING) {
      found.push({ segments, kind: 'too-deep', value: node });
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        stack.push({ node: node[i], segments: [...segments, i] });
      continue;
    }
    if (Object.getPrototypeOf(node) !== Object.prototype) {
      found.push({ segments: [...segments, '__proto__'], kind: 'forbidden-key', value: node });
      continue;
    }
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (FORBIDDEN_KEYS.has(key))
        found.push({ segments: [...segments, key], kind: 'forbidden-key', value: node });
      else
        stack.push({ node: (node as Record<string, unknown>)[key], segments: [...segments, key] });
    }
  }
  return found;
}

/** Whether `value` holds anything oddNodes finds. */
function hasOddNode(value: unknown): boolean {
  return oddNodes(value, 1).length > 0;
}

/** Every value of `value` a contract may not hold (see oddNodes), at its position. */
function oddNodeProblems(
  value: unknown,
  locateProblem: (segments: readonly Segment[], pointAtKey: boolean, message: string) => Problem,
): Problem[] {
  return oddNodes(value, 100).map(({ segments, kind, value: node }) => {
    switch (kind) {
      case 'non-finite':
        return locateProblem(
          segments,
          false,
          `${dottedPath(segments)} must be a finite number, got ${String(node)}; JSON cannot carry it`,
        );
      case 'forbidden-key':
        return locateProblem(
          segments,
          true,
          `the key ${String(segments[segments.length - 1])} is not allowed in a contract file`,
        );
      case 'too-deep':
        return locateProblem(segments, false, NESTING_MESSAGE);
    }
  });
}

/** Whether a keyed array repeats a key (the positional path reports it with both places). */
function hasRepeatedItemKeys(value: Record<string, unknown>): boolean {
  for (const [field, keyFields] of Object.entries(ARRAY_KEYS)) {
    const items = value[field];
    if (!Array.isArray(items)) continue;
    const seen = new Set<string>();
    for (const item of items as Record<string, unknown>[]) {
      const key = keyFields.map((k) => String(item[k])).join('\u0000');
      if (seen.has(key)) return true;
      seen.add(key);
    }
  }
  return false;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function duplicateItemProblems(
  value: Record<string, unknown>,
  doc: Document,
  pos: (offset: number) => Position,
  locateProblem: (segments: readonly Segment[], pointAtKey: boolean, message: string) => Problem,
): Problem[] {
  const problems: Problem[] = [];
  for (const [field, keyFields] of Object.entries(ARRAY_KEYS)) {
    const items = value[field];
    if (!Array.isArray(items)) continue;
    const seen = new Map<string, number>();
    items.forEach((item: unknown, index) => {
      if (item === null || typeof item !== 'object') return;
      const fields = keyFields.map((k) => (item as Record<string, unknown>)[k]);
      if (!fields.every((f) => typeof f === 'string')) return;
      const key = JSON.stringify(fields);
      const earlier = seen.get(key);
      if (earlier === undefined) {
        seen.set(key, index);
        return;
      }
      const earlierLine = pos(nodeStart(locate(doc, [field, earlier]).found.node)).line;
      const keyText = fields.join(' ');
      const lastKey = keyFields[keyFields.length - 1]!;
      problems.push(
        locateProblem(
          [field, index, lastKey],
          false,
          `${dottedPath([field, index])} repeats ${keyFields.join('+')} '${keyText}' of ${dottedPath([field, earlier])} (line ${earlierLine}); items of ${field} are matched by ${keyFields.join(' and ')}, so each must be unique`,
        ),
      );
    });
  }
  return problems;
}
