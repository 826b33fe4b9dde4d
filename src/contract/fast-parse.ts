// The fast path of contract loading: most contract files are plain block YAML, and js-yaml parses
// those about ten times faster than the positional parser. Anything unusual (anchors, aliases,
// tags, directives, several documents, complex keys, number forms the two parsers might read
// differently, forbidden keys) and every file with a problem goes to the positional parser, which
// reports problems with exact positions. So the fast path only ever says "valid, and here it is".
import { CORE_SCHEMA, load } from 'js-yaml';
import type { Position } from './parse.js';

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

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
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
const ITEM = /^(\s*)-(\s+)(\S)?/;
const CHILD_KEY = /^(\s+)((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#:'"-][^:#]*?)):(?:\s|$)/;

/**
 * Positions of top-level keys and of their direct children (sequence items and mapping keys), as
 * the positional parser records them, read from block-style YAML line by line. Flow-style
 * children are not found; lookups then fall back to the top-level key.
 */
export function scanPositions(text: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  const lines = text.split('\n');
  let top: string | null = null;
  // The first line under a top-level key says whether its value is a sequence or a mapping, and
  // at which indent its direct children stand; deeper lines are not children.
  let mode: 'unknown' | 'sequence' | 'mapping' = 'unknown';
  let indent = -1;
  let items = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const topMatch = TOP_KEY.exec(line);
    if (topMatch !== null && !line.startsWith(' ') && !line.startsWith('-')) {
      top = `/${escapePointer(plainKey(topMatch[1]!))}`;
      positions.set(top, { line: i + 1, column: 1 });
      mode = 'unknown';
      indent = -1;
      items = 0;
      continue;
    }
    if (top === null) continue;
    const item = ITEM.exec(line);
    const child = CHILD_KEY.exec(line);
    if (mode === 'unknown') {
      if (item !== null) {
        mode = 'sequence';
        indent = item[1]!.length;
      } else if (child !== null) {
        mode = 'mapping';
        indent = child[1]!.length;
      } else continue;
    }
    if (mode === 'sequence' && item !== null && item[1]!.length === indent) {
      if (item[3] !== undefined)
        positions.set(`${top}/${items}`, { line: i + 1, column: indent + 1 + 1 + item[2]!.length });
      items += 1;
    } else if (mode === 'mapping' && child !== null && child[1]!.length === indent) {
      positions.set(`${top}/${escapePointer(plainKey(child[2]!))}`, {
        line: i + 1,
        column: indent + 1,
      });
    }
  }
  return positions;
}
