// Hostile contract files for the fuzz tests: the repository's own contracts mutated byte by byte
// (YAML's tokens, anchors, tags, cut and doubled lines), JSON values written as YAML, random
// bytes and text, and alias bombs.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';

const root = path.resolve(import.meta.dirname, '..', '..');
const examples = readdirSync(path.join(root, 'contracts')).map((name) =>
  readFileSync(path.join(root, 'contracts', name)),
);

const TOKENS = [
  '&a ',
  '*a',
  '!!binary ',
  '!tag ',
  '{',
  '}',
  '[',
  ']',
  ': ',
  ':',
  '- ',
  '\t',
  '\u0000',
  '\u00ff',
  '---\n',
  '...\n',
  '? ',
  '<<: ',
  '__proto__: ',
  'constructor: ',
  "'",
  '"',
  '|',
  '>',
  '%YAML 1.2\n',
  '#',
  '\n',
  '\r\n',
  '0x1F',
  '.inf',
  '-0',
  '1_000',
  '~',
  'null',
  'true',
  '\u{1F600}',
  '\\',
  '@',
  '`',
  'name: dup\n',
  'schema: [',
  'entityStatus: Active\n',
  '  - name: x\n    dataType: INT\n',
  'sla: { availability: 101 }\n',
  '['.repeat(200),
  'a'.repeat(5000),
];

const byteArb = fc.integer({ min: 0, max: 255 });
type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'insert'; at: number; token: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number };
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: byteArb }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    token: fc.nat({ max: TOKENS.length - 1 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({
    kind: fc.constant('duplicate' as const),
    at: fc.nat(),
    length: fc.nat({ max: 200 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(base: Uint8Array, mutations: Mutation[]): Uint8Array {
  let bytes = Buffer.from(base);
  for (const m of mutations) {
    const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
    switch (m.kind) {
      case 'flip':
        if (bytes.length > 0) bytes[at % bytes.length] = m.byte;
        break;
      case 'insert':
        bytes = Buffer.concat([
          bytes.subarray(0, at),
          Buffer.from(TOKENS[m.token]!),
          bytes.subarray(at),
        ]);
        break;
      case 'delete':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
        break;
      case 'duplicate':
        bytes = Buffer.concat([bytes.subarray(0, at + m.length), bytes.subarray(at)]);
        break;
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
    }
  }
  return bytes;
}

function aliasBomb(depth: number, width: number): string {
  const lines = [`a0: &a0 [${Array.from({ length: width }, () => '"x"').join(',')}]`];
  for (let d = 1; d < depth; d++)
    lines.push(`a${d}: &a${d} [${Array.from({ length: width }, () => `*a${d - 1}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
}

export const inputArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.nat({ max: examples.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 6 }),
      )
      .map(([i, ms]) => mutate(examples[i]!, ms)),
  },
  {
    weight: 1,
    arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(stringify(value))),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((text) => Buffer.from(text)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 12 }))
      .map(([d, w]) => Buffer.from(aliasBomb(d, w))),
  },
);
