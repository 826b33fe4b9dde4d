// Hostile contract files: mutated and generated inputs through the loader never crash, never hang,
// and end in a loaded contract or located problems; both parse paths agree. FUZZ_RUNS (default
// 600) sets the number of inputs; `npm run fuzz` runs the long version. That a set of files with
// an invalid one writes nothing: fuzz.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../src/contract/parse.js';
import { matchesSchema } from '../src/contract/schema.js';
import { inputArb } from './helpers/hostile-contract-files.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

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
});
