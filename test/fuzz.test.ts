// Hostile contract files: mutated and generated inputs through the loader never crash, never hang,
// and end in a loaded contract or located problems; both parse paths agree; and a set of files
// with an invalid one writes nothing. FUZZ_RUNS (default 600) sets the number of inputs;
// `npm run fuzz` runs the long version.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../src/contract/parse.js';
import { matchesSchema } from '../src/contract/schema.js';
import { cli } from './helpers/cli.js';
import { openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const root = path.resolve(import.meta.dirname, '..');
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

const inputArb: fc.Arbitrary<Uint8Array> = fc.oneof(
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

describe('hostile contract files', () => {
  it(`${RUNS} mutated and generated inputs end in a contract or located problems, never a crash or a hang`, () => {
    let invalid = 0;
    fc.assert(
      fc.property(inputArb, (bytes) => {
        const started = performance.now();
        const result = parseContract(bytes, 'fuzz.yaml');
        const slow = parseContract(bytes, 'fuzz.yaml', { fastPath: false });
        // A hang is a failure of correctness, not a speed figure: one second is far beyond any file.
        expect(performance.now() - started).toBeLessThan(1000);
        expect(result.ok).toBe(slow.ok);
        if (result.ok) {
          expect(matchesSchema(result.value.contract)).toBe(true);
          if (slow.ok) expect(result.value.contract).toEqual(slow.value.contract);
        } else {
          invalid += 1;
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) {
            expect(problem.file).toBe('fuzz.yaml');
            expect(problem.line).toBeGreaterThanOrEqual(1);
            expect(problem.column).toBeGreaterThanOrEqual(1);
            expect(typeof problem.message).toBe('string');
            expect(problem.message.length).toBeGreaterThan(5);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: RUNS, seed: 20261121 },
    );
    expect(invalid).toBeGreaterThan(RUNS / 3);
  }, 600_000);

  it('writes nothing for a set of files with one invalid file among valid ones', async () => {
    const opened = await openSandbox();
    try {
      const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token('alice') };
      const samples = fc.sample(
        inputArb.filter((bytes) => !parseContract(bytes, 'x.yaml').ok),
        { numRuns: 8, seed: 7 },
      );
      for (const bytes of samples) {
        const files: Record<string, string | Uint8Array> = { 'contracts/zz-fuzzed.yaml': bytes };
        for (const name of readdirSync(path.join(root, 'contracts')))
          files[`contracts/${name}`] = readFileSync(path.join(root, 'contracts', name));
        const dir = await tempDir(files);
        try {
          for (const args of [['plan'], ['apply', '--auto-approve']]) {
            const run = await cli(args, { cwd: dir.dir, env });
            expect(run.code).toBe(1);
            expect(run.out).toMatch(/^contracts\/zz-fuzzed\.yaml:\d+:\d+ /m);
          }
        } finally {
          await dir.remove();
        }
      }
      expect(writesAmong(opened.sandbox.requests())).toEqual([]);
    } finally {
      await opened.sandbox.close();
    }
  });
});
