// fast-check generators of valid contracts (as files hold them) and of server-side noise.
import fc from 'fast-check';
import type { DesiredContract } from '../../src/model/contract.js';

/** Names with the characters that JSON Pointer must escape. */
/** The ways the yaml package may write a document: every style a contract file may be in. */
export const yamlStylesArb = fc.record({
  collectionStyle: fc.constantFrom('block', 'flow', 'any'),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
});

export const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z~/][a-z0-9_~/ .]{0,8}$/) },
);

/** Data types of both profiles (OpenMetadata's among them). */
export const tokenArb = fc.constantFrom(
  'BIGINT',
  'INT',
  'VARCHAR',
  'DECIMAL',
  'TIMESTAMP',
  'BOOLEAN',
  'STRING',
  'CHAR',
  'DATE',
);
const durationArb = fc.constantFrom('PT1H', 'PT15M', 'P1D', 'PT30S', 'P1W', 'PT2H30M', 'P1DT12H');
const textArb = fc.string({ maxLength: 30 });

export const columnArb = (name: fc.Arbitrary<string> = nameArb) =>
  fc.record(
    {
      name,
      dataType: tokenArb,
      constraint: fc.constantFrom('PRIMARY_KEY', 'NOT_NULL', 'UNIQUE', 'NULL'),
      description: textArb,
      dataLength: fc.nat({ max: 4000 }),
      precision: fc.nat({ max: 38 }),
      scale: fc.nat({ max: 10 }),
    },
    { requiredKeys: ['name', 'dataType'] },
  );

export const semanticsArb = fc.record(
  { name: nameArb, description: textArb, rule: textArb, enabled: fc.boolean() },
  { requiredKeys: ['name'] },
);

export const slaArb = fc.record(
  {
    refreshFrequency: durationArb,
    maxLatency: durationArb,
    availability: fc
      .double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true })
      .filter((n) => !Object.is(n, -0)),
  },
  { requiredKeys: [] },
);

export const referenceArb = fc.record({ type: fc.constantFrom('user', 'team'), name: nameArb });

export const testCaseArb = fc.record({ fullyQualifiedName: nameArb });

const jsonValueArb = fc
  .jsonValue({ maxDepth: 2 })
  .filter((v) => !/__proto__|constructor|prototype/.test(JSON.stringify(v)));
const extensionArb = fc.dictionary(
  fc
    .stringMatching(/^[a-z][a-zA-Z]{0,8}$/)
    .filter((key) => !['constructor', 'prototype'].includes(key)),
  jsonValueArb,
  { maxKeys: 3 },
);

export const uniqueBy = <T>(arb: fc.Arbitrary<T>, key: (value: T) => string, maxLength: number) =>
  fc.uniqueArray(arb, { selector: key, maxLength });

/** Managed fields a contract file may set, each either a value or null. */
export const managedFieldArbs = {
  description: fc.option(textArb),
  entityStatus: fc.option(fc.constantFrom('Draft', 'Active', 'Deprecated')),
  schema: fc.option(uniqueBy(columnArb(), (c) => c.name, 12)),
  semantics: fc.option(uniqueBy(semanticsArb, (s) => s.name, 5)),
  qualityExpectations: fc.option(uniqueBy(testCaseArb, (t) => t.fullyQualifiedName, 4)),
  sla: fc.option(slaArb),
  termsOfUse: fc.option(textArb),
  security: fc.option(
    fc.record({ dataClassification: textArb, accessPolicy: textArb }, { requiredKeys: [] }),
  ),
  owners: fc.option(uniqueBy(referenceArb, (r) => `${r.type}/${r.name}`, 4)),
  reviewers: fc.option(uniqueBy(referenceArb, (r) => `${r.type}/${r.name}`, 3)),
  extension: fc.option(extensionArb),
};

export function arbitraryContract(): fc.Arbitrary<DesiredContract> {
  return fc
    .record({
      identity: fc.record({
        name: fc.string({ minLength: 1, maxLength: 20 }),
        fullyQualifiedName: fc.string({ minLength: 1, maxLength: 40 }),
        entity: fc.record({
          type: fc.constantFrom('table', 'topic', 'dashboard'),
          fullyQualifiedName: fc.string({ minLength: 1, maxLength: 40 }),
        }),
      }),
      managed: fc.record(managedFieldArbs, { requiredKeys: [] }),
    })
    .map(({ identity, managed }) => ({ ...identity, ...managed }));
}

/** `contract` without the fields it sets to null: what a catalog can hold. */
export function withoutNulls(contract: DesiredContract): DesiredContract {
  return Object.fromEntries(
    Object.entries(contract).filter(([, value]) => value !== null),
  ) as DesiredContract;
}

/** `value` with the keys of each of its mappings in reverse order. */
export function reordered<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reordered) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  ) as T;
}
