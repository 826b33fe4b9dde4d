// Hostile settings files (a pull request's .contracts.yaml): generated policies — patterns of
// regular expression syntax, JSON Logic rules with any operation, known or not — written in
// YAML, then mutated, and alias bombs, read as the command line reads them. Each ends in located
// problems or in settings whose policies compile and are checked on a contract, never in a throw,
// and each within a second. FUZZ_RUNS (default 600) sets the number of inputs.
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { knownOperations } from '../src/policy/json-logic.js';
import { breaches, compilePolicies } from '../src/policy/policies.js';
import { loadSettings } from '../src/settings/settings-file.js';
import { logicRule } from './helpers/logic-rules.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const dir = mkdtempSync(path.join(tmpdir(), 'contracts-settings-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pattern made of regular expression syntax, valid or not. */
const pattern = fc
  .array(
    fc.constantFrom(
      ...['(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '^', '$', '.', '\\', 'a', 'z', '0'],
      ...['{2}', '{1000}', '{2,}', '(?=', '(?!', '(?<=', '(?<name>', '\\1', '\\d', '\\p{L}', 'a+'],
      ...['(a+)+', '[a-z]', '(?i)', ':', ',', '-'],
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((parts) => parts.join(''));

const OPERATIONS = [...knownOperations(), 'log', 'isOwner', 'length', 'nope.nope', ''];
const leaf = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('contract.name', 'contract.owners', 'live', 'asset.piiColumns', '', 'x'),
  fc.boolean(),
  fc.constant(null),
);
const rule = logicRule({ leaf, operations: OPERATIONS, maxItems: 4 });

const policy = fc.oneof(
  pattern.map((p) => ({ use: 'name-pattern', pattern: p })),
  fc.constantFrom({ use: 'owner-required' }, { use: 'sla-floor', refreshFrequency: 'P1D' }),
  rule.map((r) => ({ name: 'fuzzed', rule: r, severity: 'error', message: 'it holds' })),
);

/** A generated settings file, mutated a little: bytes cut, doubled or dropped. */
const text = fc
  .tuple(
    fc.array(policy, { minLength: 1, maxLength: 4 }),
    fc.constantFrom<'block' | 'flow'>('block', 'flow'),
    // Half of the files as written, half mutated.
    fc.oneof(
      fc.constant([]),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('cut', 'double', 'drop')), {
        minLength: 1,
        maxLength: 2,
      }),
    ),
  )
  .map(([policies, style, mutations]) => {
    let written = stringify(
      { policies },
      style === 'flow' ? { collectionStyle: 'flow' } : { lineWidth: 0 },
    );
    for (const [at, how] of mutations) {
      const i = at % Math.max(written.length, 1);
      written =
        how === 'cut'
          ? written.slice(0, i)
          : how === 'double'
            ? written.slice(0, i) + written.slice(i - 1 < 0 ? 0 : i - 1)
            : written.slice(0, i) + written.slice(i + 1);
    }
    return written;
  });

/** A chain of anchors in a rule, each a list of `width` aliases of the one before. */
const bomb = fc
  .tuple(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 2, max: 12 }))
  .map(([depth, width]) => {
    const lines = ['      a0: &a0 ["x"]'];
    for (let d = 1; d < depth; d++)
      lines.push(
        `      a${d}: &a${d} [${Array(width)
          .fill(`*a${d - 1}`)
          .join(', ')}]`,
      );
    return `policies:\n  - name: bomb\n    severity: error\n    message: m\n    rule:\n${lines.join('\n')}\n`;
  });

const contract = {
  name: `${'a'.repeat(60)}!`,
  fullyQualifiedName: 'db.s.t.dataContract_x',
  entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
  owners: [{ type: 'user', name: 'alice' }],
};

describe('hostile settings files', () => {
  it(`${RUNS} generated, mutated and bombed files end in located problems or working policies, at once`, () => {
    let refused = 0;
    let checked = 0;
    let run = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: bomb }), (t) => {
        const file = path.join(dir, `${(run += 1)}.yaml`);
        writeFileSync(file, t);
        const started = performance.now();
        const loaded = loadSettings(dir, file);
        if (loaded.ok) {
          const checks = compilePolicies(loaded.settings.policies ?? []);
          for (const breach of breaches(checks, {
            contract: contract,
            live: null,
            asset: { piiColumns: [] },
          }))
            expect(breach.message).toMatch(/^policy /);
          checked += 1;
        } else {
          refused += 1;
          for (const problem of loaded.problems) {
            expect(problem.file).toBe(`${run}.yaml`);
            expect(problem.line).toBeGreaterThanOrEqual(1);
            expect(problem.column).toBeGreaterThanOrEqual(1);
            expect(problem.message.length).toBeGreaterThan(5);
          }
        }
        expect(performance.now() - started).toBeLessThan(1000);
      }),
      { numRuns: RUNS, seed: 20261128 },
    );
    // Both ends are reached: files refused, and files whose policies ran.
    expect(refused).toBeGreaterThan(RUNS / 10);
    expect(checked).toBeGreaterThan(RUNS / 10);
  }, 600_000);
});
