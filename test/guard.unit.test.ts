// Guards: a patch sent to the catalog tests the version it was planned against, the key of every
// keyed array item it addresses by index and each text, number or boolean it overwrites, so it
// applies exactly as planned or not at all.
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { editCases } from '../bench/edit-kinds.js';
import { changesOf, diffContract, guardPatch, type Operation } from '../src/diff/index.js';
import type { DesiredContract } from '../src/model/contract.js';
import { describePatch } from '../src/plan/describe-patch.js';
import { arbitraryContract } from './helpers/arbitraries.js';

/** fast-json-patch, an implementation of its own: the document after `ops`, or the error. */
function applied(live: object, ops: readonly Operation[]): { doc?: unknown; error?: string } {
  try {
    return {
      doc: jsonpatch.applyPatch(structuredClone(live), ops as jsonpatch.Operation[], true, false)
        .newDocument,
    };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

const live = {
  id: 'c1',
  name: 'shipments',
  version: 0.3,
  schema: [
    { name: 'id', dataType: 'BIGINT' },
    { name: 'carrier', dataType: 'VARCHAR' },
    { name: 'eta', dataType: 'DATE' },
  ],
  semantics: [{ name: 'hasOwner' }],
};
const desired = {
  name: 'shipments',
  fullyQualifiedName: 'db.s.shipments.contract',
  entity: { type: 'table', fullyQualifiedName: 'db.s.shipments' },
  schema: [
    { name: 'id', dataType: 'BIGINT' },
    { name: 'eta', dataType: 'TIMESTAMP' },
  ],
  semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
};

/** Contract `a` at `version` (its nulls left out), and `b` made a target for it. */
function startAndTarget(a: DesiredContract, b: DesiredContract, version: number) {
  const start = { ...Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null)), version };
  const target = { ...b, name: a.name, fullyQualifiedName: a.fullyQualifiedName, entity: a.entity };
  return { start, target };
}

describe('guarded patches', () => {
  it('test the version first, the key of each item before the operation that addresses it by index, and each text they overwrite', () => {
    const changes = diffContract(live, desired);
    expect(guardPatch(live, changes)).toEqual([
      { op: 'test', path: '/version', value: 0.3 },
      { op: 'test', path: '/schema/1/name', value: 'carrier' },
      { op: 'remove', path: '/schema/1' },
      { op: 'test', path: '/schema/1/name', value: 'eta' },
      { op: 'test', path: '/schema/1/dataType', value: 'DATE' },
      { op: 'replace', path: '/schema/1/dataType', value: 'TIMESTAMP' },
      { op: 'add', path: '/semantics/-', value: { name: 'hasDescription' } },
    ]);
    expect(changesOf(guardPatch(live, changes))).toEqual(changes);
  });

  it('the same guarded patch a second time is refused, where the bare patch would delete a column nobody named', () => {
    // The plan of the report: remove the middle column, append a rule.
    const plan = {
      ...desired,
      schema: [live.schema[0], live.schema[2]],
    };
    const patch = guardPatch(live, diffContract(live, plan));
    const once = applied(live, patch).doc as typeof live;
    expect(once.schema.map((c) => c.name)).toEqual(['id', 'eta']);
    const twice = applied({ ...once, version: 0.3 }, patch);
    expect(twice.error).toBe('TEST_OPERATION_FAILED');
    // Without guards the second application removes 'eta' and appends the rule again.
    const bare = applied({ ...once }, changesOf(patch)).doc as typeof live;
    expect(bare.schema.map((c) => c.name)).toEqual(['id']);
    expect(bare.semantics).toHaveLength(3);
  });

  it('a contract whose version moved refuses the whole patch', () => {
    const patch = guardPatch(live, diffContract(live, desired));
    expect(applied({ ...live, version: 0.4 }, patch).error).toBe('TEST_OPERATION_FAILED');
  });

  it('keys of owners and reviewers are both tested', () => {
    const withOwners = {
      ...live,
      owners: [
        { type: 'user', name: 'ann' },
        { type: 'team', name: 'data' },
      ],
    };
    const patch = guardPatch(withOwners, [{ op: 'remove', path: '/owners/0' }]);
    expect(patch).toEqual([
      { op: 'test', path: '/version', value: 0.3 },
      { op: 'test', path: '/owners/0/type', value: 'user' },
      { op: 'test', path: '/owners/0/name', value: 'ann' },
      { op: 'remove', path: '/owners/0' },
    ]);
  });

  it('every edit kind: the guarded patch applies to the live contract exactly as the bare one', () => {
    for (const edit of editCases(20)) {
      const changes = diffContract(edit.live, edit.desired);
      const guarded = guardPatch(edit.live, changes);
      expect(changesOf(guarded), edit.kind).toEqual(changes);
      expect(applied(edit.live, guarded), edit.kind).toEqual(applied(edit.live, changes));
    }
  });

  it('property: guards hold on the contract they were made for, and do not change its result', () => {
    fc.assert(
      fc.property(
        arbitraryContract(),
        arbitraryContract(),
        fc.double({ min: 0.1, max: 9, noNaN: true }),
        (a, b, version) => {
          const { start, target } = startAndTarget(a, b, version);
          const changes = diffContract(start, target);
          const guarded = guardPatch(start, changes);
          expect(applied(start, guarded)).toEqual(applied(start, changes));
          if (changes.length > 0)
            expect(applied({ ...start, version: version + 1 }, guarded).error).toBe(
              'TEST_OPERATION_FAILED',
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('guarded patches, when the version did not move', () => {
  // OpenMetadata folds one user's changes within ten minutes into one version: another writer's
  // change then leaves the version as the plan read it.
  it('property: a text, number or boolean the patch overwrites, changed by another writer, refuses the whole patch', () => {
    let checked = 0;
    fc.assert(
      fc.property(arbitraryContract(), arbitraryContract(), (a, b) => {
        const { start, target } = startAndTarget(a, b, 0.2);
        const changes = diffContract(start, target);
        const guarded = guardPatch(start, changes);
        const touched = new Set<string>();
        for (const op of changes) {
          const member = op.path.split('/')[1]!;
          const untouched = !touched.has(member);
          touched.add(member);
          if (op.op === 'move') touched.add(op.from.split('/')[1]!);
          if (!untouched || (op.op !== 'replace' && op.op !== 'remove')) continue;
          if (['owners', 'reviewers', 'qualityExpectations', 'extension'].includes(member))
            continue;
          const old: unknown = jsonpatch.getValueByPointer(start, op.path);
          if (old !== null && typeof old === 'object') continue;
          const theirs = jsonpatch.applyOperation(
            structuredClone(start),
            { op: 'replace', path: op.path, value: `${String(old)}, theirs` },
            false,
            false,
          ).newDocument;
          expect(applied(theirs, guarded).error, op.path).toBe('TEST_OPERATION_FAILED');
          checked += 1;
        }
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});

describe('plan lines', () => {
  it('a column with two changed properties reads as one line per property, by the column name', () => {
    const desiredTwo = {
      ...desired,
      schema: [
        { name: 'id', dataType: 'BIGINT' },
        { name: 'carrier', dataType: 'VARCHAR' },
        { name: 'eta', dataType: 'TIMESTAMP', description: 'Expected arrival.' },
      ],
    };
    const changes = diffContract(live, desiredTwo);
    expect(changes).toEqual([
      {
        op: 'replace',
        path: '/schema/2',
        value: { name: 'eta', dataType: 'TIMESTAMP', description: 'Expected arrival.' },
      },
      { op: 'add', path: '/semantics/-', value: { name: 'hasDescription' } },
    ]);
    expect(describePatch(live, changes)).toEqual([
      { symbol: '~', field: 'schema["eta"].dataType', before: 'DATE', after: 'TIMESTAMP' },
      { symbol: '+', field: 'schema["eta"].description', after: 'Expected arrival.' },
      {
        symbol: '+',
        field: 'semantics["hasDescription"]',
        after: { name: 'hasDescription' },
        position: 'after "hasOwner"',
      },
    ]);
  });

  it('says where an added item goes among the live ones', () => {
    const base = { ...live, schema: [{ name: 'id', dataType: 'BIGINT' }] };
    const lines = describePatch(base, [
      { op: 'add', path: '/schema/0', value: { name: 'first', dataType: 'INT' } },
      { op: 'add', path: '/schema/-', value: { name: 'last', dataType: 'INT' } },
      { op: 'add', path: '/schema/2', value: { name: 'between', dataType: 'INT' } },
    ]);
    expect(lines.map((line) => [line.field, line.position])).toEqual([
      ['schema["first"]', 'first'],
      ['schema["last"]', 'after "id"'],
      ['schema["between"]', 'after "id"'],
    ]);
    // A list that was empty or absent: no place to name.
    const empty = describePatch({ ...live, schema: [] }, [
      { op: 'add', path: '/schema/0', value: { name: 'only', dataType: 'INT' } },
    ]);
    expect(empty[0]!.position).toBeUndefined();
  });
});
