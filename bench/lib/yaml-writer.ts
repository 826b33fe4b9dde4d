// The bench's contract files as the yaml package's `stringify` writes them (block style, its
// default quoting), without building its document: a tenth of the time, which the 100,000 files
// of the largest row need. It knows only what the generated contracts hold (mappings, sequences of
// mappings, short one-line strings, numbers, and one line of text ending in a newline); anything
// else it refuses, and generate.ts compares its text with the yaml package's now and then.

/** A string the yaml package writes plain in block context: no indicator, `: ` or ` #`. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_.,() -]*[A-Za-z0-9_.)]$|^[A-Za-z_]$/;
/** Strings YAML 1.2's core schema reads as something else than a string. */
const RESERVED = /^(?:true|false|null|True|False|Null|TRUE|FALSE|NULL|~)$/;
/** What the yaml package writes double-quoted with nothing escaped. */
const QUOTABLE = /^[\x20-\x7e]*$/;
/**
 * Longer strings may be folded across lines (lineWidth 80 less the indentation): refused rather
 * than folded here.
 */
const LONGEST = 70;

function refuse(what: string): never {
  throw new Error(`yaml-writer: cannot write ${what}`);
}

function scalar(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return refuse(typeof value);
  if (value.length > LONGEST) return refuse(`a string of ${value.length} characters`);
  if (value.endsWith('\n') && !value.slice(0, -1).includes('\n'))
    return refuse('a block scalar here');
  if (PLAIN.test(value) && !RESERVED.test(value) && !value.includes(': ')) return value;
  if (QUOTABLE.test(value) && !value.includes('"') && !value.includes('\\')) return `"${value}"`;
  return refuse(`the string ${JSON.stringify(value)}`);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` after `key:` at `indent`, lines ending in a newline. */
function entry(key: string, value: unknown, indent: string): string {
  if (!/^[A-Za-z]+$/.test(key)) return refuse(`the key ${JSON.stringify(key)}`);
  if (isMapping(value)) return `${indent}${key}:\n${mapping(value, `${indent}  `)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return refuse('an empty sequence');
    return `${indent}${key}:\n${value.map((item) => sequenceItem(item, `${indent}  `)).join('')}`;
  }
  if (typeof value === 'string' && value.endsWith('\n') && !value.slice(0, -1).includes('\n')) {
    if (value.length > LONGEST || value.startsWith(' ')) return refuse('this block scalar');
    return `${indent}${key}: |\n${indent}  ${value}`;
  }
  return `${indent}${key}: ${scalar(value)}\n`;
}

function mapping(value: Record<string, unknown>, indent: string): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return refuse('an empty mapping');
  return keys.map((key) => entry(key, value[key], indent)).join('');
}

/** A mapping as an item of a sequence: its first entry on the dash's line. */
function sequenceItem(item: unknown, indent: string): string {
  if (!isMapping(item)) return refuse('a sequence of other than mappings');
  const inner = mapping(item, `${indent}  `);
  return `${indent}- ${inner.slice(indent.length + 2)}`;
}

/** The document `stringify(contract)` of the yaml package gives, for the bench's contracts. */
export function contractYaml(contract: Record<string, unknown>): string {
  return mapping(contract, '');
}
