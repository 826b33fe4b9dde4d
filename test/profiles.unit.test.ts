// Catalog profiles, without a catalog: durations, the codecs (checked by properties), the names
// OpenMetadata refuses and the references a patch carries by id. Plan, apply and the refusals over
// HTTP against the sandbox in both profiles: profiles.test.ts.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { DesiredContract } from '../src/model/contract.js';
import { parseContract } from '../src/contract/parse.js';
import { openMetadataCodec, specCodec, storageProblems } from '../src/profile/codec.js';
import { durationText, toUnits, type DurationUnit } from '../src/profile/durations.js';
import {
  namedReferences,
  operationsWithIds,
  referenceKey,
  storedReferenceIds,
} from '../src/profile/references.js';
import { wireArb } from './helpers/openmetadata-arbitraries.js';

describe('durations', () => {
  const refresh: DurationUnit[] = ['hour', 'day', 'week', 'month', 'year'];
  const latency: DurationUnit[] = ['minute', 'hour', 'day'];
  it('keep the unit they are written in, or the smallest one that holds them exactly', () => {
    expect(toUnits('PT12H', refresh)).toEqual({ ok: true, amount: 12, unit: 'hour' });
    expect(toUnits('PT24H', refresh)).toEqual({ ok: true, amount: 24, unit: 'hour' });
    expect(toUnits('P1D', refresh)).toEqual({ ok: true, amount: 1, unit: 'day' });
    expect(toUnits('P1DT12H', refresh)).toEqual({ ok: true, amount: 36, unit: 'hour' });
    expect(toUnits('PT45M', latency)).toEqual({ ok: true, amount: 45, unit: 'minute' });
    expect(toUnits('P1W', latency)).toEqual({ ok: true, amount: 7, unit: 'day' });
    expect(toUnits('P1Y2M', ['day', 'week', 'month', 'year'])).toEqual({
      ok: true,
      amount: 14,
      unit: 'month',
    });
  });
  it('refuse what no allowed unit holds exactly, with the nearest ones', () => {
    expect(toUnits('PT90M', refresh)).toMatchObject({ ok: false, suggestions: ['PT1H', 'PT2H'] });
    expect(toUnits('P1M', latency)).toMatchObject({ ok: false });
    expect(toUnits('P1MT1H', refresh)).toMatchObject({ ok: false });
  });
  it('property: an amount and unit written as text maps back to itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(...refresh), (n, unit) => {
        expect(toUnits(durationText(n, unit), refresh)).toEqual({ ok: true, amount: n, unit });
      }),
    );
  });
});
const identity = {
  name: 'c',
  fullyQualifiedName: 'db.s.t.dataContract_c',
  entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
};
describe('codecs', () => {
  it('spec: the file is the wire', () => {
    const contract = { ...identity, sla: { refreshFrequency: 'PT1H', availability: 99 } };
    expect(specCodec.toWire(contract)).toBe(contract);
  });

  it('openmetadata, property: fromWire then toWire gives back every value OpenMetadata stores', () => {
    fc.assert(
      fc.property(wireArb, (wire) => {
        const model = openMetadataCodec.fromWire({ ...identity, ...wire });
        const back = openMetadataCodec.toWire(model as DesiredContract);
        for (const field of Object.keys(wire))
          expect(back[field], field).toEqual(wire[field as keyof typeof wire]);
      }),
      { numRuns: 300 },
    );
  });

  it('openmetadata, property: a file that round-trips through YAML has no problems and maps back to itself', () => {
    fc.assert(
      fc.property(wireArb, (wire) => {
        const model = openMetadataCodec.fromWire({ ...identity, ...wire });
        const parsed = parseContract(stringify(model), 'c.yaml');
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(openMetadataCodec.unstorable(parsed.value.contract)).toEqual([]);
        const back = openMetadataCodec.toWire(parsed.value.contract);
        for (const field of Object.keys(wire))
          expect(back[field]).toEqual(wire[field as keyof typeof wire]);
      }),
      { numRuns: 200 },
    );
  });

  it('openmetadata: an accessPolicy is written as one of policies; a string termsOfUse as {content}', () => {
    expect(
      openMetadataCodec.toWire({
        ...identity,
        termsOfUse: 'Internal.',
        security: { dataClassification: 'PII', accessPolicy: 'pii-restricted' },
      }),
    ).toMatchObject({
      termsOfUse: { content: 'Internal.' },
      security: { dataClassification: 'PII', policies: [{ accessPolicy: 'pii-restricted' }] },
    });
  });

  it('each profile locates what it cannot store, naming what it can', () => {
    const text = `name: c\nfullyQualifiedName: db.s.t.dataContract_c\nentity: {type: table, fullyQualifiedName: db.s.t}\nentityStatus: Active\nschema:\n  - {name: id, dataType: BIGNT}\nsemantics:\n  - name: hasOwner\nsla:\n  refreshFrequency: PT90M\n  availability: 99.9\n  timezone: Europe/Paris\n`;
    const parsed = parseContract(text, 'c.yaml');
    if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
    const problems = storageProblems(
      parsed.value,
      openMetadataCodec.unstorable(parsed.value.contract),
    ).map((p) => `${p.line}:${p.column} ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(
        /^4:15 entityStatus Active is not a status OpenMetadata stores; use one of Draft, In Review, Approved, Archived, Deprecated, Rejected, Unprocessed \(Approved is the status in force\)$/,
      ),
      '11:17 sla.availability is not stored by OpenMetadata (it has no availability percentage); remove it',
      expect.stringMatching(
        /^10:21 sla.refreshFrequency PT90M cannot be stored by OpenMetadata.*did you mean PT1H or PT2H\?$/,
      ),
      expect.stringMatching(
        /^12:13 sla.timezone 'Europe\/Paris' is not one of OpenMetadata's time zones/,
      ),
      "6:26 schema[0].dataType BIGNT is not one of OpenMetadata's data types; did you mean BIGINT?",
      expect.stringMatching(
        /^8:5 semantics rule hasOwner needs description, rule, enabled for OpenMetadata/,
      ),
    ]);
    const other = parseContract(
      `${text.split('schema:')[0]!.replace('Active', 'Approved')}sla:\n  retention: P30D\n`,
      'c.yaml',
    );
    if (!other.ok) throw new Error(other.problems[0]!.message);
    const spec = storageProblems(other.value, specCodec.unstorable(other.value.contract));
    expect(spec.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
      '4:15 entityStatus Approved is not a status this catalog (spec profile) stores; use one of Draft, Active, Deprecated',
      expect.stringMatching(/^6:14 sla.retention is not stored by this catalog \(spec profile/),
    ]);
  });
});
describe('names OpenMetadata refuses', () => {
  it('a name holding "::" is located for openmetadata, stored by the spec', () => {
    const text = `name: a::b\nfullyQualifiedName: db.s.t.dataContract_a::b\nentity: {type: table, fullyQualifiedName: db.s.t}\n`;
    const parsed = parseContract(text, 'c.yaml');
    if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
    const problems = (codec: typeof openMetadataCodec) =>
      storageProblems(parsed.value, codec.unstorable(parsed.value.contract)).map(
        (p) => `${p.line}:${p.column} ${p.message}`,
      );
    expect(problems(openMetadataCodec)).toEqual([
      '1:7 name a::b holds "::", which OpenMetadata does not allow in a name; choose a name without it',
    ]);
    expect(problems(specCodec)).toEqual([]);
  });
});
describe('references by id', () => {
  it('puts ids on the references a patch adds, whole lists or single items, and leaves the rest', () => {
    const ids = new Map([
      [referenceKey('team', 'data'), 'team-id'],
      [referenceKey('testCase', 'db.s.t.id.ok'), 'case-id'],
    ]);
    const team = { type: 'team', name: 'data', fullyQualifiedName: 'data' };
    const stranger = { type: 'user', name: 'eve', fullyQualifiedName: 'eve' };
    expect(
      operationsWithIds(
        [
          { op: 'add', path: '/owners', value: [team, stranger] },
          { op: 'add', path: '/reviewers/-', value: team },
          {
            op: 'replace',
            path: '/qualityExpectations/0',
            value: { fullyQualifiedName: 'db.s.t.id.ok', type: 'testCase' },
          },
          { op: 'remove', path: '/owners/1' },
          { op: 'replace', path: '/description', value: team },
        ],
        ids,
      ),
    ).toEqual([
      { op: 'add', path: '/owners', value: [{ id: 'team-id', ...team }, stranger] },
      { op: 'add', path: '/reviewers/-', value: { id: 'team-id', ...team } },
      {
        op: 'replace',
        path: '/qualityExpectations/0',
        value: { id: 'case-id', fullyQualifiedName: 'db.s.t.id.ok', type: 'testCase' },
      },
      { op: 'remove', path: '/owners/1' },
      { op: 'replace', path: '/description', value: team },
    ]);
  });

  it('reads the ids a stored contract carries, and every reference a file names', () => {
    const stored = {
      owners: [{ id: 'u1', type: 'user', name: 'ann', fullyQualifiedName: 'ann' }],
      qualityExpectations: [{ id: 't1', type: 'testCase', fullyQualifiedName: 'a.b' }],
    };
    expect([...storedReferenceIds(stored)]).toEqual([
      [referenceKey('user', 'ann'), 'u1'],
      [referenceKey('testCase', 'a.b'), 't1'],
    ]);
    expect(
      namedReferences({
        owners: [{ type: 'team', name: 'x' }],
        reviewers: [{ type: 'user', name: 'y' }],
        qualityExpectations: [{ fullyQualifiedName: 'a.b' }],
      }),
    ).toEqual([
      { field: 'owners', index: 0, type: 'team', fullyQualifiedName: 'x' },
      { field: 'reviewers', index: 0, type: 'user', fullyQualifiedName: 'y' },
      { field: 'qualityExpectations', index: 0, type: 'testCase', fullyQualifiedName: 'a.b' },
    ]);
  });
});
