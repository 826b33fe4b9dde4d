// The fast path (js-yaml alone) for ODCS documents: a document that validates against the
// standard's schema and names its catalog asset is read without the positional parser, and gives
// exactly what the positional parser gives; anything else (problems, no asset named, keys the two
// parsers read apart) is left to the positional parser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  contractOfValidated,
  fastParseContract,
  parseContract,
  positionOf,
} from '../src/contract/parse.js';
import { fromOdcs } from '../src/contract/from-odcs.js';
import { yamlStylesArb } from './helpers/arbitraries.js';
import { expectSameAnswer as sameAnswer } from './helpers/same-answer.js';
import { keptOnlyInGit, keptOnlyInGitOf } from '../src/contract/odcs-file.js';
import { parseDocument } from 'yaml';

const examples = path.join(import.meta.dirname, 'fixtures', 'odcs-3.1.0');

/** Each of the standard's examples, named as a catalog asset (they name none as they are). */
const named = readdirSync(examples).map((name) => {
  const document = load(readFileSync(path.join(examples, name), 'utf8')) as Record<string, unknown>;
  const custom = Array.isArray(document.customProperties) ? document.customProperties : [];
  return {
    name,
    document: {
      ...document,
      customProperties: [
        ...custom,
        { property: 'catalogEntity', value: 'table:warehouse.sales.public.t' },
      ],
    },
  };
});

/** The same answer from both paths (helpers/same-answer.ts). */
function expectSameAnswer(text: string, file: string): void {
  sameAnswer(parseContract(text, file), parseContract(text, file, { fastPath: false }));
}

describe('the fast path, ODCS documents', () => {
  it("takes the standard's examples, named, and agrees with the positional parser in every style", () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.constantFrom(...named), yamlStylesArb, ({ name, document }, options) => {
        const text = stringify(document, options as unknown as Parameters<typeof stringify>[1]);
        expectSameAnswer(text, name);
        if (fastParseContract(text, name) !== undefined) taken += 1;
      }),
      { numRuns: 300 },
    );
    // Block style, plainly written, is what the fast path is for.
    for (const { name, document } of named)
      expect([name, fastParseContract(stringify(document), name) !== undefined]).toEqual([
        name,
        true,
      ]);
    expect(taken).toBeGreaterThan(50);
  });

  it('says what stays only in git as the positional reading of the document says it, in every style', () => {
    let said = 0;
    fc.assert(
      fc.property(fc.constantFrom(...named), yamlStylesArb, ({ name, document }, options) => {
        const text = stringify(document, options as unknown as Parameters<typeof stringify>[1]);
        const parsed = parseContract(text, name);
        if (!parsed.ok) return;
        const file = parsed.value;
        const positional = parseDocument(text, { uniqueKeys: false }).toJS() as Record<
          string,
          unknown
        >;
        const expected = keptOnlyInGit(file, fromOdcs(positional), (pointer) =>
          positionOf(file, pointer, false, true),
        );
        expect(keptOnlyInGitOf(file)).toEqual(expected);
        if (expected !== undefined) said += 1;
      }),
      { numRuns: 200 },
    );
    expect(said).toBeGreaterThan(50);
  });

  // Keys and values of every kind in the places the standard leaves open: the description
  // mapping, and a custom property's value. Strings that YAML may read as something else are
  // among the keys.
  const keyArb = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom(
      ...['null', 'NULL', 'Null', '~', 'true', '1', '1.0', '0x1F', '1e3', '.inf', '0o7', '1_0'],
      ...['+1', '-0', '<<', '', '-', '? a', '[a]', '{a: 1}', 'a: b', '#x', '&a', '*a'],
    ),
  );
  const openValueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.dictionary(keyArb, tie('value'), { maxKeys: 3 }),
      fc.array(tie('value'), { maxLength: 3 }),
    ),
  })).value;

  it('agrees with the positional parser on any content where the standard leaves mappings open', () => {
    const base = named.find(({ name }) => name === 'table-column.odcs.yaml')!.document;
    let taken = 0;
    fc.assert(
      fc.property(
        fc.dictionary(keyArb, openValueArb, { maxKeys: 4 }),
        openValueArb,
        yamlStylesArb,
        (description, value, options) => {
          const custom = base.customProperties as unknown[];
          const document = {
            ...base,
            description,
            customProperties: [...custom, { property: 'other', value }],
          };
          const text = stringify(document, options as unknown as Parameters<typeof stringify>[1]);
          expectSameAnswer(text, 'open.odcs.yaml');
          if (fastParseContract(text, 'open.odcs.yaml') !== undefined) taken += 1;
        },
      ),
      { numRuns: 1000, seed: 20261127 },
    );
    expect(taken).toBeGreaterThan(50);
  });

  it('reads a loaded file again as it read it', () => {
    for (const { name, document } of named) {
      const text = stringify(document);
      const parsed = parseContract(text, name);
      expect(parsed.ok).toBe(true);
      if (parsed.ok)
        expect(contractOfValidated(Buffer.from(text), name, true)).toEqual(parsed.value.contract);
    }
  });

  // The example holds no description; ODCS's is a mapping open to any key.
  const example = named.find(({ name }) => name === 'table-column.odcs.yaml')!;
  const text = stringify(example.document);
  it.each([
    ['a flow mapping as a key', 'description:\n  {a: 1}: x\n'],
    ['a flow list as a key', 'description:\n  [a, b]: x\n'],
    ['a one-item flow list as a key', 'description:\n  [purpose]: x\n'],
    ['a null key', 'description:\n  ~: x\n'],
    ['a null key, spelt out', 'description:\n  null: x\n'],
  ])('leaves %s to the positional parser, which says the same', (_name, extra) => {
    const edited = `${text}${extra}`;
    expect(fastParseContract(edited, example.name)).toBeUndefined();
    expectSameAnswer(edited, example.name);
  });

  it('leaves a document that names no asset, or has problems, to the positional parser', () => {
    const unnamed = readFileSync(path.join(examples, example.name), 'utf8');
    expect(fastParseContract(unnamed, example.name)).toBeUndefined();
    expectSameAnswer(unnamed, example.name);
    const invalid = text.replace(/^apiVersion: .*$/m, 'apiVersion: v3.1.0\nbogus: 1');
    expect(fastParseContract(invalid, example.name)).toBeUndefined();
    expectSameAnswer(invalid, example.name);
  });
});
