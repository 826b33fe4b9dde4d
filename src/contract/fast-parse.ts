// The second fast path of contract loading, for plain-enough files the plain reader
// (plain-yaml.ts) declines: js-yaml parses them about ten times faster than the positional parser. Anything unusual (anchors, aliases,
// tags, directives, several documents, complex keys, number forms the two parsers might read
// differently, forbidden keys) and every file with a problem goes to the positional parser, which
// reports problems with exact positions. So the fast path only ever says "valid, and here it is".
import { CORE_SCHEMA, load } from 'js-yaml';
import { escapePointer, type Position } from './positions.js';

/** YAML syntax the fast path leaves to the positional parser. */
const UNUSUAL = [
  /(?:^|[\s[{,])[&*!|>%@`]\S/m, // anchors, aliases, tags, reserved indicators (also folded/literal headers followed by text)
  /^\s*\?(?:\s|$)/m, // complex keys
  /^(?:---|\.\.\.)(?:\s|$)/m, // document markers
  /^%/m, // directives
  /\t/, // tabs: YAML rules about them are subtle
  /(?:^|[\s:[{,-])[-+]?(?:0[xob]|\.(?:inf|nan)|[0-9][0-9_]*_)/im, // hex, octal, binary, special floats, underscores
  /__proto__|constructor|prototype/,
  /(?:^|[\s:[{,])-(?:0+\.?0*|\.0+)(?:[eE][-+]?\d+)?(?=\s|$|[,\]}])/m, // negative zero: one parser keeps the sign
  /(?:^|[\s:[{,])[-+]?[0-9.]*[0-9][eE][-+]?[0-9]/m, // exponents: read as numbers by one parser, strings (or overflow) by the other
  /(?:^|[\s:[{,])[-+]\./m, // a sign before a bare fraction (+.5): likewise
];

/** Block scalars are ordinary in contracts (termsOfUse: |); only their header is checked. */
const BLOCK_SCALAR_HEADER = /:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$/gm;

export function isPlainEnough(text: string): boolean {
  const withoutBlockHeaders = text.replace(BLOCK_SCALAR_HEADER, ':');
  return !UNUSUAL.some((pattern) => pattern.test(withoutBlockHeaders));
}

/** The document, or undefined when the fast path declines (the caller then parses positionally). */
export function fastLoad(text: string): Record<string, unknown> | undefined {
  if (!isPlainEnough(text)) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA, json: false });
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}

function plainKey(raw: string): string {
  const key = raw.trim();
  if ((key.startsWith('"') && key.endsWith('"')) || (key.startsWith("'") && key.endsWith("'"))) {
    try {
      return key.startsWith('"')
        ? (JSON.parse(key) as string)
        : key.slice(1, -1).replace(/''/g, "'");
    } catch {
      return key.slice(1, -1);
    }
  }
  return key;
}

const TOP_KEY = /^((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#:'"][^:#]*?)):(?:\s|$)/;

/**
 * Positions of the top-level keys, as the positional parser records them, read line by line
 * (only lines that start at column 1 are looked at).
 */
export function scanPositions(text: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  let lineNumber = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNumber += 1;
    const first = text.charCodeAt(start);
    const lineStart = start;
    start = end + 1;
    // Indented lines, list items, comments and blank lines hold no top-level key.
    if (
      first === 32 ||
      first === 45 /* - */ ||
      first === 35 /* # */ ||
      first === 13 ||
      first === 10 ||
      lineStart >= end
    )
      continue;
    const topMatch = TOP_KEY.exec(text.slice(lineStart, end));
    if (topMatch !== null)
      positions.set(`/${escapePointer(plainKey(topMatch[1]!))}`, { line: lineNumber, column: 1 });
  }
  return positions;
}
