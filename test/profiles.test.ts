// Catalog profiles: one contract file, translated to the spec's shapes or to a real OpenMetadata
// 1.10+ server's, chosen by asking the catalog. Codecs are checked by properties; plan, apply and
// the refusals over HTTP against the sandbox in both profiles.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesiredContract } from '../src/contract/model.js';
import { parseContract } from '../src/contract/parse.js';
import { openMetadataCodec, specCodec } from '../src/profile/codec.js';
import { durationText, toUnits, type DurationUnit } from '../src/profile/durations.js';
import { profileForVersion } from '../src/profile/profile.js';
import type { Sandbox } from '../src/sandbox/server.js';
import { cli } from './helpers/cli.js';
import { openSandbox, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

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

describe('profile from the version', () => {
  it('1.10 and later are OpenMetadata; older servers and other answers the spec', () => {
    expect(profileForVersion('1.13.0')).toBe('openmetadata');
    expect(profileForVersion('1.10.2')).toBe('openmetadata');
    expect(profileForVersion('2.0.0')).toBe('openmetadata');
    expect(profileForVersion('1.9.12')).toBe('spec');
    expect(profileForVersion('unknown')).toBe('spec');
  });
});

/** A wire value in OpenMetadata's shapes for every field the codec translates. */
const wireArb = fc.record(
  {
    sla: fc.record(
      {
        refreshFrequency: fc.record({
          interval: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('hour', 'day', 'week', 'month', 'year'),
        }),
        maxLatency: fc.record({
          value: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('minute', 'hour', 'day'),
        }),
        retention: fc.record({
          period: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('day', 'week', 'month', 'year'),
        }),
        availabilityTime: fc.constantFrom('09:00 UTC', '06:30'),
        timezone: fc.constantFrom('GMT+01:00 (Europe/Paris)', 'GMT+00:00 (Europe/London)'),
        columnName: fc.constantFrom('updated_at', 'loaded_at'),
      },
      { requiredKeys: [] },
    ),
    termsOfUse: fc.record({ content: fc.string() }),
    security: fc.record(
      {
        dataClassification: fc.constantFrom('Confidential', 'Public'),
        policies: fc.uniqueArray(
          fc.record(
            {
              accessPolicy: fc.string({ minLength: 1 }),
              identities: fc.array(fc.string()),
              rowFilters: fc.array(
                fc.record({
                  columnName: fc.string({ minLength: 1 }),
                  values: fc.array(fc.string()),
                }),
              ),
            },
            { requiredKeys: ['accessPolicy'] },
          ),
          { selector: (p) => p.accessPolicy, maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
    owners: fc.uniqueArray(
      fc
        .record({ type: fc.constantFrom('user', 'team'), name: fc.string({ minLength: 1 }) })
        .map((ref) => ({ ...ref, fullyQualifiedName: ref.name })),
      { selector: (r) => `${r.type}/${r.name}`, maxLength: 3 },
    ),
    qualityExpectations: fc.uniqueArray(
      fc.record({ fullyQualifiedName: fc.string({ minLength: 1 }), type: fc.constant('testCase') }),
      { selector: (r) => r.fullyQualifiedName, maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

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
        expect(openMetadataCodec.problems(parsed.value)).toEqual([]);
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
    const problems = openMetadataCodec
      .problems(parsed.value)
      .map((p) => `${p.line}:${p.column} ${p.message}`);
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
    const spec = specCodec.problems(other.value);
    expect(spec.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
      '4:15 entityStatus Approved is not a status this catalog (spec profile) stores; use one of Draft, Active, Deprecated',
      expect.stringMatching(/^6:14 sla.retention is not stored by this catalog \(spec profile/),
    ]);
  });
});
