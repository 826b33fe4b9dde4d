// The diff engine: exact minimal patches on the 16 edit kinds, and properties over random
// contracts (patch gives the desired state, re-diff is empty, nothing unmanaged moves).
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { editCases, liveFrom, baseContract } from '../bench/edit-kinds.js';
import { FIELD_SHAPES, MANAGED_FIELDS, type DesiredContract } from '../src/model/contract.js';
import { breakingChanges, diffContract, durationSeconds, verifyPatch } from '../src/diff/index.js';
import { copyJson, jsonEqual } from '../src/model/json-value.js';
import { longestIncreasingSubsequence } from '../src/diff/keyed-array.js';
import { noItems, project } from '../src/diff/project.js';
import {
  columnArb,
  managedFieldArbs,
  nameArb,
  semanticsArb,
  uniqueBy,
} from './helpers/arbitraries.js';

const identity = {
  name: 'orders',
  fullyQualifiedName: 'db.orders.contract',
  entity: { type: 'table', fullyQualifiedName: 'db.orders' },
};

/** Applies a patch with fast-json-patch, a second implementation next to verifyPatch's rfc6902. */
function applyIndependently(
  live: Record<string, unknown>,
  ops: unknown[],
): Record<string, unknown> {
  return jsonpatch.applyPatch(structuredClone(live), ops as jsonpatch.Operation[], true, false)
    .newDocument;
}

function managedState(
  doc: Record<string, unknown>,
  desired: DesiredContract,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of MANAGED_FIELDS) {
    if (desired[field] === undefined || noItems(doc[field], FIELD_SHAPES.get(field)!)) continue;
    if (doc[field] !== undefined) out[field] = project(doc[field], FIELD_SHAPES.get(field)!);
  }
  return out;
}

/** The managed fields a file sets, an empty list being no list (as none is). */
function wantedState(desired: DesiredContract): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of MANAGED_FIELDS)
    if (
      desired[field] !== undefined &&
      desired[field] !== null &&
      !noItems(desired[field], FIELD_SHAPES.get(field)!)
    )
      out[field] = desired[field];
  return out;
}

describe('the 16 edit kinds', () => {
  for (const size of [10, 50, 200]) {
    for (const edit of editCases(size)) {
      it(`${edit.kind} at ${size} columns matches the hand-written minimal patch`, () => {
        const ops = diffContract(edit.live, edit.desired);
        expect(ops.length).toBe(edit.minimal.length);
        expect(JSON.stringify(ops).length).toBeLessThanOrEqual(
          Math.ceil(JSON.stringify(edit.minimal).length * 1.05),
        );
        verifyPatch(edit.live, edit.desired, ops);
        expect(managedState(applyIndependently(edit.live, ops), edit.desired)).toEqual(
          wantedState(edit.desired),
        );
      });
    }
  }
  expect(editCases(10)).toHaveLength(16);
});

describe('diffContract', () => {
  const live = liveFrom(baseContract(4));

  it('leaves unmanaged fields alone', () => {
    expect(diffContract(live, { ...identity })).toEqual([]);
  });

  it('removes a field set to null', () => {
    expect(diffContract(live, { ...identity, termsOfUse: null, sla: null })).toEqual([
      { op: 'remove', path: '/sla' },
      { op: 'remove', path: '/termsOfUse' },
    ]);
  });

  it('adds a whole field the live contract lacks', () => {
    const security = { dataClassification: 'Confidential' };
    expect(diffContract(live, { ...identity, security })).toEqual([
      { op: 'add', path: '/security', value: security },
    ]);
  });

  it('creates the whole array when the live one is absent', () => {
    const owners = [{ type: 'team', name: 'sales' }];
    expect(diffContract(live, { ...identity, owners })).toEqual([
      { op: 'add', path: '/owners', value: owners },
    ]);
  });

  it('replaces a renamed item whole, keeping nothing the server added to the old one', () => {
    const ana = { type: 'user', name: 'ana', id: 'id-of-ana', href: 'http://x/ana' };
    const ben = { type: 'user', name: 'ben' };
    // Another owner in the same place: ana's id would name ana to a catalog that reads ids first.
    expect(diffContract({ ...live, owners: [ana] }, { ...identity, owners: [ben] })).toEqual([
      { op: 'replace', path: '/owners/0', value: ben },
    ]);
    // An item the server added nothing to is renamed in place, by its key alone.
    expect(
      diffContract(
        { ...live, semantics: [{ name: 'a', description: 'd' }] },
        { ...identity, semantics: [{ name: 'b', description: 'd' }] },
      ),
    ).toEqual([{ op: 'replace', path: '/semantics/0/name', value: 'b' }]);
    // The same owner keeps what the server added to it.
    expect(
      diffContract(
        { ...live, owners: [ana, ben] },
        { ...identity, owners: [ben, { type: 'user', name: 'ana' }] },
      ),
    ).toEqual([{ op: 'move', from: '/owners/0', path: '/owners/1' }]);
  });

  it('takes an empty list for no list, either way', () => {
    const none = { ...live };
    delete none.owners;
    expect(diffContract({ ...live, owners: [] }, { ...identity, owners: null })).toEqual([]);
    expect(diffContract(none, { ...identity, owners: [] })).toEqual([]);
    expect(
      diffContract({ ...live, owners: [{ type: 'team', name: 'a' }] }, { ...identity, owners: [] }),
    ).toEqual([{ op: 'remove', path: '/owners/0' }]);
  });

  it('compares types exactly', () => {
    const ops = diffContract(
      { ...live, sla: { availability: '99.9' } },
      { ...identity, sla: { availability: 99.9 } },
    );
    expect(ops).toEqual([{ op: 'replace', path: '/sla/availability', value: 99.9 }]);
  });

  it('ignores properties only the server adds and keeps them on a whole replace', () => {
    const serverSla = { refreshFrequency: 'PT1H', availability: 99, inherited: false };
    expect(
      diffContract(
        { ...live, sla: serverSla },
        { ...identity, sla: { refreshFrequency: 'PT1H', availability: 99 } },
      ),
    ).toEqual([]);
    const ops = diffContract(
      { ...live, sla: serverSla },
      { ...identity, sla: { refreshFrequency: 'P1D', availability: 98 } },
    );
    expect(ops).toEqual([
      {
        op: 'replace',
        path: '/sla',
        value: { refreshFrequency: 'P1D', availability: 98, inherited: false },
      },
    ]);
  });

  it('escapes ~ and / in keys used in paths', () => {
    const liveDoc = { ...live, extension: { 'a/b': 1 }, schema: [{ name: 'x', dataType: 'INT' }] };
    const ops = diffContract(liveDoc, {
      ...identity,
      schema: [{ name: 'x', dataType: 'INT', description: 'a~b' }],
    });
    expect(ops).toEqual([{ op: 'add', path: '/schema/0/description', value: 'a~b' }]);
  });

  it('renames a column with one replace of its name', () => {
    const liveDoc = {
      ...live,
      schema: [
        { name: 'a', dataType: 'INT' },
        { name: 'b/c', dataType: 'INT' },
        { name: 'd', dataType: 'INT' },
      ],
    };
    const ops = diffContract(liveDoc, {
      ...identity,
      schema: [
        { name: 'a', dataType: 'INT' },
        { name: 'e~f', dataType: 'INT' },
        { name: 'd', dataType: 'INT' },
      ],
    });
    expect(ops).toEqual([{ op: 'replace', path: '/schema/1/name', value: 'e~f' }]);
  });

  it('matches owners by type and name', () => {
    const liveDoc = {
      ...live,
      owners: [
        { id: 'u1', type: 'user', name: 'alice', href: 'x' },
        { id: 't1', type: 'team', name: 'alice' },
      ],
    };
    expect(
      diffContract(liveDoc, {
        ...identity,
        owners: [
          { type: 'team', name: 'alice' },
          { type: 'user', name: 'alice' },
        ],
      }),
    ).toEqual([{ op: 'move', from: '/owners/0', path: '/owners/1' }]);
  });

  it('compares a live array that cannot be keyed as a whole', () => {
    const liveDoc = { ...live, semantics: [{ name: 'a' }, { name: 'a' }] };
    expect(diffContract(liveDoc, { ...identity, semantics: [{ name: 'a' }] })).toEqual([
      { op: 'replace', path: '/semantics', value: [{ name: 'a' }] },
    ]);
  });

  it('does not modify its inputs', () => {
    const liveCopy = structuredClone(live);
    const desired = { ...baseContract(4), schema: [] };
    const desiredCopy = structuredClone(desired);
    diffContract(liveCopy, desired);
    expect(liveCopy).toEqual(live);
    expect(desired).toEqual(desiredCopy);
  });
});

describe('copyJson', () => {
  it('copies any JSON value as structuredClone does, sharing nothing with it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value);
        expect(copy).toStrictEqual(structuredClone(value));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        if (value !== null && typeof value === 'object' && Object.keys(value).length > 0)
          expect(copy).not.toBe(value);
      }),
    );
  });

  it('keeps a __proto__ key as an own property, and negative zero', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": [-0, {"b": null}]}') as {
      a: unknown[];
    };
    value.a[0] = -0;
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(Object.is(copy.a[0], -0)).toBe(true);
    (copy.a[1] as { b: unknown }).b = 1;
    expect((value.a[1] as { b: unknown }).b).toBeNull();
  });
});

describe('longestIncreasingSubsequence', () => {
  it('has the length of the quadratic reference', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), (sequence) => {
        const best = sequence.map(() => 1);
        for (let i = 0; i < sequence.length; i++)
          for (let j = 0; j < i; j++)
            if (sequence[j]! < sequence[i]!) best[i] = Math.max(best[i]!, best[j]! + 1);
        const lis = longestIncreasingSubsequence(sequence);
        expect(lis.length).toBe(Math.max(0, ...best));
        for (let k = 1; k < lis.length; k++)
          expect(sequence[lis[k]!]!).toBeGreaterThan(sequence[lis[k - 1]!]!);
      }),
      { numRuns: 1000 },
    );
  });
});

// Live and desired contracts that share most array keys, so moves, renames and edits happen.
const columnPool = uniqueBy(columnArb(), (c) => c.name, 40);
const pairArb = fc
  .record({
    pool: columnPool,
    rules: uniqueBy(semanticsArb, (s) => s.name, 6),
    liveManaged: fc.record(managedFieldArbs, { requiredKeys: [] }),
    desiredManaged: fc.record(managedFieldArbs, { requiredKeys: [] }),
    seed: fc.integer(),
    edits: fc.array(fc.record({ index: fc.nat(), description: fc.string({ maxLength: 8 }) }), {
      maxLength: 5,
    }),
    noise: fc.boolean(),
  })
  .chain(({ pool, rules, liveManaged, desiredManaged, edits, noise }) =>
    fc
      .record({
        liveColumns: fc.shuffledSubarray(pool),
        desiredColumns: fc.shuffledSubarray(pool),
        liveRules: fc.shuffledSubarray(rules),
        desiredRules: fc.shuffledSubarray(rules),
      })
      .map(({ liveColumns, desiredColumns, liveRules, desiredRules }) => {
        const desiredSchema = desiredColumns.map((c) => ({ ...c }));
        for (const edit of edits) {
          const target = desiredSchema[edit.index % Math.max(1, desiredSchema.length)];
          if (target !== undefined) target.description = edit.description;
        }
        const live: Record<string, unknown> = {
          ...identity,
          ...Object.fromEntries(Object.entries(liveManaged).filter(([, v]) => v !== null)),
          schema: liveColumns.map((c, i) =>
            noise ? { ...c, ordinalPosition: i, fullyQualifiedName: `db.orders.${c.name}` } : c,
          ),
          semantics: liveRules,
          id: 'id-1',
          version: 0.4,
          href: 'http://x/1',
          latestResult: { status: 'Success' },
          customServerField: { kept: true },
        };
        const desired: DesiredContract = {
          ...identity,
          ...desiredManaged,
          schema: desiredSchema,
          semantics: desiredRules,
        };
        return { live, desired };
      }),
  );

describe('properties', () => {
  it('the patch gives the desired managed state, and nothing else changes', () => {
    fc.assert(
      fc.property(pairArb, ({ live, desired }) => {
        const ops = diffContract(live, desired);
        const before = structuredClone(live);
        const after = verifyPatch(live, desired, ops);
        // Verification applies the patch to a copy: the live contract is left as it was.
        expect(JSON.stringify(live)).toBe(JSON.stringify(before));
        const independent = applyIndependently(live, ops);
        expect(jsonEqual(after, independent)).toBe(true);
        expect(managedState(independent, desired)).toEqual(wantedState(desired));
        for (const key of [
          'id',
          'version',
          'href',
          'latestResult',
          'customServerField',
          'name',
          'fullyQualifiedName',
          'entity',
        ]) {
          expect(independent[key]).toEqual(live[key]);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('diffing the patched contract again gives no operations', () => {
    fc.assert(
      fc.property(pairArb, ({ live, desired }) => {
        const after = applyIndependently(live, diffContract(live, desired));
        expect(diffContract(after, desired)).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('a pure reorder uses exactly n - LIS moves, also at 200 columns', () => {
    const columns = Array.from({ length: 200 }, (_, i) => ({ name: `c${i}`, dataType: 'INT' }));
    fc.assert(
      fc.property(
        fc.shuffledSubarray(columns, { minLength: 200 }),
        fc.nat({ max: 199 }),
        (shuffled, cut) => {
          const order =
            cut % 2 === 0 ? shuffled : [...columns.slice(cut), ...columns.slice(0, cut)];
          const live = { ...identity, schema: columns };
          const desired = { ...identity, schema: order };
          const ops = diffContract(live, desired);
          const positions = order.map((c) => Number(c.name.slice(1)));
          expect(ops.every((op) => op.op === 'move')).toBe(true);
          expect(ops.length).toBe(200 - longestIncreasingSubsequence(positions).length);
          verifyPatch(live, desired, ops);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('pure removals and insertions cost one operation each', () => {
    fc.assert(
      fc.property(
        columnPool,
        fc.func(fc.boolean()),
        fc.func(fc.boolean()),
        (pool, keepLive, keepDesired) => {
          const common = pool.filter((_, i) => keepLive(i) && keepDesired(i));
          const liveOnly = pool.filter((_, i) => keepLive(i) && !keepDesired(i));
          const live = { ...identity, schema: pool.filter((_, i) => keepLive(i)) };
          const desired = {
            ...identity,
            schema: pool
              .filter((_, i) => keepDesired(i) || !keepLive(i))
              .filter((c) => !liveOnly.includes(c)),
          };
          const added = (desired.schema as unknown[]).length - common.length;
          const ops = diffContract(live, desired);
          // A removal and an insertion in the same gap are a rename: one op, never more than two.
          expect(ops.length).toBeLessThanOrEqual(liveOnly.length + added);
          expect(ops.length).toBeGreaterThanOrEqual(Math.max(liveOnly.length, added));
          verifyPatch(live, desired, ops);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keys with / and ~ are escaped correctly', () => {
    fc.assert(
      fc.property(
        uniqueBy(columnArb(nameArb.filter((n) => /[~/]/.test(n))), (c) => c.name, 6),
        fc.integer(),
        (columns, seed) => {
          const rotated = columns.map((_, i) => columns[(i + Math.abs(seed)) % columns.length]!);
          const live = { ...identity, schema: columns.map((c) => ({ ...c, description: 'old' })) };
          const desired = { ...identity, schema: rotated };
          const after = applyIndependently(live, diffContract(live, desired));
          expect(managedState(after, desired)).toEqual(wantedState(desired));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('verifyPatch', () => {
  it('rejects a patch that misses the desired state', () => {
    const live = liveFrom(baseContract(3));
    expect(() => verifyPatch(live, { ...identity, description: 'new' }, [])).toThrow(
      /does not give the desired description/,
    );
  });

  it('rejects a patch that touches an unmanaged field', () => {
    const live = liveFrom(baseContract(3));
    expect(() =>
      verifyPatch(live, { ...identity }, [{ op: 'replace', path: '/termsOfUse', value: 'x' }]),
    ).toThrow(/does not manage/);
  });

  it('rejects a patch that drops a server-added property', () => {
    const live = liveFrom(baseContract(3));
    const desired = { ...identity, schema: baseContract(3).schema };
    const stripped = {
      op: 'replace' as const,
      path: '/schema/0',
      value: (desired.schema as object[])[0],
    };
    expect(() => verifyPatch(live, desired, [stripped])).toThrow(/properties the server added/);
  });

  it('rejects a patch whose operation does not apply', () => {
    const live = liveFrom(baseContract(3));
    expect(() => verifyPatch(live, { ...identity }, [{ op: 'remove', path: '/nothing' }])).toThrow(
      /does not apply/,
    );
  });
});

describe('breakingChanges', () => {
  const live = liveFrom(baseContract(4));
  it('lists every kind of breaking change', () => {
    const desired = structuredClone(baseContract(4));
    const schema = desired.schema as { name: string; dataType: string; constraint?: string }[];
    schema.splice(1, 1);
    schema[0] = { ...schema[0]!, dataType: 'VARCHAR' };
    delete schema[2]!.constraint;
    desired.semantics = [];
    desired.sla = { refreshFrequency: 'P1D', maxLatency: 'PT15M', availability: 99 };
    desired.entityStatus = 'Deprecated';
    expect(breakingChanges(live, desired)).toEqual([
      'status changed to Deprecated',
      'column col_0 type changed from BIGINT to VARCHAR',
      'column col_1 removed',
      'column col_3 constraint NOT_NULL dropped',
      'semantics rule hasOwner removed',
      'semantics rule hasDescription removed',
      'SLA availability lowered from 99.9 to 99',
      'SLA refresh frequency slowed from PT1H to P1D',
    ]);
  });

  it('tells a renamed column (same place, same type) from a removed one', () => {
    const desired = structuredClone(baseContract(4));
    const schema = desired.schema as { name: string; dataType: string }[];
    schema[1] = { ...schema[1]!, name: 'col_1_renamed' };
    expect(breakingChanges(live, desired)).toEqual([
      'column col_1 renamed to col_1_renamed (consumers reading col_1 break)',
    ]);
    // Another type in that place, or a new column elsewhere: a removal.
    schema[1] = { ...schema[1], dataType: 'TEXT' };
    expect(breakingChanges(live, desired)).toEqual(['column col_1 removed']);
    const moved = structuredClone(baseContract(4));
    const columns = moved.schema as { name: string; dataType: string }[];
    columns.splice(1, 1);
    columns.push({ name: 'col_9', dataType: 'BIGINT' });
    expect(breakingChanges(live, moved)).toEqual(['column col_1 removed']);
  });

  it('finds nothing breaking in additions and stronger SLAs', () => {
    const desired = structuredClone(baseContract(5));
    desired.sla = { refreshFrequency: 'PT30M', maxLatency: 'PT5M', availability: 99.99 };
    expect(breakingChanges(live, desired)).toEqual([]);
  });

  it('reads ISO 8601 durations', () => {
    expect(durationSeconds('PT1H')).toBe(3600);
    expect(durationSeconds('P1DT30M')).toBe(88200);
    expect(durationSeconds('P1W')).toBe(604800);
    expect(durationSeconds('PT')).toBeUndefined();
    expect(durationSeconds(5)).toBeUndefined();
  });
});
