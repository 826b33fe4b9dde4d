// The plain YAML reader against the `yaml` package (the positional parser's engine): on every
// text it accepts it must give the same value, under the core schema, and the same top-level key
// lines; on text it cannot read exactly it must decline, never guess.
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readPlainYaml } from '../src/contract/plain-yaml.js';

function reference(text: string): { ok: boolean; value?: unknown; lines?: Map<string, number> } {
  const doc = parseDocument(text, {
    schema: 'core',
    uniqueKeys: true,
    strict: true,
    merge: false,
    prettyErrors: false,
  });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return { ok: false };
  const lines = new Map<string, number>();
  const contents = doc.contents as { items?: { key: { value: unknown; range?: number[] } }[] };
  for (const pair of contents?.items ?? []) {
    const offset = pair.key.range?.[0] ?? 0;
    lines.set(String(pair.key.value), text.slice(0, offset).split('\n').length);
  }
  return { ok: true, value: doc.toJS(), lines };
}

/** Accepted means: the reference reads it without a problem, to the same value and key lines. */
function expectAgreement(text: string): boolean {
  const plain = readPlainYaml(text);
  if (plain === undefined) return false;
  const expected = reference(text);
  expect({ text, ok: expected.ok }).toEqual({ text, ok: true });
  expect(plain.value).toStrictEqual(expected.value);
  const lines = new Map([...plain.positions].map(([pointer, p]) => [pointer.slice(1), p.line]));
  expect(lines).toEqual(expected.lines);
  return true;
}

const awkwardStrings = fc.constantFrom(
  '',
  ' ',
  'a b',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '#a',
  '- a',
  '-a',
  '-5',
  '-0',
  '-0.0',
  '+1',
  '.5',
  '1.',
  '1e3',
  '0x1F',
  '0o17',
  '007',
  '1_000',
  '.inf',
  '.NaN',
  'null',
  'Null',
  '~',
  'true',
  'False',
  'yes',
  'on',
  '12:30',
  '2026-11-21',
  "it's",
  'say "hi"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'trailing ',
  ' leading',
  '[a]',
  '{a}',
  '*alias',
  '&anchor',
  '!tag',
  '|',
  '>',
  '%',
  '@',
  '`',
  '?',
  'é ünïcödé ✓',
  '\u2028',
  '\u0085',
  '12345678901234567890',
  '0.1000000000000000055511151231257827',
);

const scalarArb = fc.oneof(
  // Ordinary text, with the characters that make YAML scalars tricky mixed in.
  { weight: 8, arbitrary: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9 ._:#'"\\/-]{0,14}$/) },
  { weight: 1, arbitrary: awkwardStrings },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const keyArb = fc.oneof(
  { weight: 20, arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/) },
  { weight: 1, arbitrary: awkwardStrings },
);

const { value: valueArb } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: scalarArb },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(keyArb, tie('value'), { maxKeys: 4 }) },
  ),
}));

const documentArb = fc.dictionary(keyArb, valueArb, { minKeys: 1, maxKeys: 6 });

const styleArb = fc.record({
  collectionStyle: fc.constantFrom('block', 'block', 'flow', 'any'),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL'),
  defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
  indent: fc.constantFrom(2, 3, 4),
  indentSeq: fc.boolean(),
  lineWidth: fc.constantFrom(0, 20, 80),
  minContentWidth: fc.constantFrom(0, 20),
});

/** Small edits that push a valid text towards the edges of what YAML allows. */
const editArb = fc.record({
  at: fc.nat(),
  insert: fc.constantFrom(
    ' ',
    '  ',
    '\n',
    '\n\n',
    '# c\n',
    ' # c',
    ':',
    ': ',
    '-',
    '- ',
    '"',
    "'",
    '|',
    '|-',
    '|+',
    '>',
    '[',
    ']',
    '{',
    '}',
    ',',
    '#',
    '\\',
    '\\u00e9',
    '\t',
    '\r',
    '&a ',
    '*a',
    '!!str ',
    '---\n',
    '...\n',
    '? ',
    'key: value\n',
    '  nested: 1\n',
    '- item\n',
  ),
  remove: fc.nat({ max: 3 }),
});

function applyEdits(text: string, edits: { at: number; insert: string; remove: number }[]): string {
  let out = text;
  for (const edit of edits) {
    const at = edit.at % (out.length + 1);
    out = out.slice(0, at) + edit.insert + out.slice(at + edit.remove);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

describe('plain YAML reader', () => {
  it('reads what the yaml package reads, the same way, for documents written in every style', () => {
    let accepted = 0;
    fc.assert(
      fc.property(documentArb, styleArb, (doc, style) => {
        let text: string;
        try {
          text = stringify(doc, style as unknown as Parameters<typeof stringify>[1]);
        } catch {
          return;
        }
        if (expectAgreement(text)) accepted += 1;
      }),
      { numRuns: 6000, seed: 20261121 },
    );
    // A reader that declined everything would pass the checks above; it must accept most.
    expect(accepted).toBeGreaterThan(500);
  });

  it('never accepts an edited text that it reads differently from the yaml package', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        documentArb,
        fc.array(editArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (doc, edits, indentSeq) => {
          const text = applyEdits(stringify(doc, { indentSeq, lineWidth: 0 }), edits);
          if (expectAgreement(text)) accepted += 1;
        },
      ),
      { numRuns: 8000, seed: 11 },
    );
    expect(accepted).toBeGreaterThan(350);
  });

  it.each([
    [
      'the usual contract shapes',
      'a: 1\nb:\n  c: x\n  d:\n    - e: 1\n      f: [a, b]\n    - g\ns:\n- {type: team, name: x-y}\n- "q"\n',
    ],
    [
      'comments everywhere',
      '# head\na: 1 # one\n\n  # indented comment\nb:\n  # before\n  - x # item\n',
    ],
    ['literal blocks', 'a: |\n  one\n\n  two\n\n\nb: |-\n  x\n  # not a comment\nc: |\n    deep\n'],
    ['a literal block at the end of the file', 'a: |\n  last\n\n'],
    ['quoted text', 'a: "x: y # z"\nb: \'it\'\'s\'\nc: "tab\\tnew\\nline \\"q\\" \\\\ \\/"\n'],
    ['numbers', 'a: 0\nb: -12\nc: 1.5\nd: -0.25\ne: 123456789012345\n'],
  ])('%s: accepted, same value', (_name, text) => {
    expect(expectAgreement(text)).toBe(true);
  });

  it.each([
    ['an anchor', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a folded block', 'a: >\n  x\n'],
    ['a keep block', 'a: |+\n  x\n\n'],
    ['a multi-line quoted scalar', 'a: "one\n  two"\n'],
    ['a \\u escape', 'a: "\\u00e9"\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a key that is not a string', 'true: 1\n'],
    ['a hex number', 'a: 0x10\n'],
    ['an exponent', 'a: 1e3\n'],
    ['negative zero', 'a: -0\n'],
    ['a document marker', '---\na: 1\n'],
    ['CRLF line ends', 'a: 1\r\n'],
    ['a tab', 'a:\t1\n'],
    ['no final line break', 'a: 1'],
    ['a top-level sequence', '- a\n'],
    ['a nested flow collection', 'a: [b, [c]]\n'],
    ['a trailing comma', 'a: [b, ]\n'],
    ['a prototype key', '__proto__: 1\n'],
  ])('declines %s', (_name, text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });
});
