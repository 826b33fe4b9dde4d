// Generated workspaces for the openmetadata profile: pairs of contracts OpenMetadata can store (one
// live, as the catalog holds it with the extras a real server adds, or absent; one a file's, in
// the file's model), their tables (or assets of other types) with users, teams and test cases,
// and the files. Used by the convergence runs and by the plan-output snapshots.
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { DesiredContract } from '../../src/model/contract.js';
import { parseContract, type ContractFile } from '../../src/contract/parse.js';
import { openMetadataCodec } from '../../src/profile/codec.js';
import vocabulary from '../../src/model/openmetadata-vocabulary.json' with { type: 'json' };
import { idFor, type Seed } from '@contracts-gitops/sandbox';
import { catalogFromPairs } from './generated-catalog.js';
import { wireArb } from './openmetadata-arbitraries.js';
import { seed } from './sandbox.js';

export const USERS = ['ana', 'ben', 'chloé'];
export const TEAMS = ['data-eng', 'sales data'];
export const TEST_CASES = ['db.s.t.id.not_null', 'db.s.t.amount.positive', 'db.s.t.row_count'];

const text = fc.string({ maxLength: 12 });
const column = fc.record(
  {
    name: fc.constantFrom('id', 'amount', 'created_at', 'Name', 'pays d’origine', 'x'),
    dataType: fc.constantFrom('BIGINT', 'VARCHAR', 'DECIMAL', 'TIMESTAMP', 'MEASURE HIDDEN'),
    constraint: fc.constantFrom('NULL', 'NOT_NULL', 'UNIQUE', 'PRIMARY_KEY'),
    description: text,
    dataLength: fc.integer({ min: 0, max: 4000 }),
    precision: fc.integer({ min: 0, max: 38 }),
    scale: fc.integer({ min: 0, max: 10 }),
  },
  { requiredKeys: ['name', 'dataType'] },
);
const rule = fc.record({
  name: fc.constantFrom('hasOwner', 'hasDescription', 'tiered', 'règle'),
  description: text,
  rule: fc.constantFrom(
    '{"!!":[{"var":"owners"}]}',
    '{"!!":[{"var":"description"}]}',
    '{"==":[{"var":"tier"},"gold"]}',
  ),
  enabled: fc.boolean(),
});
const user = fc.constantFrom(...USERS).map((name) => ({ type: 'user', name }));
const team = fc.constantFrom(...TEAMS).map((name) => ({ type: 'team', name }));
/** Owners and reviewers OpenMetadata takes: users, or one team. */
const usersOrOneTeam = fc.oneof(
  fc.uniqueArray(user, { selector: (r) => r.name, maxLength: 3 }),
  team.map((t) => [t]),
);
/** References as OpenMetadata stores them: with the id of the entity they name. */
export const withFqn = (refs: { type: string; name: string }[]) =>
  refs.map((ref) => ({ id: idFor(ref.type, ref.name), ...ref, fullyQualifiedName: ref.name }));

/** A contract in OpenMetadata's stored shapes; every field may be absent. */
export const contractArb = fc
  .tuple(
    wireArb,
    fc.record(
      {
        description: text,
        entityStatus: fc.constantFrom(...vocabulary.statuses),
        schema: fc.uniqueArray(column, { selector: (c) => c.name, maxLength: 4 }),
        semantics: fc.uniqueArray(rule, { selector: (r) => r.name, maxLength: 3 }),
        owners: usersOrOneTeam.map(withFqn),
        reviewers: usersOrOneTeam.map(withFqn),
        qualityExpectations: fc.uniqueArray(
          fc.constantFrom(...TEST_CASES).map((fullyQualifiedName) => ({
            id: idFor('testCase', fullyQualifiedName),
            type: 'testCase',
            name: fullyQualifiedName.split('.').pop()!,
            fullyQualifiedName,
          })),
          { selector: (r) => r.fullyQualifiedName, maxLength: 3 },
        ),
        extension: fc.record({ tier: fc.constantFrom('gold', 'silver') }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([wire, rest]) => {
    const { owners: _owners, qualityExpectations: _quality, ...kept } = wire;
    return { ...kept, ...rest };
  });

/** `contract` without what OpenMetadata refuses on `type`: a schema, quality expectations. */
export function storableOn(
  type: string,
  contract: Record<string, unknown>,
): Record<string, unknown> {
  const { schema, qualityExpectations, ...rest } = contract;
  return {
    ...rest,
    ...(vocabulary.schemaEntityTypes.includes(type) && schema !== undefined ? { schema } : {}),
    ...(type === 'table' && qualityExpectations !== undefined ? { qualityExpectations } : {}),
  };
}

/**
 * Makes the `index`th asset of `generated` (a table) one of `type`, its columns where that type
 * keeps its fields (a topic's message schema, an API endpoint's response schema), and its
 * contract and file name the type.
 */
function asType(type: string, generated: ReturnType<typeof catalogFromPairs>, index: number) {
  if (type === 'table') return;
  const asset = generated.assets[index] as Record<string, unknown>;
  const { columns, ...rest } = asset;
  const fields = { schemaFields: columns };
  generated.assets[index] = {
    ...rest,
    entityType: type,
    ...(type === 'topic' ? { messageSchema: fields } : {}),
    ...(type === 'apiEndpoint' ? { responseSchema: fields } : {}),
    ...(type === 'dashboardDataModel' ? { columns } : {}),
  };
  const contract = generated.contracts[index] as { entity: Record<string, unknown> };
  contract.entity = { ...contract.entity, type };
  const file = generated.desired[index]!;
  file.entity = { ...file.entity, type };
}

/** What a real server adds to a stored contract's items, which no file states. */
function withServerExtras(contract: Record<string, unknown>): Record<string, unknown> {
  const list = (field: string) => (contract[field] as Record<string, unknown>[] | undefined) ?? [];
  const out = { ...contract };
  if (contract.schema !== undefined)
    out.schema = list('schema').map((column, i) => ({
      ...column,
      fullyQualifiedName: `db.s.t.${String(column.name)}`,
      ordinalPosition: i + 1,
      tags: [{ tagFQN: 'PII.Sensitive', source: 'Classification', labelType: 'Manual' }],
    }));
  if (contract.semantics !== undefined)
    out.semantics = list('semantics').map((rule) => ({ ...rule, provider: 'user' }));
  for (const field of ['owners', 'reviewers'])
    if (contract[field] !== undefined)
      out[field] = list(field).map((ref) => ({
        ...ref,
        displayName: String(ref.name).toUpperCase(),
        deleted: false,
      }));
  return out;
}

/**
 * One generated contract: its asset's type, live (with the server's extras, or absent), and the
 * file's.
 */
export const pairArb = fc.record({
  // Tables, the types whose schema OpenMetadata checks by other fields, and types it takes
  // contracts on without a schema.
  entityType: fc.constantFrom(
    'table',
    'table',
    'topic',
    'apiEndpoint',
    'dashboardDataModel',
    'dashboard',
    'pipeline',
  ),
  live: contractArb,
  extras: fc.boolean(),
  absent: fc.boolean(),
  wanted: contractArb,
  // Fields the file sets to null (removes), where it does not set them otherwise.
  nulls: fc.subarray(['description', 'schema', 'semantics', 'sla', 'security', 'reviewers']),
});

export type Pair = typeof pairArb extends fc.Arbitrary<infer T> ? T : never;

/** A file's contract from a wire one: the codec's model, written as YAML and read back. */
export function fileOf(contract: DesiredContract, index: number): ContractFile {
  const parsed = parseContract(stringify(contract), `contracts/c${index}.yaml`);
  if (!parsed.ok) throw new Error(`generated file is invalid: ${parsed.problems[0]!.message}`);
  const unstorable = openMetadataCodec.unstorable(parsed.value.contract);
  if (unstorable.length > 0) throw new Error(`generated file: ${unstorable[0]!.message}`);
  return parsed.value;
}

/**
 * The catalog and files of `pairs`: the seed (the live contracts of the pairs not absent, their
 * assets, users, teams, test cases and the custom property their extensions use), the files'
 * contracts, and the files as parsed.
 */
export function openMetadataWorkspace(
  pairs: readonly Pair[],
  alice: readonly string[] = ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
): { seed: Seed; desired: DesiredContract[]; files: ContractFile[] } {
  const generated = catalogFromPairs(
    pairs.map(({ entityType, live, extras, wanted, nulls }) => {
      const model = openMetadataCodec.fromWire({
        name: 'c',
        ...storableOn(entityType, wanted),
      }) as Record<string, unknown>;
      for (const field of nulls) if (model[field] === undefined) model[field] = null;
      const stored = storableOn(entityType, live);
      return [
        (extras ? withServerExtras(stored) : stored) as DesiredContract,
        model as DesiredContract,
      ];
    }),
    'db.s',
  );
  pairs.forEach(({ entityType }, i) => asType(entityType, generated, i));
  const { assets, desired } = generated;
  // A contract the catalog lacks is created.
  const contracts = generated.contracts.filter((_, i) => !pairs[i]!.absent);
  return {
    seed: seed({
      users: [
        { name: 'alice', permissions: [...alice] },
        ...USERS.map((name) => ({ name, permissions: [] })),
      ],
      teams: TEAMS.map((name) => ({ name })),
      testCases: TEST_CASES.map((fullyQualifiedName) => ({ fullyQualifiedName })),
      customProperties: [{ name: 'tier' }],
      assets,
      dataProducts: [],
      dataContracts: contracts as never,
    }),
    desired,
    files: desired.map(fileOf),
  };
}
