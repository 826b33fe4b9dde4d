// The fast path of contract loading: js-yaml reads plain-enough files several times faster than
// the positional parser. Anything unusual (anchors, aliases, tags, directives, several documents,
// complex keys, number forms the two parsers might read differently, forbidden keys) and every
// file with a problem goes to the positional parser (the yaml package), which reports problems
// with exact positions. So the fast path only ever says "valid, and here it is"; positions are
// found later, with the yaml package, only when something in the file must be located.
import { CORE_SCHEMA, load } from 'js-yaml';

/**
 * YAML syntax the fast path leaves to the positional parser. A character that matters only after
 * a line start, a space or a flow indicator is found first and what precedes it checked after
 * (`(?<![^\s...])`: nothing, or one of those): the engine then skips ahead to the rare character
 * instead of trying the whole pattern at every position: a third less time than before. Each
 * pattern is a pass over the text; those of one kind and the same flags are joined, where one
 * pass over their alternatives costs less than one for each (a text holds a joined pattern
 * exactly when it holds one of its parts).
 */
const UNUSUAL = [
  /(?<![^\s[{,])[&*!|>%@`]\S/, // anchors, aliases, tags, reserved indicators (also folded/literal headers followed by text)
  new RegExp(
    [
      /\?(?<=^\s*\?)(?:\s|$)/, // complex keys
      /^(?:---|\.\.\.)(?:\s|$)/, // document markers
      /^%/, // directives
    ]
      .map((pattern) => pattern.source)
      .join('|'),
    'm',
  ),
  /\t/, // tabs: YAML rules about them are subtle
  new RegExp(
    [
      /(?<![^\s:[{,-])[-+]?(?:0[xXoObB]|\.[iI][nN][fF]|\.[nN][aA][nN]|[0-9][0-9_]*_)/, // hex, octal, binary, special floats, underscores
      /(?<![^\s:[{,])-(?:0+\.?0*|\.0+)(?:[eE][-+]?\d+)?(?=\s|$|[,\]}])/, // negative zero: one parser keeps the sign
      /(?<![^\s:[{,])[-+]?[0-9.]*[0-9][eE][-+]?[0-9]/, // exponents: read as numbers by one parser, strings (or overflow) by the other
      /(?<![^\s:[{,])[-+]\./, // a sign before a bare fraction (+.5): likewise
    ]
      .map((pattern) => pattern.source)
      .join('|'),
  ),
  /__proto__|constructor|prototype/,
];

/**
 * Keys the two parsers read apart: a flow collection as a key (js-yaml makes a string of it, the
 * yaml package refuses it), and a null key ('null' in js-yaml, '' in the yaml package). Where a
 * schema closes every mapping to the keys it names (this tool's does) such a key fails validation
 * on either path; the ODCS schema leaves many mappings open, so an ODCS document that may hold one
 * is left to the positional parser.
 */
const KEYS_READ_APART = [/[\]}]\s*:(?:\s|$)/m, /(?<![^\s{,])(?:~|null|Null|NULL)\s*:(?:\s|$)/m];

export function mayHoldKeysReadApart(text: string): boolean {
  return KEYS_READ_APART.some((pattern) => pattern.test(text));
}

/** Block scalars are ordinary in contracts (termsOfUse: |); only their header is checked. */
const BLOCK_SCALAR_HEADER = /:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$/gm;

export function isPlainEnough(text: string): boolean {
  const withoutBlockHeaders = text.replace(BLOCK_SCALAR_HEADER, ':');
  return !UNUSUAL.some((pattern) => pattern.test(withoutBlockHeaders));
}

/** js-yaml's reading of `text`, as the fast path takes it; throws what js-yaml throws. */
export function loadPlain(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA, json: false });
}

/** The document, or undefined when the fast path declines (the caller then parses positionally). */
export function fastLoad(text: string): Record<string, unknown> | undefined {
  if (!isPlainEnough(text)) return undefined;
  let value: unknown;
  try {
    value = loadPlain(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}
