// What a YAML syntax error says, at its line and column: a sentence of this tool's, chosen by the
// yaml package's error code, never the package's own message, which may quote the text at the
// error ("Unexpected scalar token in YAML stream: \"basic c2Vj...\""). A file read by mistake (a
// credential's file) must not have its content copied into a log, a summary or a comment.
import type { YAMLError } from 'yaml';

/** The package's messages that quote nothing of the file, kept as they are written. */
const FIXED_MESSAGES = new Set([
  'Implicit keys need to be on a single line',
  'Implicit map keys need to be followed by map values',
  'Nested mappings are not allowed in compact mappings',
  'A block sequence may not be used as an implicit map key',
  'All sequence items must start at the same column',
  'Missing closing "quote',
  "Missing closing 'quote",
  'Sequence item without - indicator',
  'Comments must be separated from other tokens by white space characters',
  'Tags and anchors must be separated from the next token by white space',
  'A node can have at most one anchor',
  'A node can have at most one tag',
  'An alias node must not specify any properties',
  'Map keys must be unique',
  'Tabs are not allowed as indentation',
]);

/** By code, what is wrong, in words of this tool's. */
const BY_CODE: Readonly<Record<string, string>> = {
  ALIAS_PROPS: 'an alias cannot have an anchor or a tag',
  BAD_ALIAS: 'an anchor or alias name is empty or ends in a colon',
  BAD_COLLECTION_TYPE: 'a tag here does not fit the kind of value',
  BAD_DIRECTIVE: 'a directive (a line that starts with %) is not valid',
  BAD_DQ_ESCAPE: 'an escape sequence in a double-quoted string is not valid',
  BAD_INDENT: 'the indentation here does not match the lines around it',
  BAD_PROP_ORDER: 'an anchor or a tag is out of place',
  BAD_SCALAR_START: 'a plain value cannot start with this character; quote the value',
  BLOCK_AS_IMPLICIT_KEY: 'a mapping or a list cannot be a key here',
  BLOCK_IN_FLOW: 'a block mapping or list cannot be inside [ ] or { }',
  DUPLICATE_KEY: 'each key may appear once in a mapping',
  KEY_OVER_1024_CHARS: 'a key is over 1024 characters long',
  MISSING_CHAR: 'a character is missing here (a quote, a comma, a colon or a space)',
  MULTILINE_IMPLICIT_KEY: 'a key must be on a single line',
  MULTIPLE_ANCHORS: 'a node can have at most one anchor',
  MULTIPLE_DOCS: 'the file holds more than one YAML document',
  MULTIPLE_TAGS: 'a node can have at most one tag',
  NON_STRING_KEY: 'keys must be plain strings',
  RESOURCE_EXHAUSTION: 'the file expands to far too much data',
  TAB_AS_INDENT: 'a tab in the indentation: YAML indents with spaces only',
  TAG_RESOLVE_FAILED: 'a tag here is not allowed',
  UNEXPECTED_TOKEN: 'unexpected text here: YAML does not allow it at this place',
};

/** What is wrong at a YAML error's position, quoting nothing of the file. */
export function syntaxReason(error: Pick<YAMLError, 'code' | 'message'>): string {
  const first = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
  if (FIXED_MESSAGES.has(first)) return first;
  return BY_CODE[error.code] ?? 'the text here is not valid YAML';
}

/** The yaml package's codes of an error a line indented out of step with its neighbours causes. */
const INDENT_CODES: ReadonlySet<string> = new Set([
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'MULTILINE_IMPLICIT_KEY',
]);

/**
 * For a syntax error on line `line` (1-based) that a misindented line causes, that line and one
 * plain sentence naming both indentations; undefined for any other error, or when no such line is
 * found. The errors after it follow from it.
 */
export function misindentation(
  error: Pick<YAMLError, 'code'>,
  text: string,
  line: number,
): { line: number; message: string } | undefined {
  if (!INDENT_CODES.has(error.code)) return undefined;
  const lines = text.split(/\r?\n/);
  const indent = (i: number): number => /^ */.exec(lines[i]!)![0].length;
  const blank = (i: number): boolean => /^\s*(#.*)?$/.test(lines[i]!);
  let wrong: number | undefined;
  let beside: number | undefined;
  if (error.code === 'BAD_INDENT') {
    // The line itself starts out of step with the key above it.
    wrong = line - 1;
    for (let i = wrong - 1; i >= 0; i -= 1)
      if (!blank(i)) {
        beside = i;
        break;
      }
  } else {
    // A key whose next line is indented deeper, as if the key's value were a mapping.
    beside = line - 1;
    for (let i = line; i < lines.length; i += 1)
      if (!blank(i)) {
        if (indent(i) > indent(beside)) wrong = i;
        break;
      }
  }
  if (wrong === undefined || beside === undefined || wrong >= lines.length) return undefined;
  // In step after all: the error comes from something else on the lines (an unclosed bracket).
  if (indent(wrong) === indent(beside)) return undefined;
  const spaces = (n: number): string => `${n} space${n === 1 ? '' : 's'}`;
  return {
    line: wrong + 1,
    message: `this line is indented by ${spaces(indent(wrong))} where the line ${beside + 1} above it is indented by ${spaces(indent(beside))}: keys of one mapping start at the same column, and a mapping as a value starts on the line after its key (the syntax errors after it follow from it, and are not listed)`,
  };
}
