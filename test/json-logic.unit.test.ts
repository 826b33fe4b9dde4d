// The bounded JSON Logic engine (src/policy/json-logic.ts): it gives what json-logic-js gives on
// every rule json-logic-js runs, and no rule, over any data, takes more than its budget of steps
// (each operation, each item iterated, and the size of each value an operation is given).
import fc from 'fast-check';
import jsonLogic from 'json-logic-js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  knownOperations,
  LOGIC_BUDGET,
  LogicBudgetError,
  ruleProblem,
} from '../src/policy/json-logic.js';
import { logicRule } from './helpers/logic-rules.js';

const OPERATIONS = [...knownOperations()];

const leaf = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('a', 'b', '', 'x.y', 'x', 'y', 'current', 'accumulator', '1', 'ab'),
  fc.boolean(),
  fc.constant(null),
);
const rule = logicRule({
  leaf,
  operations: OPERATIONS,
  maxItems: 3,
  more: [
    fc.constantFrom({ var: 'x' }, { var: 'y' }, { var: 'x.y' }, { var: '' }, { var: 'current' }),
  ],
});
const data = fc.constantFrom<unknown>(
  { x: { y: [1, 2, 'a'] }, y: [3, 'b', [1]], a: 'abc' },
  { x: [1, 2, 3], y: 'hello' },
  null,
);

/** Every outcome of `run`: its value, or that it threw. */
function outcome(run: () => unknown): { value: unknown } | { threw: true } {
  try {
    return { value: run() };
  } catch {
    return { threw: true };
  }
}

describe('the bounded JSON Logic engine', () => {
  it("gives json-logic-js's value on every rule json-logic-js runs", () => {
    let compared = 0;
    fc.assert(
      fc.property(rule, data, (logic, input) => {
        const theirs = outcome(() => jsonLogic.apply(logic as jsonLogic.RulesLogic, input));
        // Where json-logic-js throws (a TypeError of its own), this engine may give a value.
        if ('threw' in theirs) return;
        compared += 1;
        expect(
          outcome(() => evaluate(logic, input)),
          JSON.stringify(logic),
        ).toStrictEqual(theirs);
      }),
      { numRuns: 5000, seed: 20261127 },
    );
    expect(compared).toBeGreaterThan(4000);
  });

  it('stops every rule that would take long or build much at its budget, at once', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => i);
    const ten = list(10);
    const bombs: [string, unknown, unknown][] = [
      [
        'ten nested maps over ten items',
        Array.from({ length: 10 }).reduce<unknown>((inner) => ({ map: [ten, inner] }), 1),
        {},
      ],
      [
        'a list that doubles on each item (reduce, merge)',
        {
          reduce: [
            { var: 'l' },
            { merge: [[{ var: 'accumulator' }], [{ var: 'accumulator' }]] },
            [1],
          ],
        },
        { l: list(60) },
      ],
      [
        'a string that doubles on each item (reduce, cat)',
        { reduce: [{ var: 'l' }, { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'x'] },
        { l: list(60) },
      ],
      [
        'a long list compared item by item against a long list',
        { all: [{ var: 'l' }, { in: [{ var: '' }, { merge: [ten, ten, ten, ten] }] }] },
        { l: list(1_000_000).map(() => 1) },
      ],
    ];
    for (const [what, logic, input] of bombs) {
      const started = performance.now();
      let thrown: unknown;
      try {
        evaluate(logic, input);
      } catch (error) {
        thrown = error;
      }
      expect(LogicBudgetError.is(thrown), what).toBe(true);
      expect((thrown as Error).message).toBe(
        'it needs more than 100,000 steps to evaluate, the limit of one evaluation',
      );
      expect(performance.now() - started, what).toBeLessThan(2000);
    }
    expect(LOGIC_BUDGET).toBe(100_000);
  });

  it('runs a rule of real size over a contract of a thousand columns within its budget', () => {
    const schema = Array.from({ length: 1000 }, (_, i) => ({
      name: `column_${i}`,
      dataType: 'VARCHAR',
      description: 'A column with a description of some length, as columns have.',
      tags: [{ tagFQN: 'PII.Sensitive' }],
    }));
    const logic = {
      all: [
        { var: 'contract.schema' },
        { and: [{ '!!': { var: 'description' } }, { in: ['PII', { var: 'tags.0.tagFQN' }] }] },
      ],
    };
    expect(evaluate(logic, { contract: { schema } })).toBe(true);
    // An object is compared whole: a live contract of ten thousand columns costs its keys.
    const live = { name: 'c', schema: Array.from({ length: 10 }, () => schema).flat() };
    expect(evaluate({ '!=': [{ var: 'live' }, null] }, { live })).toBe(true);
    expect(evaluate({ '!!': { var: 'live.name' } }, { live })).toBe(true);
  });

  it('says where a rule is too deep, too large, or uses an operation it may not', () => {
    const known = knownOperations();
    const deep = Array.from({ length: 40 }).reduce<unknown>((inner) => ({ '!': inner }), true);
    expect(ruleProblem(deep, known)).toEqual({
      at: Array.from({ length: 32 }, () => '!'),
      message: 'the rule nests deeper than 32 levels here, the limit of a rule; make it flatter',
    });
    expect(ruleProblem({ in: [1, Array.from({ length: 1200 }, () => 0)] }, known)).toEqual({
      at: [],
      message:
        'the rule holds more than 1000 values, the limit of a rule; split it or make it simpler',
    });
    expect(ruleProblem({ and: [true, { log: 'x' }] }, known)).toEqual({
      at: ['and', 1, 'log'],
      message:
        'unknown operation log: a rule may use the operations of JSON Logic listed in docs/gates.md',
      unknown: 'log',
    });
    expect(ruleProblem({ and: [{ '!!': { var: 'contract.owners' } }] }, known)).toBeUndefined();
  });

  it('runs the operations docs/gates.md lists, and no other', () => {
    const gates = readFileSync(path.join(import.meta.dirname, '..', 'docs', 'gates.md'), 'utf8');
    const paragraph = gates.slice(
      gates.indexOf("A rule may use JSON Logic's own operations:"),
      gates.indexOf('`var` reads the data'),
    );
    const listed = [...paragraph.matchAll(/`([^`]+)`/g)].map(([, op]) => op!);
    expect(listed.filter((op) => op !== 'log').sort()).toEqual([...knownOperations()].sort());
  });

  it('reads only the data, not what every value inherits', () => {
    expect(evaluate({ var: 'contract.constructor' }, { contract: {} })).toBeNull();
    expect(evaluate({ var: 'name.length' }, { name: 'abc' })).toBe(3);
  });
});
