// The fastest path of contract loading: a reader for the plain block YAML that nearly every
// contract file is written in (nested block mappings and sequences, plain and quoted one-line
// scalars, literal block scalars, one-line flow collections of scalars). It reads a file in one
// pass over its lines, records the top-level keys' positions as it goes, and resolves scalars
// exactly as YAML 1.2's core schema does. Anything else (anchors, tags, multi-line plain or quoted
// scalars, folded blocks, escapes beyond the common ones, number forms that parsers read
// differently, odd keys, odd characters) makes it decline, and the caller falls back to the next
// parser. It never reports a problem: a declined file is read again by a parser that can.
import type { Position } from './positions.js';

/** Thrown when the reader declines: one shared instance (no stack to capture), caught below. */
const DECLINE = new Error('not plain enough for the plain reader');

/**
 * The end of a plain key starting at `start` (`start` itself when there is none). Keys accepted
 * are identifier-like words, [A-Za-z_][A-Za-z0-9_.$-]*, which the core schema reads as strings.
 */
function keyEnd(line: string, start: number): number {
  const first = line.charCodeAt(start) | 32; // lower case for letters
  if (!((first >= 97 && first <= 122) || line.charCodeAt(start) === 95)) return start;
  let i = start + 1;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    const lower = c | 32;
    if (
      !(lower >= 97 && lower <= 122) &&
      !(c >= 48 && c <= 57) &&
      c !== 95 && // _
      c !== 46 && // .
      c !== 36 && // $
      c !== 45 // -
    )
      break;
  }
  return i;
}
const NON_STRING_KEYS = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  '__proto__',
  'constructor',
  'prototype',
]);

/** Characters that make the whole file go to another parser. */
const UNUSUAL_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029\ufeff]/;

/** Numbers read the same way by every parser: plain decimal integers and fractions. */
const SAFE_INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const SAFE_FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
const NEGATIVE_ZERO = /^-0(?:\.0*)?$/;
/** Anything the core schema might read as a number (or infinity, NaN) that is not one of those. */
const NUMBER_LIKE =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** Escaped characters in double-quoted scalars that JSON reads exactly as YAML does. */
const ESCAPED = '"\\/bfnrt';
const JSON_COMPATIBLE_ESCAPE = new Set(
  Array.from({ length: ESCAPED.length }, (_, i) => ESCAPED.charCodeAt(i)),
);

export interface PlainDocument {
  value: Record<string, unknown>;
  /** Positions of the top-level keys, by JSON pointer. */
  positions: Map<string, Position>;
}

/** Short values seen so far (column names, types, constraints repeat across files). */
const SHORT_VALUES = new Map<string, string>();
const MAX_SHORT_VALUES = 50_000;

/**
 * `part`, shared with earlier files when it is a short value seen before: contracts stay in memory
 * for a whole plan, a plan may hold ten thousand of them, and their column names, types and
 * constraints repeat (a quarter less memory for the benchmark's files).
 */
function keep(part: string): string {
  if (part.length >= 13) return part;
  const seen = SHORT_VALUES.get(part);
  if (seen !== undefined) return seen;
  if (SHORT_VALUES.size < MAX_SHORT_VALUES) SHORT_VALUES.set(part, part);
  return part;
}

/** Top-level pointers and line-start positions, shared by every file (read-only). */
const POINTERS = new Map<string, string>();
const LINE_STARTS: Position[] = [];

function topLevelPointer(name: string): string {
  let pointer = POINTERS.get(name);
  if (pointer === undefined) {
    pointer = `/${name}`;
    if (POINTERS.size < MAX_SHORT_VALUES) POINTERS.set(name, pointer);
  }
  return pointer;
}

/** Lines whose start position is shared; a key further down gets its own. */
const MAX_SHARED_LINE = 10_000;

function lineStart(line: number): Position {
  if (line > MAX_SHARED_LINE) return { line, column: 1 };
  return (LINE_STARTS[line] ??= Object.freeze({ line, column: 1 }));
}

function decline(): never {
  throw DECLINE;
}

/** A plain scalar (already trimmed, non-empty) resolved by the core schema. */
function resolvePlain(text: string): unknown {
  switch (text) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  const first = text.charCodeAt(0);
  // Only text starting with a digit, a sign or a dot can be a number.
  if ((first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46) {
    if (NEGATIVE_ZERO.test(text)) decline();
    if (SAFE_INT.test(text) || SAFE_FLOAT.test(text)) return Number(text);
    if (NUMBER_LIKE.test(text)) decline();
  }
  return keep(text);
}

function isSpaceOrEnd(text: string, index: number): boolean {
  return index >= text.length || text.charCodeAt(index) === 32;
}

/** What may follow a scalar on its line: spaces, then nothing or a comment. */
function restIsBlank(text: string, from: number): boolean {
  let i = from;
  while (i < text.length && text.charCodeAt(i) === 32) i++;
  return i === text.length || (text.charCodeAt(i) === 35 /* # */ && i > from);
}

/** A one-line double-quoted scalar starting at `start`; returns the value and the end index. */
function doubleQuoted(line: string, start: number): [string, number] {
  let i = start + 1;
  let escaped = false;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92 /* \ */) {
      // Only the escapes JSON reads exactly as YAML does.
      if (!JSON_COMPATIBLE_ESCAPE.has(line.charCodeAt(i + 1))) decline();
      escaped = true;
      i++;
    } else if (c === 34 /* " */) break;
  }
  if (i >= line.length) decline(); // continues on the next line
  const raw = line.slice(start, i + 1);
  if (!escaped) return [keep(raw.slice(1, -1)), i + 1];
  try {
    return [JSON.parse(raw) as string, i + 1];
  } catch {
    return decline();
  }
}

/** A one-line single-quoted scalar starting at `start`; returns the value and the end index. */
function singleQuoted(line: string, start: number): [string, number] {
  let i = start + 1;
  let doubled = false;
  for (; i < line.length; i++) {
    if (line.charCodeAt(i) === 39 /* ' */) {
      if (line.charCodeAt(i + 1) === 39) {
        doubled = true;
        i++;
      } else break;
    }
  }
  if (i >= line.length) decline();
  const inner = line.slice(start + 1, i);
  return [doubled ? inner.replace(/''/g, "'") : keep(inner), i + 1];
}

/** A plain scalar in block context: up to a comment, trimmed; declines what could be a mapping. */
function blockPlain(line: string, start: number): unknown {
  let end = line.indexOf(' #', start);
  if (end === -1) end = line.length;
  while (end > start && line.charCodeAt(end - 1) === 32) end--;
  const text = line.slice(start, end);
  if (text.includes(': ') || text.endsWith(':')) decline();
  return resolvePlain(text);
}

/**
 * Characters that may not start a plain scalar (YAML indicators), plus ones left to others; a
 * dash may start one when no space follows it (`-5`, `-x`).
 */
function startsUnusually(line: string, index: number): boolean {
  switch (line.charCodeAt(index)) {
    case 45: // -
      return isSpaceOrEnd(line, index + 1);

    case 63: // ?
    case 58: // :
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 35: // #
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 37: // %
    case 64: // @
    case 96: // `
      return true;
    default:
      return false;
  }
}

/** A scalar inside a one-line flow collection; returns the value and the index after it. */
function flowScalar(line: string, start: number): [unknown, number] {
  const c = line.charCodeAt(start);
  if (c === 34) return doubleQuoted(line, start);
  if (c === 39) return singleQuoted(line, start);
  if (startsUnusually(line, start)) decline();
  let end = start;
  for (; end < line.length; end++) {
    const d = line.charCodeAt(end);
    if (d === 44 || d === 93 || d === 125) break; // , ] }
    if (d === 58 || d === 35 || d === 91 || d === 123) decline(); // : # [ {
  }
  let trimmed = end;
  while (trimmed > start && line.charCodeAt(trimmed - 1) === 32) trimmed--;
  if (trimmed === start) decline();
  return [resolvePlain(line.slice(start, trimmed)), end];
}

function skipSpaces(line: string, index: number): number {
  let i = index;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return i;
}

/** A one-line flow sequence `[a, b]` or mapping `{k: v}` of scalars, ending the line. */
function flowCollection(line: string, start: number): unknown {
  const mapping = line.charCodeAt(start) === 123;
  const close = mapping ? 125 : 93;
  const result: unknown = mapping ? {} : [];
  let i = skipSpaces(line, start + 1);
  if (line.charCodeAt(i) === close) {
    if (!restIsBlank(line, i + 1)) decline();
    return result;
  }
  for (;;) {
    if (mapping) {
      const keyStop = keyEnd(line, i);
      if (keyStop === i) decline();
      const name = line.slice(i, keyStop);
      i = keyStop;
      if (NON_STRING_KEYS.has(name) || line.charCodeAt(i) !== 58 || !isSpaceOrEnd(line, i + 1))
        decline();
      if (Object.hasOwn(result as object, name)) decline();
      const [value, end] = flowScalar(line, skipSpaces(line, i + 1));
      (result as Record<string, unknown>)[name] = value;
      i = end;
    } else {
      const [value, end] = flowScalar(line, i);
      (result as unknown[]).push(value);
      i = end;
    }
    i = skipSpaces(line, i);
    const c = line.charCodeAt(i);
    if (c === close) {
      if (!restIsBlank(line, i + 1)) decline();
      return result;
    }
    if (c !== 44) decline();
    i = skipSpaces(line, i + 1);
    if (line.charCodeAt(i) === close) decline(); // a trailing comma
  }
}

class PlainReader {
  readonly lines: string[];
  index = 0;
  readonly positions = new Map<string, Position>();

  constructor(text: string) {
    this.lines = text.split('\n');
  }

  /** Moves to the next line with content and returns its indentation, or -1 at the end. */
  nextIndent(): number {
    const lines = this.lines;
    for (; this.index < lines.length; this.index++) {
      const line = lines[this.index]!;
      const indent = skipSpaces(line, 0);
      if (indent === line.length || line.charCodeAt(indent) === 35) continue;
      return indent;
    }
    return -1;
  }

  /** The value after `key:` or `- ` at `start` of the current line, whose owner is at `indent`. */
  inlineValue(line: string, start: number, indent: number): unknown {
    const c = line.charCodeAt(start);
    let value: unknown;
    if (c === 34 || c === 39) {
      const [text, end] = c === 34 ? doubleQuoted(line, start) : singleQuoted(line, start);
      if (!restIsBlank(line, end)) decline(); // e.g. a quoted key
      value = text;
    } else if (c === 91 || c === 123) {
      value = flowCollection(line, start);
    } else if (c === 124) {
      return this.literalBlock(line, start, indent);
    } else if (startsUnusually(line, start)) {
      return decline();
    } else value = blockPlain(line, start);
    this.index++;
    return value;
  }

  /** A literal block scalar (`|` or `|-`) whose header is at `start`. */
  literalBlock(line: string, start: number, indent: number): string {
    let i = start + 1;
    const strip = line.charCodeAt(i) === 45;
    if (strip) i++;
    if (!restIsBlank(line, i)) decline(); // keep (+), indentation indicators
    const lines = this.lines;
    const body: string[] = [];
    let contentIndent = -1;
    let j = this.index + 1;
    for (; j < lines.length; j++) {
      const text = lines[j]!;
      const spaces = skipSpaces(text, 0);
      if (text.length === 0) {
        body.push('');
        continue;
      }
      // Lines of spaces only are read in subtly different ways; other parsers handle them.
      if (spaces === text.length) decline();
      if (contentIndent === -1) {
        if (spaces <= indent) break;
        contentIndent = spaces;
      } else if (spaces < contentIndent) break;
      body.push(text.slice(contentIndent));
    }
    if (contentIndent === -1) decline(); // an empty block
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    this.index = j;
    const joined = body.join('\n');
    return strip ? joined : `${joined}\n`;
  }

  /** The block value under a key or dash whose line held nothing else. */
  nestedValue(ownerIndent: number, allowSameIndentSequence: boolean): unknown {
    this.index++;
    const indent = this.nextIndent();
    if (indent === -1) return null;
    const line = this.lines[this.index]!;
    const isDash = line.charCodeAt(indent) === 45 && isSpaceOrEnd(line, indent + 1);
    if (indent > ownerIndent) return isDash ? this.sequence(indent, -1) : this.mapping(indent, -1);
    if (indent === ownerIndent && isDash && allowSameIndentSequence)
      return this.sequence(indent, -1);
    return null;
  }

  /**
   * A block mapping whose keys are at `indent`. When `firstAt` is not -1 the first key is on the
   * current line at that index, after a sequence dash.
   */
  mapping(indent: number, firstAt: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    let start = firstAt;
    for (;;) {
      if (start === -1) {
        const at = this.nextIndent();
        if (at < indent) return result;
        if (at > indent) decline();
        start = at;
      }
      const line = this.lines[this.index]!;
      const colon = keyEnd(line, start);
      if (colon === start) decline();
      const name = line.slice(start, colon);
      if (
        NON_STRING_KEYS.has(name) ||
        line.charCodeAt(colon) !== 58 ||
        !isSpaceOrEnd(line, colon + 1)
      )
        decline();
      if (Object.hasOwn(result, name)) decline(); // the positional parser reports it
      if (indent === 0) this.positions.set(topLevelPointer(name), lineStart(this.index + 1));
      const valueAt = skipSpaces(line, colon + 1);
      result[name] =
        valueAt === line.length || line.charCodeAt(valueAt) === 35
          ? this.nestedValue(indent, true)
          : this.inlineValue(line, valueAt, indent);
      start = -1;
    }
  }

  /**
   * A block sequence whose dashes are at `indent`. When `firstAt` is not -1 the first dash is on
   * the current line at that index, after an outer sequence's dash.
   */
  sequence(indent: number, firstAt: number): unknown[] {
    const result: unknown[] = [];
    let at = firstAt;
    for (;;) {
      if (at === -1) {
        at = this.nextIndent();
        if (at < indent) return result;
        if (at > indent) decline();
      }
      const line = this.lines[this.index]!;
      if (line.charCodeAt(at) !== 45 || !isSpaceOrEnd(line, at + 1)) return result; // a key follows
      const contentAt = skipSpaces(line, at + 1);
      at = -1;
      if (contentAt === line.length || line.charCodeAt(contentAt) === 35) {
        result.push(this.nestedValue(indent, false));
        continue;
      }
      if (line.charCodeAt(contentAt) === 45 && isSpaceOrEnd(line, contentAt + 1)) {
        result.push(this.sequence(contentAt, contentAt));
        continue;
      }
      const afterKey = keyEnd(line, contentAt);
      if (
        afterKey > contentAt &&
        line.charCodeAt(afterKey) === 58 &&
        isSpaceOrEnd(line, afterKey + 1)
      )
        result.push(this.mapping(contentAt, contentAt));
      else result.push(this.inlineValue(line, contentAt, indent));
    }
  }
}

/**
 * The document in `text` with its top-level key positions, or undefined when the file is not
 * plain enough for this reader (the caller then uses another parser).
 */
export function readPlainYaml(text: string): PlainDocument | undefined {
  if (!text.endsWith('\n') || UNUSUAL_CHARACTERS.test(text)) return undefined;
  const reader = new PlainReader(text);
  try {
    if (reader.nextIndent() !== 0) return undefined;
    const value = reader.mapping(0, -1);
    if (reader.nextIndent() !== -1) return undefined;
    return { value, positions: reader.positions };
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}
