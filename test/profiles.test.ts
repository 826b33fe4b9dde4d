// Catalog profiles: one contract file, translated to the spec's shapes or to a real OpenMetadata
// 1.10+ server's, chosen by asking the catalog. Codecs are checked by properties; plan, apply and
// the refusals over HTTP against the sandbox in both profiles.
import { createHash } from 'node:crypto';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseContract } from '../src/contract/parse.js';
import { codecFor, openMetadataCodec, specCodec, storageProblems } from '../src/profile/codec.js';
import { unkeptChange } from '../src/profile/unkept.js';
import {
  changedExtensionKeys,
  extensionFinding,
  type CustomProperties,
} from '../src/plan/custom-properties.js';
import { CatalogClient } from '../src/catalog/client.js';
import type { Operation } from '../src/model/operation.js';
import { applyPlan } from '../src/apply/apply-plan.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { startSandbox, type Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { fqnParts, searchIndexFor } from '../src/read/live-assets.js';
import { assetFields } from '../src/plan/asset-columns.js';
import { interfacePath, openSandbox, postContract, seed, type Client } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('custom properties OpenMetadata defines', () => {
  it('names the keys a file would send that the catalog does not define or would refuse, or says it could not ask', async () => {
    const live = {
      kind: 'found' as const,
      contract: { id: 'c', version: 0.1, extension: { old: 1, same: 'x' } },
    };
    expect(changedExtensionKeys({ old: 2, same: 'x', tier: 'gold' }, live)).toEqual([
      'old',
      'tier',
    ]);
    expect(changedExtensionKeys({ tier: 'gold' }, { kind: 'missing' })).toEqual(['tier']);
    expect(changedExtensionKeys(null, live)).toEqual([]);
    const answer = (value: CustomProperties) => () => Promise.resolve(value);
    const catalog = answer({
      properties: [
        { name: 'tier', type: 'string' },
        { name: 'rank', type: 'integer' },
        {
          name: 'zones',
          type: 'enum',
          config: { values: ['eu', 'us', 'apac'], multiSelect: true },
        },
        { name: 'level', type: 'enum', config: { values: ['low', 'high'] } },
        { name: 'due', type: 'date-cp', config: 'yyyy-MM-dd' },
      ],
    });
    /** What is said, its sentence for its error. */
    const said = (found: Awaited<ReturnType<typeof extensionFinding>>) =>
      found.error === undefined ? found : { ...found, error: found.error.message };
    const finding = async (extension: Record<string, unknown>) =>
      said(await extensionFinding(extension, Object.keys(extension), catalog));
    // The error is at the first key it names: an unknown one first, else the first refused.
    expect(
      (await extensionFinding({ rank: 1.5, note: 'x' }, ['rank', 'note'], catalog)).error,
    ).toMatchObject({ code: 'extension.refused', severity: 'error', pointer: '/extension/note' });
    expect(
      (await extensionFinding({ 'a/b': 1, rank: 1.5 }, ['rank'], catalog)).error,
    ).toMatchObject({ pointer: '/extension/rank' });
    expect(await finding({ tier: 'gold', note: 'x' })).toEqual({
      error:
        'extension.note is not a custom property of data contracts in this catalog, which refuses any other key (400 "Unknown custom field note"; it defines tier, rank, zones, level, due): define it first through the catalog\'s API (PUT /v1/metadata/types/{id of dataContract}; `contracts doctor --fix` defines managedBy and contractVersion), or remove it from the file; nothing will be sent for this contract',
    });
    expect(await finding({ rank: 1.5 })).toEqual({
      error: expect.stringMatching(
        /^extension\.rank is 1\.5, but the catalog's custom property rank is of type integer \(a whole number\)/,
      ),
    });
    expect(await finding({ zones: ['us', 'mars'] })).toEqual({
      error: expect.stringMatching(
        /^extension\.zones holds mars, which the catalog's enum zones does not allow \(400 "Values '\[mars\]' not supported for property zones"\): use eu, us, apac/,
      ),
    });
    expect(await finding({ level: ['low', 'high'] })).toEqual({
      error: expect.stringContaining(
        'extension.level holds 2 values, but the catalog\'s enum level takes one (400 "Only one value allowed for non-multiSelect level property")',
      ),
    });
    expect(await finding({ zones: ['us', 'eu'] })).toEqual({
      error: expect.stringContaining(
        "extension.zones lists its values out of order: OpenMetadata keeps an enum's values sorted, so every plan would show them as a change; write [eu, us]",
      ),
    });
    expect(await finding({ level: 'low' })).toEqual({
      error: expect.stringMatching(
        /^extension\.level must be a list of level's values \(low, high\)/,
      ),
    });
    // Values of the other types are left to the catalog.
    expect(await finding({ tier: 'gold', rank: 3, zones: ['eu', 'us'], due: '1 May' })).toEqual({});
    expect(
      said(await extensionFinding({ a: 1, b: 2 }, ['a', 'b'], answer({ properties: [] }))),
    ).toEqual({
      error: expect.stringMatching(
        /^extension\.a and extension\.b are not custom properties .*it defines none\)/,
      ),
    });
    expect(
      await extensionFinding({ tier: 1 }, ['tier'], answer({ unknown: '403 FORBIDDEN' })),
    ).toEqual({
      note: 'custom properties not checked: the catalog could not say which data contracts have (403 FORBIDDEN)',
    });
    let asked = 0;
    expect(
      await extensionFinding({ tier: 1 }, [], () => {
        asked += 1;
        return Promise.resolve({ properties: [] });
      }),
    ).toEqual({});
    expect(asked).toBe(0);
  });

  it('the openmetadata sandbox answers the type with its custom properties and refuses any other key (400, nothing stored)', async () => {
    const { sandbox, client } = await catalogOf('openmetadata', {
      ...oneTable('openmetadata', { extension: { tier: 'gold' } }),
      customProperties: [
        { name: 'tier' },
        { name: 'rank', propertyType: 'integer' },
        {
          name: 'zones',
          propertyType: 'enum',
          config: { values: ['eu', 'us'], multiSelect: true },
        },
        { name: 'level', propertyType: 'enum', config: { values: ['low', 'high'] } },
      ],
    });
    const type = await client.get('/v1/metadata/types/name/dataContract?fields=customProperties');
    expect(type.status).toBe(200);
    expect(type.body).toMatchObject({
      name: 'dataContract',
      category: 'entity',
      customProperties: [
        { name: 'tier', propertyType: { type: 'type', name: 'string' } },
        { name: 'rank', propertyType: { type: 'type', name: 'integer' } },
        {
          name: 'zones',
          propertyType: { name: 'enum' },
          customPropertyConfig: { config: { values: ['eu', 'us'], multiSelect: true } },
        },
        { name: 'level', propertyType: { name: 'enum' } },
      ],
    });
    expect((await client.get('/v1/metadata/types/name/nothing')).status).toBe(404);
    const refused = await client.patch(`/v1/dataContracts/${CONTRACT}`, [
      { op: 'add', path: '/extension/note', value: 'x' },
    ]);
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toBe('Unknown custom field note');
    expect(sandbox.store.contracts.get(CONTRACT)!.extension).toEqual({ tier: 'gold' });
    const write = (key: string, value: unknown) =>
      client.patch(`/v1/dataContracts/${CONTRACT}`, [
        { op: 'add', path: `/extension/${key}`, value },
      ]);
    for (const [key, value, message] of [
      ['rank', 'x', 'Custom field rank has invalid JSON [$: string found, integer expected]'],
      ['zones', ['mars'], "Values '[mars]' not supported for property zones"],
      ['level', ['low', 'high'], 'Only one value allowed for non-multiSelect level property'],
    ] as const) {
      const answer = await write(key, value);
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toBe(message);
    }
    // An enum's values are stored sorted.
    expect((await write('zones', ['us', 'eu'])).status).toBe(200);
    expect(sandbox.store.contracts.get(CONTRACT)!.extension).toEqual({
      tier: 'gold',
      zones: ['eu', 'us'],
    });
    await expect(
      startSandbox({
        profile: 'openmetadata',
        seed: oneTable('openmetadata', { extension: { tier: 'gold' } }),
        port: 0,
      }),
    ).rejects.toThrow(/not one OpenMetadata stores: Unknown custom field tier/);
  });

  it('openmetadata: a key the catalog does not define is an error at its line, nothing sent; the ones it defines are applied', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', {
      ...oneTable('openmetadata', {}),
      customProperties: [{ name: 'tier' }],
    });
    const file = (extension: string) => `${head}extension:\n${extension}`;
    const cwd = await filesDir({ 'contracts/c.yaml': file('  tier: gold\n  note: x\n') });
    const plan = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(plan.code, plan.out).toBe(1);
    expect(plan.out).toMatch(
      /^::error file=contracts\/c.yaml,line=8,col=9,title=contract cannot be planned::extension.note is not a custom property of data contracts in this catalog/m,
    );
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code).toBe(1);
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    await writeFile(path.join(cwd, 'contracts/c.yaml'), file('  tier: gold\n'));
    const fixed = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(fixed.code, fixed.out).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)!.extension).toEqual({ tier: 'gold' });
    // Held by the live contract: not asked again.
    const asked = () =>
      sandbox.requests().filter((r) => interfacePath(r.path).startsWith('/v1/metadata/types'))
        .length;
    const before = asked();
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
    expect(asked()).toBe(before);
  });
});

const TABLE = '6a000000-0000-4000-8000-000000000001';
const CONTRACT = '6c000000-0000-4000-8000-000000000001';
const EDITOR = {
  name: 'alice',
  permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
};

/** One table and its contract, stored as the profile stores it. */
function oneTable(profile: 'spec' | 'openmetadata', contract: Record<string, unknown>) {
  return seed({
    users: [EDITOR, { ...EDITOR, name: 'bob' }],
    assets: [
      {
        id: TABLE,
        entityType: 'table',
        name: 't',
        fullyQualifiedName: 'db.s.t',
        columns: [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'updated_at', dataType: 'TIMESTAMP' },
        ],
      },
    ],
    dataProducts: [],
    dataContracts: [
      {
        id: CONTRACT,
        name: 'c',
        fullyQualifiedName: 'db.s.t.dataContract_c',
        entity: { id: TABLE, type: 'table', fullyQualifiedName: 'db.s.t' },
        version: 0.1,
        schema: [{ name: 'id', dataType: 'BIGINT' }],
        ...(profile === 'openmetadata'
          ? {
              entityStatus: 'Draft',
              sla: { refreshFrequency: { interval: 6, unit: 'hour' } },
              termsOfUse: { content: 'Old terms.' },
              security: { dataClassification: 'Internal' },
              semantics: [
                {
                  name: 'hasOwner',
                  description: 'Owned.',
                  rule: '{"!!":[{"var":"owners"}]}',
                  enabled: true,
                },
              ],
            }
          : {
              entityStatus: 'Draft',
              sla: { refreshFrequency: 'PT6H', availability: 99 },
              termsOfUse: 'Old terms.',
              security: { dataClassification: 'Internal' },
              semantics: [{ name: 'hasOwner' }],
            }),
        ...contract,
      },
    ],
    teams: [{ name: 'data' }],
  });
}

async function catalogOf(
  profile: 'spec' | 'openmetadata',
  seedValue: ReturnType<typeof seed>,
  openmetadataVersion?: string,
) {
  const opened = await openSandbox({
    seed: seedValue,
    profile,
    ...(openmetadataVersion === undefined ? {} : { openmetadataVersion }),
  });
  cleanups.push(() => opened.sandbox.close());
  return {
    ...opened,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

/** The requests that create or change something. */
const postsAndPatches = (sandbox: Sandbox) =>
  sandbox.requests().filter((r) => r.method === 'POST' || r.method === 'PATCH');

/**
 * Plans `files` against a catalog of `seedValue` under the openmetadata profile: exit 1, `text`
 * said, and nothing created or patched.
 */
async function expectPlanRefuses(
  seedValue: ReturnType<typeof seed>,
  files: Record<string, string>,
  text: string,
): Promise<void> {
  const { sandbox, env } = await catalogOf('openmetadata', seedValue);
  const cwd = await filesDir(files);
  const run = await cli(['plan'], { cwd, env });
  expect(run.code, run.out + run.err).toBe(1);
  expect(run.out).toContain(text);
  expect(sandbox.requests().filter((r) => r.method === 'POST' || r.method === 'PATCH')).toEqual([]);
}

async function filesDir(files: Record<string, string>) {
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  return dir.dir;
}

const head = `name: c\nfullyQualifiedName: db.s.t.dataContract_c\nentity: {type: table, fullyQualifiedName: db.s.t}\nschema:\n  - {name: id, dataType: BIGINT}\n`;
const contractRequests = (sandbox: Sandbox) =>
  sandbox.requests().filter((r) => interfacePath(r.path).startsWith('/v1/dataContracts'));

/**
 * `client`, but another writer sends `theirs` (as the same user) just before its first PATCH,
 * after apply read the contract; each PATCH it sends is kept in `sent`.
 */
function racedBy(
  client: CatalogClient,
  theirs: Operation[],
  sent: Operation[][] = [],
): CatalogClient {
  let raced = false;
  return Object.assign(Object.create(client) as CatalogClient, {
    patchContract: async (id: string, ops: Operation[], options?: { ifMatch?: string }) => {
      if (!raced) {
        raced = true;
        // A millisecond later at least: updatedAt, which 1.x's ETag hashes, is in milliseconds.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await client.patchContract(id, theirs);
      }
      sent.push(ops);
      return client.patchContract(id, ops, options);
    },
  });
}

/** The one-table openmetadata catalog playing `release`, its contract with `fields`, and alice's client. */
async function oneTableClient(release: string, fields: Record<string, unknown>) {
  const { sandbox, ...opened } = await catalogOf(
    'openmetadata',
    oneTable('openmetadata', fields),
    release,
  );
  const client = new CatalogClient({ baseUrl: sandbox.url, token: await opened.token() });
  cleanups.push(() => client.close());
  return { sandbox, client };
}

/** The one table's file under OpenMetadata, with this status, description and terms of use. */
function omFile(status: string, description: string, terms: string): string {
  return `${head}entityStatus: ${status}\ndescription: ${description}\nsla:\n  refreshFrequency: PT6H\ntermsOfUse: ${terms}\nsecurity:\n  dataClassification: Internal\nsemantics:\n  - { name: hasOwner, description: Owned., rule: '{"!!":[{"var":"owners"}]}', enabled: true }\n`;
}

/** Plans one contract file against the openmetadata sandbox, keeping what apply needs. */
async function planOne(client: CatalogClient, catalogUrl: string, text: string) {
  const parsed = parseContract(text, 'contracts/c.yaml');
  if (!parsed.ok) throw new Error('bad test contract');
  const { changes, liveForUpdates, desired } = await readAndPlanEach([parsed.value], client, {
    checkAssets: false,
    keepLive: true,
    codec: openMetadataCodec,
  });
  const plan = assemblePlan(changes, {
    catalogUrl,
    catalogProfile: 'openmetadata',
    gitCommit: null,
    createdAt: '',
  });
  return { plan, liveForUpdates, desired };
}

describe('a contract that moved during apply, planned again', () => {
  it('openmetadata: the references the new patch adds still carry the ids the plan found', async () => {
    const {
      sandbox,
      client: _http,
      ...opened
    } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const client = new CatalogClient({ baseUrl: sandbox.url, token: await opened.token() });
    cleanups.push(() => client.close());
    const { plan, liveForUpdates, desired } = await planOne(
      client,
      sandbox.url,
      `${head}entityStatus: Draft\ndescription: New.\nowners:\n  - {type: team, name: data}\n`,
    );
    const teamId = (await client.referenceEntity('team', 'data')).id;
    const owners = [{ id: teamId, type: 'team', name: 'data', fullyQualifiedName: 'data' }];
    // OpenMetadata reads a contract without owners as `owners: []`: the team is appended.
    const added = { op: 'add', path: '/owners/-', value: owners[0] };
    expect(plan.changes[0]!.patch).toContainEqual(added);
    // Another writer changes the contract after apply read it, before its PATCH.
    const sent: Operation[][] = [];
    const racing = racedBy(
      client,
      [{ op: 'replace', path: '/entityStatus', value: 'Rejected' }],
      sent,
    );
    const report = await applyPlan(plan, racing, {
      liveContracts: liveForUpdates,
      desired,
      codec: openMetadataCodec,
    });
    expect(report.results[0]).toMatchObject({ status: 'applied', replannedAt: 0.2 });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContainEqual(added);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      entityStatus: 'Draft',
      description: 'New.',
      owners: [{ ...owners[0], deleted: false }],
    });
  });
});

describe('a change the catalog folded into the version the plan read', () => {
  // The guard's test of updatedAt sees it on every release: 1.13.0 is sent no If-Match at all,
  // and 2.0's W/"<version>" does not move with a folded change.
  it.each(['1.10.0', '1.13.0', '1.13.1', '2.0.0', '2.0.5'])(
    'openmetadata %s: is still caught; nothing of it is lost',
    async (release) => {
      const { sandbox, client } = await oneTableClient(release, { description: 'Old.' });
      // alice changed the contract a moment ago: her session with the catalog is open.
      await client.patchContract(CONTRACT, [
        { op: 'replace', path: '/entityStatus', value: 'In Review' },
      ]);
      const { plan, liveForUpdates } = await planOne(
        client,
        sandbox.url,
        omFile('In Review', 'Mine.', 'Old terms.'),
      );
      expect(plan.changes[0]!.patch).toEqual([
        { op: 'test', path: '/version', value: 0.2 },
        { op: 'test', path: '/updatedAt', value: expect.any(Number) },
        { op: 'test', path: '/description', value: 'Old.' },
        { op: 'replace', path: '/description', value: 'Mine.' },
      ]);
      // The same user (another job with the same token) changes the description after the plan
      // read it: the catalog folds that into 0.2, so the version alone does not show it.
      const racing = racedBy(client, [{ op: 'replace', path: '/description', value: 'Theirs.' }]);
      const report = await applyPlan(plan, racing, {
        liveContracts: liveForUpdates,
        codec: codecFor('openmetadata', release),
      });
      expect(report.results[0]).toMatchObject({ status: 'failed', errorType: 'CONFLICT' });
      expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
        description: 'Theirs.',
        version: 0.2,
      });
    },
  );

  // What no test of a value sees: a field the plan adds where the live contract had none. Only the
  // test of updatedAt, which the folded change moved, refuses the PATCH.
  it.each(['1.13.0', '2.0.5'])(
    'openmetadata %s: terms of use another job of the same user added meanwhile are not replaced; apply fails as CONFLICT',
    async (release) => {
      const { sandbox, client } = await oneTableClient(release, {
        description: 'Old.',
        termsOfUse: undefined,
      });
      await client.patchContract(CONTRACT, [
        { op: 'replace', path: '/description', value: 'Mine.' },
      ]);
      const { plan, liveForUpdates } = await planOne(
        client,
        sandbox.url,
        omFile('Draft', 'Mine.', 'My terms.'),
      );
      expect(plan.changes[0]!.patch.filter((op) => op.op !== 'test')).toEqual([
        { op: 'add', path: '/termsOfUse', value: { content: 'My terms.' } },
      ]);
      const racing = racedBy(client, [
        { op: 'add', path: '/termsOfUse', value: { content: 'Their terms.' } },
      ]);
      const report = await applyPlan(plan, racing, {
        liveContracts: liveForUpdates,
        codec: codecFor('openmetadata', release),
      });
      expect(report.results[0]).toMatchObject({ status: 'failed', errorType: 'CONFLICT' });
      expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
        termsOfUse: { content: 'Their terms.' },
      });
    },
  );

  it.each(['1.13.0', '2.0.5'])(
    'openmetadata %s: a change meanwhile to a field no file manages refuses the PATCH by its guards; sent once more, guarded by the contract read afresh, it applies',
    async (release) => {
      const { sandbox, client } = await oneTableClient(release, { description: 'Old.' });
      const { plan, liveForUpdates } = await planOne(
        client,
        sandbox.url,
        omFile('Draft', 'Mine.', 'Old terms.'),
      );
      const sent: Operation[][] = [];
      const racing = racedBy(
        client,
        [{ op: 'add', path: '/sourceUrl', value: 'https://example.com/contract' }],
        sent,
      );
      const report = await applyPlan(plan, racing, {
        liveContracts: liveForUpdates,
        codec: codecFor('openmetadata', release),
      });
      expect(report.results[0]).toMatchObject({ status: 'applied' });
      expect(sent).toHaveLength(2);
      expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
        description: 'Mine.',
        sourceUrl: 'https://example.com/contract',
      });
    },
  );

  it('openmetadata 1.13: an item the same user appended meanwhile refuses a PATCH that appends too, which no test op can guard', async () => {
    const { sandbox, ...opened } = await catalogOf(
      'openmetadata',
      oneTable('openmetadata', { description: 'Old.' }),
    );
    const client = new CatalogClient({ baseUrl: sandbox.url, token: await opened.token() });
    cleanups.push(() => client.close());
    await client.patchContract(CONTRACT, [{ op: 'replace', path: '/description', value: 'Mine.' }]);
    const rule = (name: string) =>
      `  - { name: ${name}, description: D., rule: '{"!!":[{"var":"owners"}]}', enabled: true }\n`;
    const { plan, liveForUpdates } = await planOne(
      client,
      sandbox.url,
      `${head}semantics:\n${rule('hasOwner')}${rule('mine')}`,
    );
    expect(plan.changes[0]!.patch).toContainEqual(
      expect.objectContaining({ path: '/semantics/-' }),
    );
    // Another job with the same token appends its own rule after the plan read the contract.
    const racing = racedBy(client, [
      {
        op: 'add',
        path: '/semantics/-',
        value: { name: 'theirs', description: 'T.', rule: '{}', enabled: true },
      },
    ]);
    const report = await applyPlan(plan, racing, {
      liveContracts: liveForUpdates,
      codec: openMetadataCodec,
    });
    expect(report.results[0]).toMatchObject({ status: 'failed', errorType: 'CONFLICT' });
    const names = (sandbox.store.contracts.get(CONTRACT)!.semantics as { name: string }[]).map(
      (r) => r.name,
    );
    expect(names).toEqual(['hasOwner', 'theirs']);
    expect(sandbox.store.contracts.get(CONTRACT)!.version).toBe(0.2);
  });
});

describe('plan, apply, plan: no changes left, the profile found by asking the catalog', () => {
  // 2.0 sends ETags no PATCH can echo (a hash of the read's answer): apply sends W/"<version>".
  it.each(['1.13.0', '2.0.0'])(
    'openmetadata %s: status, SLA, terms, security, semantics and owners, as OpenMetadata stores them',
    async (release) => {
      const { sandbox, env } = await catalogOf(
        'openmetadata',
        oneTable('openmetadata', {}),
        release,
      );
      const cwd = await filesDir({
        'contracts/c.yaml': `${head}entityStatus: Approved
sla:
  refreshFrequency: PT12H
  maxLatency: PT45M
  retention: P30D
  availabilityTime: 09:00 UTC
  timezone: GMT+01:00 (Europe/Paris)
  columnName: updated_at
termsOfUse: New terms.
security:
  dataClassification: Confidential
  policies:
    - accessPolicy: analysts
      identities: [analytics]
      rowFilters: [{ columnName: id, values: ["1", "2"] }]
semantics:
  - { name: hasOwner, description: Has an owner., rule: '{"!!":[{"var":"owners"}]}', enabled: true }
  - { name: hasDescription, description: Described., rule: '{"!!":[{"var":"description"}]}', enabled: false }
owners:
  - { type: team, name: data }
`,
      });
      const plan = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
      expect(plan.code, plan.err).toBe(2);
      const json = JSON.parse(plan.out);
      expect(json.catalogProfile).toBe('openmetadata');
      // Shown in the file's terms, not the wire's, one line per property that changes.
      expect(json.changes[0].diff).toEqual(
        expect.arrayContaining([
          { symbol: '~', field: 'sla.refreshFrequency', before: 'PT6H', after: 'PT12H' },
          { symbol: '+', field: 'sla.retention', after: 'P30D' },
          { symbol: '~', field: 'termsOfUse', before: 'Old terms.', after: 'New terms.' },
        ]),
      );
      const apply = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
      expect(again.code, again.out).toBe(0);
      expect(again.out).toContain('No changes.');
      const stored = sandbox.store.contracts.get(CONTRACT)!;
      expect(stored).toMatchObject({
        entityStatus: 'Approved',
        sla: {
          refreshFrequency: { interval: 12, unit: 'hour' },
          maxLatency: { value: 45, unit: 'minute' },
          retention: { period: 30, unit: 'day' },
          timezone: 'GMT+01:00 (Europe/Paris)',
        },
        termsOfUse: { content: 'New terms.' },
        security: { policies: [{ accessPolicy: 'analysts', identities: ['analytics'] }] },
        owners: [{ type: 'team', name: 'data', fullyQualifiedName: 'data' }],
      });
      expect((stored.owners as { id: string }[])[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
      // No PATCH was refused: under 2.0, echoing the ETag read would have been a 412.
      expect(sandbox.requests().filter((r) => r.method === 'PATCH' && r.status !== 200)).toEqual(
        [],
      );
      expect(sandbox.requests().filter((r) => r.method === 'PATCH').length).toBeGreaterThan(0);
    },
  );

  it('openmetadata 2.0.5: an apply within the ten-minute session is a new version, since it carries If-Match, which the catalog never folds', async () => {
    const { env } = await catalogOf('openmetadata', oneTable('openmetadata', {}), '2.0.5');
    const file = (terms: string) =>
      `${head}entityStatus: Draft\nsla:\n  refreshFrequency: PT12H\ntermsOfUse: ${terms}\nsecurity:\n  dataClassification: Internal\nsemantics:\n  - { name: hasOwner, description: Owned., rule: '{"!!":[{"var":"owners"}]}', enabled: true }\n`;
    const cwd = await filesDir({ 'contracts/c.yaml': file('Old terms.') });
    const first = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(first.out, first.err).toContain('0.1 → 0.2');
    await writeFile(path.join(cwd, 'contracts/c.yaml'), file('New terms.'));
    const second = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(second.code, second.out + second.err).toBe(0);
    expect(second.out).toContain('0.2 → 0.3');
    expect(second.out).not.toContain('folded');
  });

  it("openmetadata 1.13.0 (sent no If-Match): an apply within the catalog's ten-minute session reports only its own change, and the version it was folded into", async () => {
    const { sandbox, env } = await catalogOf(
      'openmetadata',
      oneTable('openmetadata', {}),
      '1.13.0',
    );
    const file = (terms: string) =>
      `${head}entityStatus: Draft\nsla:\n  refreshFrequency: PT12H\ntermsOfUse: ${terms}\nsecurity:\n  dataClassification: Internal\nsemantics:\n  - { name: hasOwner, description: Owned., rule: '{"!!":[{"var":"owners"}]}', enabled: true }\n`;
    const cwd = await filesDir({ 'contracts/c.yaml': file('Old terms.') });
    const first = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(first.code, first.out + first.err).toBe(0);
    expect(first.out).toContain('0.1 → 0.2');
    await writeFile(path.join(cwd, 'contracts/c.yaml'), file('New terms.'));
    const second = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(second.code, second.out + second.err).toBe(0);
    expect(second.out).toContain(
      '0.2 → 0.2 (kept: the catalog folded this change into that version',
    );
    const report = second.out.slice(second.out.indexOf('✓'));
    expect(report).toMatch(/termsOfUse: .*Old terms\..* → .*New terms\./);
    // The catalog's changeDescription spans the session, the SLA change of the first apply too;
    // the report shows what this apply did.
    expect(sandbox.store.contracts.get(CONTRACT)!.changeDescription).toMatchObject({
      fieldsUpdated: expect.arrayContaining([expect.objectContaining({ name: 'sla' })]),
    });
    expect(second.out).not.toContain('sla');
  });

  it('openmetadata: a contract at a whole version (1.0) is patched; its guard names the version as Java writes it', async () => {
    const { sandbox, env } = await catalogOf(
      'openmetadata',
      oneTable('openmetadata', { version: 1 }),
    );
    const cwd = await filesDir({
      'contracts/c.yaml': `${head}entityStatus: Draft\nsla:\n  refreshFrequency: PT12H\ntermsOfUse: Old terms.\nsecurity:\n  dataClassification: Internal\nsemantics:\n  - { name: hasOwner, description: Owned., rule: '{"!!":[{"var":"owners"}]}', enabled: true }\n`,
    });
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      version: 1.1,
      sla: { refreshFrequency: { interval: 12, unit: 'hour' } },
    });
    const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
    expect(again.code, again.out).toBe(0);
  });

  it('spec: the same kinds of change in the spec shapes', async () => {
    const { env } = await catalogOf('spec', oneTable('spec', {}));
    const cwd = await filesDir({
      'contracts/c.yaml': `${head}entityStatus: Active
sla: { refreshFrequency: PT12H, maxLatency: PT45M, availability: 99.5 }
termsOfUse: New terms.
security: { dataClassification: Confidential, accessPolicy: analysts }
semantics:
  - { name: hasOwner }
  - { name: hasDescription }
`,
    });
    const plan = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
    expect(plan.code).toBe(2);
    expect(JSON.parse(plan.out).catalogProfile).toBe('spec');
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });
});

describe('refusals', () => {
  it('entityStatus Active to an OpenMetadata catalog: exit 1, located, no contract read or written', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}entityStatus: Active\n` });
    const run = await cli(['plan'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'contracts/c.yaml:6:15 entityStatus Active is not a status OpenMetadata stores; use one of Draft, In Review, Approved',
    );
    expect(contractRequests(sandbox)).toEqual([]);
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code).toBe(1);
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('a plan made for one profile is refused by a catalog of the other, nothing sent', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: Changed.\n` });
    const planned = await cli(['plan', '--out', 'plan.json'], {
      cwd,
      env: { ...env, CATALOG_PROFILE: 'spec' },
    });
    expect(planned.code, planned.err).toBe(0);
    const apply = await cli(['apply', 'plan.json'], { cwd, env });
    expect(apply.code).toBe(1);
    expect(apply.err).toContain(
      'the plan was made for the spec profile, but this catalog is openmetadata; plan again against it. Nothing was sent.',
    );
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('a bad CATALOG_PROFILE is one clear error', async () => {
    const cwd = await filesDir({ 'contracts/c.yaml': head });
    const run = await cli(['plan'], {
      cwd,
      env: { CATALOG_URL: 'http://127.0.0.1:9', CATALOG_TOKEN: 'x', CATALOG_PROFILE: 'om' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      "Error: CATALOG_PROFILE must be one of auto, spec or openmetadata, got 'om'\n",
    );
  });
});

describe('topics on OpenMetadata: checked against their message schema', () => {
  const TOPIC = '6a000000-0000-4000-8000-0000000000f1';
  /** A topic as OpenMetadata stores it: a message schema, one field with a nested one. */
  const topicSeed = (messageSchema: unknown) =>
    seed({
      users: [EDITOR],
      assets: [
        {
          id: TOPIC,
          entityType: 'topic',
          name: 'clicks',
          fullyQualifiedName: 'kafka.clicks',
          ...(messageSchema === undefined ? {} : { messageSchema }),
        },
      ],
      dataProducts: [],
      dataContracts: [],
    });
  const schema = {
    schemaType: 'Avro',
    schemaFields: [
      { name: 'event_id', dataType: 'STRING' },
      { name: 'payload', dataType: 'RECORD', children: [{ name: 'url', dataType: 'STRING' }] },
    ],
  };
  const topicFile = (fields: string[]) =>
    `name: clicks\nfullyQualifiedName: kafka.clicks.dataContract_clicks\nentity: {type: topic, fullyQualifiedName: kafka.clicks}\nschema:\n${fields.map((f) => `  - {name: ${f}, dataType: STRING}\n`).join('')}`;

  it('the search index holds the message schema and fieldNames, never columns, as OpenMetadata indexes a topic', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', topicSeed(schema));
    const answer = await fetch(
      `${sandbox.url}/v1/search/fieldQuery?fieldName=fullyQualifiedName&fieldValue=kafka.clicks&index=topic_search_index`,
      { headers: { authorization: `Bearer ${env.CATALOG_TOKEN}` } },
    );
    const source = (
      (await answer.json()) as { hits: { hits: { _source: Record<string, unknown> }[] } }
    ).hits.hits[0]!._source;
    expect(source.columns).toBeUndefined();
    expect(source.messageSchema).toEqual({ schemaFields: schema.schemaFields });
    expect(source.fieldNames).toEqual(['event_id', 'payload', 'payload.url']);
  });

  it('a field the topic lacks: exit 1 at its line, nothing sent; a nested field by its own name is known', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', topicSeed(schema));
    const cwd = await filesDir({
      'contracts/clicks.yaml': topicFile(['event_id', 'url', 'session_id']),
    });
    const run = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      'column session_id is not among the columns of topic kafka.clicks in the catalog (the topic has payload, which the file does not name: a rename?), and the catalog refuses (400) a contract that names it',
    );
    expect(postsAndPatches(sandbox)).toEqual([]);
    const github = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(github.out).toMatch(/^::error file=contracts\/clicks\.yaml,line=7,col=\d+,/m);
    // As the server would have answered.
    const refused = await postContract(sandbox, env, {
      name: 'clicks',
      entity: { id: TOPIC, type: 'topic' },
      schema: [{ name: 'session_id', dataType: 'STRING' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Schema validation failed. The following fields specified in the data contract do not exist in the topic: session_id',
    );
    // Named as the topic has them, the contract is created, and nothing is left to change.
    await writeFile(path.join(cwd, 'contracts/clicks.yaml'), topicFile(['event_id', 'url']));
    const created = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });

  it('a topic without a message schema has no fields: every field named is an error, nothing sent', async () => {
    await expectPlanRefuses(
      topicSeed(undefined),
      { 'contracts/clicks.yaml': topicFile(['event_id']) },
      'column event_id is not among the columns of topic kafka.clicks in the catalog, and the catalog refuses (400) a contract that names it',
    );
  });
});

describe('API endpoints and dashboard data models on OpenMetadata: found through their own indexes', () => {
  const ENDPOINT = '6a000000-0000-4000-8000-0000000000f7';
  const MODEL = '6a000000-0000-4000-8000-0000000000f8';
  /** Assets as OpenMetadata stores them: an endpoint's request and response schemas, a model's columns. */
  const assetsSeed = () =>
    seed({
      users: [EDITOR],
      assets: [
        {
          id: ENDPOINT,
          entityType: 'apiEndpoint',
          name: 'getOrder',
          fullyQualifiedName: 'shop.orders.getOrder',
          requestSchema: {
            schemaType: 'JSON',
            schemaFields: [{ name: 'order_id', dataType: 'STRING' }],
          },
          responseSchema: {
            schemaType: 'JSON',
            schemaFields: [
              { name: 'status', dataType: 'STRING' },
              {
                name: 'customer',
                dataType: 'RECORD',
                children: [{ name: 'email', dataType: 'STRING' }],
              },
            ],
          },
        },
        {
          id: MODEL,
          entityType: 'dashboardDataModel',
          name: 'revenue',
          fullyQualifiedName: 'looker.model.revenue',
          columns: [
            { name: 'day', dataType: 'DATE' },
            { name: 'amount', dataType: 'DECIMAL' },
          ],
        },
      ],
      dataProducts: [],
      dataContracts: [],
    });
  const contractFile = (type: string, fqn: string, fields: [string, string][]) =>
    `name: c\nfullyQualifiedName: ${fqn}.dataContract_c\nentity: {type: ${type}, fullyQualifiedName: ${fqn}}\nschema:\n${fields.map(([name, dataType]) => `  - {name: ${name}, dataType: ${dataType}}\n`).join('')}`;
  const endpointFile = (fields: string[]) =>
    contractFile(
      'apiEndpoint',
      'shop.orders.getOrder',
      fields.map((name) => [name, 'STRING']),
    );
  const modelFile = (fields: [string, string][]) =>
    contractFile('dashboardDataModel', 'looker.model.revenue', fields);
  const fieldQuery = async (url: string, token: string, index: string, fqn: string) =>
    fetch(
      `${url}/v1/search/fieldQuery?fieldName=fullyQualifiedName&fieldValue=${fqn}&index=${index}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );

  it('the index holds the request and response schemas and their field names, never columns; the spec has no such index', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', assetsSeed());
    const answer = await fieldQuery(
      sandbox.url,
      env.CATALOG_TOKEN,
      'api_endpoint_search_index',
      'shop.orders.getOrder',
    );
    const source = (
      (await answer.json()) as { hits: { hits: { _source: Record<string, unknown> }[] } }
    ).hits.hits[0]!._source;
    expect(source.columns).toBeUndefined();
    expect(source.request_field_names).toEqual(['order_id']);
    expect(source.response_field_names).toEqual(['status', 'customer', 'customer.email']);
    const spec = await catalogOf('spec', assetsSeed());
    const refused = await fieldQuery(
      spec.sandbox.url,
      spec.env.CATALOG_TOKEN,
      'api_endpoint_search_index',
      'shop.orders.getOrder',
    );
    expect(refused.status).toBe(400);
    // An index is looked up as a name, never as a property every object has.
    const inherited = await fieldQuery(sandbox.url, env.CATALOG_TOKEN, 'constructor', 'x');
    expect(inherited.status).toBe(400);
  });

  it("an endpoint's field neither schema has: exit 1 at its line, nothing sent; named as the endpoint has them, the contract is created", async () => {
    const { sandbox, env } = await catalogOf('openmetadata', assetsSeed());
    const cwd = await filesDir({
      'contracts/get-order.yaml': endpointFile(['order_id', 'email', 'total']),
    });
    const run = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      'column total is not among the columns of apiEndpoint shop.orders.getOrder in the catalog',
    );
    expect(run.out).toMatch(/^::error file=contracts\/get-order\.yaml,line=7,col=\d+,/m);
    expect(postsAndPatches(sandbox)).toEqual([]);
    // As the server would have answered.
    const refused = await postContract(sandbox, env, {
      name: 'c',
      entity: { id: ENDPOINT, type: 'apiEndpoint' },
      schema: [{ name: 'total', dataType: 'STRING' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Schema validation failed. The following fields specified in the data contract do not exist in the apiEndpoint: total',
    );
    // A request field, a response field and a nested one, each by its own name.
    await writeFile(
      path.join(cwd, 'contracts/get-order.yaml'),
      endpointFile(['order_id', 'status', 'email']),
    );
    const created = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });

  it('a data model is checked by its columns and their types, and its contract is created', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', assetsSeed());
    const cwd = await filesDir({
      'contracts/revenue.yaml': modelFile([
        ['day', 'DATE'],
        ['amount', 'DECIMAL'],
        ['region', 'STRING'],
      ]),
    });
    const run = await cli(['plan'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      'column region is not among the columns of dashboardDataModel looker.model.revenue in the catalog',
    );
    expect(postsAndPatches(sandbox)).toEqual([]);
    await writeFile(
      path.join(cwd, 'contracts/revenue.yaml'),
      modelFile([
        ['day', 'DATE'],
        ['amount', 'BIGINT'],
      ]),
    );
    const typed = await cli(['plan'], { cwd, env });
    expect(typed.out).toContain(
      'column amount is BIGINT in the contract but DECIMAL in dashboardDataModel looker.model.revenue',
    );
    // A saved plan's create is checked against the asset again, through the same index.
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    const created = await cli(['apply', 'plan.json'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
    // And `import --entity` finds the model through it.
    const imported = await cli(
      ['import', '--entity', 'dashboardDataModel:looker.model.revenue', '--out', 'imported'],
      { cwd, env },
    );
    expect(imported.code, imported.out + imported.err).toBe(0);
  });

  it('an endpoint without schemas has no fields: every name is an error, nothing sent; a document that holds neither schema is not checked', async () => {
    const bare = assetsSeed();
    const endpoint = bare.assets.find((asset) => asset.id === ENDPOINT)!;
    delete endpoint.requestSchema;
    delete endpoint.responseSchema;
    await expectPlanRefuses(
      bare,
      { 'contracts/get-order.yaml': endpointFile(['order_id']) },
      'column order_id is not among the columns of apiEndpoint shop.orders.getOrder in the catalog',
    );
    // OpenMetadata writes both schemas into an endpoint's document, null when absent: one
    // holding neither was indexed without them, and says nothing of the endpoint's fields.
    const document = {
      id: ENDPOINT,
      fullyQualifiedName: 'shop.orders.getOrder',
      entityType: 'apiEndpoint',
    };
    expect(assetFields(document, 'openmetadata')).toBeUndefined();
    expect(assetFields({ ...document, apiFields: [] }, 'openmetadata')).toBe('[]');
  });

  it("an entity type's index is looked up by name, per profile, never as a property every object has", () => {
    expect(searchIndexFor('apiEndpoint', 'openmetadata')).toBe('api_endpoint_search_index');
    expect(searchIndexFor('apiEndpoint', 'spec')).toBeUndefined();
    expect(searchIndexFor('table', 'spec')).toBe('table_search_index');
    expect(searchIndexFor('constructor', 'openmetadata')).toBeUndefined();
    expect(searchIndexFor('toString', 'spec')).toBeUndefined();
  });

  it('against the specification, which lists no such index, the asset is not looked up and nothing is sent for it', async () => {
    const { sandbox, env } = await catalogOf('spec', assetsSeed());
    const cwd = await filesDir({ 'contracts/get-order.yaml': endpointFile(['order_id']) });
    const run = await cli(['plan'], { cwd, env });
    expect(run.out).toContain(
      'live-asset check skipped: the catalog has no search index for apiEndpoint',
    );
    expect(
      sandbox.requests().filter((r) => interfacePath(r.path) === '/v1/search/fieldQuery'),
    ).toEqual([]);
    expect(postsAndPatches(sandbox)).toEqual([]);
  });
});

describe("a table's nested columns", () => {
  const STRUCT_TABLE = '6a000000-0000-4000-8000-0000000000f4';
  const structSeed = () =>
    seed({
      users: [EDITOR],
      assets: [
        {
          id: STRUCT_TABLE,
          entityType: 'table',
          name: 'people',
          fullyQualifiedName: 'db.s.people',
          columns: [
            { name: 'id', dataType: 'BIGINT' },
            {
              name: 'address',
              dataType: 'STRUCT',
              children: [
                { name: 'city', dataType: 'VARCHAR' },
                {
                  name: 'geo',
                  dataType: 'STRUCT',
                  children: [{ name: 'lat', dataType: 'DOUBLE' }],
                },
              ],
            },
          ],
        },
      ],
      dataProducts: [],
      dataContracts: [],
    });
  const peopleFile = (columns: string[]) =>
    `name: people\nfullyQualifiedName: db.s.people.dataContract_people\nentity: {type: table, fullyQualifiedName: db.s.people}\nschema:\n${columns.map((c) => `  - {name: ${c}}\n`).join('')}`;
  const typed = (name: string, dataType: string) => `${name}, dataType: ${dataType}`;

  it('openmetadata: are named by their own names, at any depth, as the server checks them; one the table lacks is an error naming its top-level columns only', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', structSeed());
    const cwd = await filesDir({
      'contracts/people.yaml': peopleFile([
        typed('id', 'BIGINT'),
        typed('city', 'VARCHAR'),
        typed('lat', 'INT'),
        typed('zip', 'VARCHAR'),
      ]),
    });
    const plan = await cli(['plan', '--json'], { cwd, env });
    expect(plan.code).toBe(1);
    const change = JSON.parse(plan.out).changes[0];
    expect(change.error).toMatch(
      /^column zip is not among the columns of table db\.s\.people in the catalog \(the table has address, which the file does not name: a rename\?\)/,
    );
    // A nested column's type is weighed as a top-level one's.
    expect(change.warnings).toEqual([
      'column lat is INT in the contract but DOUBLE in table db.s.people',
    ]);
    // As the server answers.
    const refused = await postContract(sandbox, env, {
      name: 'people',
      entity: { id: STRUCT_TABLE, type: 'table' },
      schema: [
        { name: 'city', dataType: 'VARCHAR' },
        { name: 'zip', dataType: 'VARCHAR' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Schema validation failed. The following fields specified in the data contract do not exist in the table: zip',
    );
    await writeFile(
      path.join(cwd, 'contracts/people.yaml'),
      peopleFile([typed('id', 'BIGINT'), typed('city', 'VARCHAR'), typed('lat', 'DOUBLE')]),
    );
    // Said to reviewers: an older release may check only the table's own columns.
    const planned = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out).changes[0];
    expect(planned.action).toBe('create');
    expect(planned.notes).toContain(
      "columns city, lat are nested columns of table db.s.people (a struct's fields): OpenMetadata 1.13 takes them by their own names, but a release that checks only a table's own columns refuses (400) a contract that names them",
    );
    const created = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });

  it("spec: only a table's own columns are named", async () => {
    const { env } = await catalogOf('spec', structSeed());
    const cwd = await filesDir({
      'contracts/people.yaml': peopleFile([typed('id', 'BIGINT'), typed('city', 'VARCHAR')]),
    });
    const plan = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out);
    expect(plan.changes[0].error).toMatch(
      /^column city is not among the columns of table db\.s\.people/,
    );
  });
});

describe('sections OpenMetadata refuses for the asset type', () => {
  const DASHBOARD = '6a000000-0000-4000-8000-0000000000f2';
  const TOPIC = '6a000000-0000-4000-8000-0000000000f3';
  const assetsSeed = () =>
    seed({
      users: [EDITOR],
      assets: [
        { id: DASHBOARD, entityType: 'dashboard', name: 'sales', fullyQualifiedName: 'bi.sales' },
        {
          id: TOPIC,
          entityType: 'topic',
          name: 'clicks',
          fullyQualifiedName: 'kafka.clicks',
          messageSchema: { schemaType: 'Avro', schemaFields: [{ name: 'id', dataType: 'STRING' }] },
        },
      ],
      dataProducts: [],
      dataContracts: [],
      testCases: [{ fullyQualifiedName: 'kafka.clicks.id_is_unique' }],
    });
  const dashboardFile = `name: sales\nfullyQualifiedName: bi.sales.dataContract_sales\nentity: {type: dashboard, fullyQualifiedName: bi.sales}\nschema:\n  - {name: id, dataType: STRING}\n`;
  const topicFile = (quality: boolean) =>
    `name: clicks\nfullyQualifiedName: kafka.clicks.dataContract_clicks\nentity: {type: topic, fullyQualifiedName: kafka.clicks}\nschema:\n  - {name: id, dataType: STRING}\n${quality ? 'qualityExpectations:\n  - {fullyQualifiedName: kafka.clicks.id_is_unique}\n' : ''}`;

  it('are located for openmetadata (a schema outside tables, topics, API endpoints and data models; quality expectations outside tables), stored by the spec', () => {
    const cases: [string, string][] = [
      [
        dashboardFile,
        '5:3 OpenMetadata keeps a schema only in contracts of table, topic, apiEndpoint, dashboardDataModel, not of a dashboard; remove schema',
      ],
      [
        topicFile(true),
        '7:3 OpenMetadata runs quality expectations only in contracts of a table, not of a topic; remove qualityExpectations',
      ],
    ];
    for (const [text, expected] of cases) {
      const parsed = parseContract(text, 'c.yaml');
      if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
      const problems = (codec: typeof openMetadataCodec) =>
        storageProblems(parsed.value, codec.unstorable(parsed.value.contract)).map(
          (p) => `${p.line}:${p.column} ${p.message}`,
        );
      expect(problems(openMetadataCodec)).toEqual([expected]);
      expect(problems(specCodec)).toEqual([]);
    }
    const empty = parseContract(topicFile(false) + 'qualityExpectations: []\n', 'c.yaml');
    if (!empty.ok) throw new Error(empty.problems[0]!.message);
    expect(openMetadataCodec.unstorable(empty.value.contract)).toEqual([]);
  });

  it('openmetadata: exit 1 at the line, nothing sent; the sandbox refuses them as the server does, on create and on PATCH (400, nothing stored)', async () => {
    const { sandbox, env, client } = await catalogOf('openmetadata', assetsSeed());
    const cwd = await filesDir({
      'contracts/sales.yaml': dashboardFile,
      'contracts/clicks.yaml': topicFile(true),
    });
    const run = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toMatch(
      /^::error file=contracts\/clicks\.yaml,line=7,col=3,.*OpenMetadata runs quality expectations only in contracts of a table, not of a topic/m,
    );
    expect(run.out).toMatch(
      /^::error file=contracts\/sales\.yaml,line=5,col=3,.*OpenMetadata keeps a schema only in contracts of table, topic, apiEndpoint, dashboardDataModel, not of a dashboard/m,
    );
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    // As the server answers: both refusals in one message.
    const refused = await postContract(sandbox, env, {
      name: 'sales',
      entity: { id: DASHBOARD, type: 'dashboard' },
      schema: [{ name: 'id', dataType: 'STRING' }],
      qualityExpectations: [{ fullyQualifiedName: 'kafka.clicks.id_is_unique' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Data contract validation failed for dashboard entity: Schema validation is not supported for dashboard entities. Only table, topic, apiEndpoint, and dashboardDataModel entities support schema validation; Quality expectations are not supported for dashboard entities. Only table entities support quality expectations',
    );
    // The topic's contract without them is created; a PATCH adding them is refused.
    await writeFile(path.join(cwd, 'contracts/clicks.yaml'), topicFile(false));
    await writeFile(
      path.join(cwd, 'contracts/sales.yaml'),
      dashboardFile.replace(/schema:[\s\S]*/, 'description: sales\n'),
    );
    const created = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 2 created, 0 changed, 0 unchanged.');
    const stored = [...sandbox.store.contracts.values()].find((c) => c.name === 'clicks')!;
    const patched = await client.patch(`/v1/dataContracts/${stored.id}`, [
      {
        op: 'add',
        path: '/qualityExpectations',
        value: [{ fullyQualifiedName: 'kafka.clicks.id_is_unique' }],
      },
    ]);
    expect(patched.status).toBe(400);
    expect(patched.body.message).toMatch(
      /^Data contract validation failed for topic entity: Quality expectations are not supported for topic entities/,
    );
    expect(sandbox.store.contracts.get(stored.id)!.version).toBe(0.1);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });

  it('openmetadata: a live contract holding a schema its type may not have (stored before the rule), which the file leaves out, is an error while a change would be sent; schema: null removes it', async () => {
    const { sandbox, env } = await catalogOf(
      'openmetadata',
      seed({
        users: [EDITOR],
        assets: assetsSeed().assets,
        dataProducts: [],
        // A catalog may hold what a rule now refuses: its seed is taken as stored.
        dataContracts: [
          {
            id: CONTRACT,
            name: 'sales',
            fullyQualifiedName: 'bi.sales.dataContract_sales',
            entity: { id: DASHBOARD, type: 'dashboard', fullyQualifiedName: 'bi.sales' },
            version: 0.1,
            schema: [{ name: 'id', dataType: 'STRING' }],
          },
        ],
      }),
    );
    const head = dashboardFile.replace(/schema:[\s\S]*/, '');
    const cwd = await filesDir({ 'contracts/sales.yaml': `${head}description: Sales.\n` });
    // The catalog refuses any PATCH of it, as the real server does on every PATCH.
    const run = await cli(['plan', '--json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out).changes[0].error).toMatch(
      /^the live contract holds schema that the catalog refuses on every PATCH \(OpenMetadata keeps a schema only in contracts of table, topic, apiEndpoint, dashboardDataModel, not of a dashboard \(it was stored before that rule\)\), and this file leaves it out: .* To change the contract, set schema: null in the file to remove it with this change; nothing will be sent for this contract$/,
    );
    // Nothing to change: a warning only.
    await writeFile(path.join(cwd, 'contracts/sales.yaml'), head);
    const quiet = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.out).changes[0].warnings[0]).toMatch(
      /nothing is sent while the file matches it$/,
    );
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    await writeFile(
      path.join(cwd, 'contracts/sales.yaml'),
      `${head}description: Sales.\nschema: null\n`,
    );
    // import leaves the schema out, says why, and writes a file that plans to nothing.
    const imported = await cli(
      ['import', '--fqn', 'bi.sales.dataContract_sales', '--out', 'imported'],
      { cwd, env },
    );
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toMatch(
      /left out schema \(OpenMetadata keeps a schema only in contracts of .*, not of a dashboard; remove schema\); the field stays unmanaged/,
    );
    const written = await readFile(
      path.join(cwd, 'imported/bi.sales.dataContract_sales.yaml'),
      'utf8',
    );
    expect(written).not.toMatch(/^schema:/m);
    const again = await cli(['plan', '--detailed-exitcode', 'imported'], { cwd, env });
    expect(again.code, again.out + again.err).toBe(0);
    const applied = await cli(['apply', '--auto-approve', 'contracts'], { cwd, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ description: 'Sales.' });
    expect(sandbox.store.contracts.get(CONTRACT)!.schema).toBeUndefined();
  });

  it('a contract on an entity type OpenMetadata takes none on: located at entity.type, nothing sent; the sandbox refuses it alone, as the server does', async () => {
    const GLOSSARY_TERM = '6a000000-0000-4000-8000-0000000000f9';
    const METRIC = '6a000000-0000-4000-8000-0000000000fa';
    const { sandbox, env } = await catalogOf(
      'openmetadata',
      seed({
        users: [EDITOR],
        assets: [
          {
            id: GLOSSARY_TERM,
            entityType: 'glossaryTerm',
            name: 'revenue',
            fullyQualifiedName: 'business.revenue',
          },
          { id: METRIC, entityType: 'metric', name: 'arr', fullyQualifiedName: 'arr' },
        ],
        dataProducts: [],
        dataContracts: [],
      }),
    );
    const text = `name: revenue\nfullyQualifiedName: business.revenue.dataContract_revenue\nentity:\n  type: glossaryTerm\n  fullyQualifiedName: business.revenue\nschema:\n  - {name: id, dataType: STRING}\n`;
    const parsed = parseContract(text, 'c.yaml');
    if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
    // The type alone is said: the server weighs the sections only of types it takes.
    expect(
      storageProblems(parsed.value, openMetadataCodec.unstorable(parsed.value.contract)).map(
        (p) => `${p.line}:${p.column} ${p.message}`,
      ),
    ).toEqual([
      `4:9 OpenMetadata takes data contracts only on table, storedProcedure, database, databaseSchema, dashboard, chart, dashboardDataModel, pipeline, topic, searchIndex, apiCollection, apiEndpoint, api, mlmodel, container, directory, file, spreadsheet, worksheet, dataProduct, apiService, metric, not on a glossaryTerm`,
    ]);
    expect(specCodec.unstorable(parsed.value.contract)).toEqual([]);
    const cwd = await filesDir({ 'contracts/revenue.yaml': text });
    const run = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toMatch(
      /^::error file=contracts\/revenue\.yaml,line=4,col=9,.*not on a glossaryTerm/m,
    );
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    const refused = await postContract(sandbox, env, {
      name: 'revenue',
      entity: { id: GLOSSARY_TERM, type: 'glossaryTerm' },
      schema: [{ name: 'id', dataType: 'STRING' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "Data contract validation failed for glossaryTerm entity: Entity type 'glossaryTerm' is not supported for data contracts",
    );
    // A metric's contract: 2.1 takes it, so plan leaves it to the server; 1.13, played here, refuses it.
    const metric = parseContract(
      'name: arr\nfullyQualifiedName: arr.dataContract_arr\nentity: {type: metric, fullyQualifiedName: arr}\n',
      'm.yaml',
    );
    if (!metric.ok) throw new Error(metric.problems[0]!.message);
    expect(openMetadataCodec.unstorable(metric.value.contract)).toEqual([]);
    const metricRefused = await postContract(sandbox, env, {
      name: 'arr',
      entity: { id: METRIC, type: 'metric' },
    });
    expect(metricRefused.status).toBe(400);
    expect(metricRefused.body.message).toBe(
      "Data contract validation failed for metric entity: Entity type 'metric' is not supported for data contracts",
    );
    expect(sandbox.store.contracts.size).toBe(0);
  });
});

describe('a catalog whose field query returns only its first ten hits', () => {
  it('14 tables in one schema: plan finds every asset, none reported missing', async () => {
    const tables = Array.from({ length: 14 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const seedValue = seed({
      users: [EDITOR],
      assets: tables.map((name, i) => ({
        id: `6b000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        entityType: 'table',
        name,
        fullyQualifiedName: `db.s.${name}`,
        columns: [{ name: 'id', dataType: 'BIGINT' }],
      })),
      dataProducts: [],
      dataContracts: tables.map((name, i) => ({
        id: `6d000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name,
        fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
        entity: {
          id: `6b000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          type: 'table',
          fullyQualifiedName: `db.s.${name}`,
        },
        version: 0.1,
        schema: [{ name: 'id', dataType: 'BIGINT' }],
      })),
    });
    const { sandbox, env } = await catalogOf('openmetadata', seedValue);
    const files = Object.fromEntries(
      tables.map((name) => [
        `contracts/${name}.yaml`,
        `name: ${name}\nfullyQualifiedName: db.s.${name}.dataContract_${name}\nentity: {type: table, fullyQualifiedName: db.s.${name}}\nschema:\n  - {name: id, dataType: BIGINT}\n`,
      ]),
    );
    const cwd = await filesDir(files);
    const run = await cli(['plan', '--json'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(0);
    const plan = JSON.parse(run.out);
    expect(plan.summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      noop: 14,
      error: 0,
      missing: 0,
    });
    // The prefix query was cut at ten; the four it did not show were asked for one by one.
    const queries = sandbox
      .requests()
      .filter((r) => interfacePath(r.path) === '/v1/search/fieldQuery');
    expect(queries.length).toBe(2 + 4);
  });
});

describe('many tables of one database', () => {
  it('reads an FQN part by part, a quoted part holding dots', () => {
    expect(fqnParts('svc."my.db".s.t')).toEqual(['svc', '"my.db"', 's', 't']);
    expect(fqnParts('a.b.c.d')).toEqual(['a', 'b', 'c', 'd']);
  });

  it("are listed from the database's table list (a few requests), not searched one by one", async () => {
    const tables = Array.from({ length: 60 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const tableId = (i: number) => `6e000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const seedValue = seed({
      users: [EDITOR],
      assets: tables.map((name, i) => ({
        id: tableId(i),
        entityType: 'table',
        name,
        fullyQualifiedName: `svc.db.s.${name}`,
        service: { name: 'svc' },
        database: { name: 'db' },
        databaseSchema: { name: 's' },
        columns: [{ name: 'id', dataType: 'BIGINT' }],
      })),
      dataProducts: [],
      dataContracts: tables.map((name, i) => ({
        id: `6f000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name,
        fullyQualifiedName: `svc.db.s.${name}.dataContract_${name}`,
        entity: { id: tableId(i), type: 'table', fullyQualifiedName: `svc.db.s.${name}` },
        version: 0.1,
        schema: [{ name: 'id', dataType: 'BIGINT' }],
      })),
    });
    const { sandbox, env } = await catalogOf('openmetadata', seedValue);
    const file = (name: string, column = 'id') =>
      `name: ${name}\nfullyQualifiedName: svc.db.s.${name}.dataContract_${name}\nentity: {type: table, fullyQualifiedName: svc.db.s.${name}}\nschema:\n  - {name: ${column}, dataType: BIGINT}\n`;
    const cwd = await filesDir({
      ...Object.fromEntries(tables.map((name) => [`contracts/${name}.yaml`, file(name)])),
      // A column its table lacks (found through the list), and a table the catalog lacks.
      'contracts/t00.yaml': file('t00', 'other_id'),
      'contracts/ghost.yaml': file('ghost'),
    });
    const run = await cli(['plan', '--json'], { cwd, env });
    expect(run.code).toBe(1);
    const plan = JSON.parse(run.out);
    expect(plan.summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      noop: 59,
      error: 2,
      missing: 0,
    });
    const errors = plan.changes
      .filter((c: { action: string }) => c.action === 'error')
      .map((c: { error: string }) => c.error);
    expect(errors).toEqual([
      "the catalog has no contract named svc.db.s.ghost.dataContract_ghost, and it cannot be created: table svc.db.s.ghost is not in the catalog's search index: the contract's asset does not exist (or is deleted)",
      expect.stringMatching(/^column other_id is not among the columns of table svc\.db\.s\.t00/),
    ]);
    const asked = sandbox
      .requests()
      .map((r) => ({ path: interfacePath(r.path), query: new URLSearchParams(r.query) }));
    const lists = asked.filter((r) => r.path === '/v1/tables' && r.query.get('database') !== null);
    expect(lists.map((r) => Object.fromEntries(r.query))).toEqual([
      { database: 'svc.db', fields: 'columns,dataProducts', limit: '200' },
    ]);
    // Only the table the list did not hold is searched for (by itself).
    const searches = asked.filter((r) => r.path === '/v1/search/fieldQuery');
    expect(searches.map((r) => r.query.get('fieldValue'))).toEqual(['svc.db.s.ghost']);
  });
});

describe('the sandbox as OpenMetadata', () => {
  const path = `/v1/dataContracts/${CONTRACT}`;
  /** OpenMetadata's strong ETag of `text`: 16 hex digits of its SHA-256, in quotes. */
  const strong = (text: string) =>
    `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
  /** A PATCH of the contract's description with `ifMatch`. */
  const patchWith = (client: Client) => (ifMatch: string, value: string) =>
    client.patch(path, [{ op: 'add', path: '/description', value }], { ifMatch });

  it('1.13.1: a GET sends the strong ETag of version and updatedAt (a PATCH answer none); a PATCH takes it, W/"<version>" or a list holding one, is never folded, and one that no longer holds is refused (412, nothing stored)', async () => {
    let now = 1_800_000_000_000;
    const { sandbox, client } = await openSandbox({
      seed: oneTable('openmetadata', {}),
      profile: 'openmetadata',
      openmetadataVersion: '1.13.1',
      clock: () => now,
    });
    cleanups.push(() => sandbox.close());
    expect((await client.get('/v1/system/version')).body.version).toBe('1.13.1');
    const read = await client.get(path);
    expect(read.headers.get('etag')).toBe(strong(`0.1-${String(read.body.updatedAt)}`));
    const patch = patchWith(client);
    const first = await patch(read.headers.get('etag')!, 'a');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('etag')).toBeNull();
    const firstEtag = (await client.get(path)).headers.get('etag')!;
    expect(firstEtag).toBe(strong(`0.2-${now}`));
    now += 60_000;
    // The same user a minute later, without If-Match: folded into 0.2, but updatedAt moves, and
    // the ETag with it.
    expect(
      (await client.patch(path, [{ op: 'add', path: '/description', value: 'b' }])).status,
    ).toBe(200);
    const stale = await patch(firstEtag, 'c');
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({
      errorType: 'PRECONDITION_FAILED',
      message: `The entity has been modified. Current ETag: ${strong(`0.2-${now}`)}. Please refresh and retry with the latest version.`,
    });
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 0.2, description: 'b' });
    // The weak validator names the version alone; a PATCH with If-Match is a version of its own.
    expect((await patch('W/"0.1"', 'c')).status).toBe(412);
    expect((await patch('"stale", W/"0.2"', 'c')).status).toBe(200);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 0.3, description: 'c' });
    expect((await patch('*', 'd')).status).toBe(200);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 0.4, description: 'd' });
  });

  it('2.0: sends a hash of each answer, which no PATCH matches (412, nothing stored); W/"<version>" does', async () => {
    const { sandbox, client } = await catalogOf(
      'openmetadata',
      {
        ...oneTable('openmetadata', { version: 1, extension: { tier: 'gold' } }),
        customProperties: [{ name: 'tier' }],
      },
      '2.0.0',
    );
    expect((await client.get('/v1/system/version')).body.version).toBe('2.0.0');
    const read = await client.get(`${path}?fields=owners,reviewers,extension`);
    const etag = read.headers.get('etag')!;
    expect(etag).toBe(strong(JSON.stringify(read.body)));
    const patch = patchWith(client);
    const refused = await patch(etag, 'a');
    expect(refused.status).toBe(412);
    expect((refused.body as { message: string }).message).toContain(
      'The entity has been modified.',
    );
    expect(sandbox.store.contracts.get(CONTRACT)!.description).toBeUndefined();
    // The version as Java writes a Double: 1.0, never 1.
    expect((await patch('W/"1"', 'a')).status).toBe(412);
    const taken = await patch('W/"1.0"', 'a');
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 1.1, description: 'a' });
    // The answer's ETag moves with the answer: another projection, another ETag.
    const bare = await client.get(`${path}?fields=owners`);
    const full = await client.get(`${path}?fields=owners,reviewers,extension`);
    expect(full.headers.get('etag')).toBe(strong(JSON.stringify(full.body)));
    expect(full.headers.get('etag')).not.toBe(etag);
    expect(bare.body.extension).toBeUndefined();
    expect(bare.headers.get('etag')).toBe(strong(JSON.stringify(bare.body)));
    expect(bare.headers.get('etag')).not.toBe(full.headers.get('etag'));
  });

  it('plays only releases from 1.10 on, and only under the openmetadata profile', async () => {
    await expect(
      startSandbox({ profile: 'openmetadata', openmetadataVersion: '1.9.4' }),
    ).rejects.toThrow(
      "the OpenMetadata version must be 1.10 or later, written as 1.13.0, got '1.9.4'",
    );
    await expect(startSandbox({ openmetadataVersion: '1.13.0' })).rejects.toThrow(
      'only played under the openmetadata profile',
    );
    // The command says which flag is wrong, and serves nothing.
    const older = await cli(
      [
        'sandbox',
        'serve',
        '--port',
        '0',
        '--profile',
        'openmetadata',
        '--openmetadata-version',
        '1.9',
      ],
      { cwd: root },
    );
    expect(older.code).toBe(1);
    expect(older.err).toContain(
      "--openmetadata-version: the OpenMetadata version must be 1.10 or later, written as 1.13.0, got '1.9'",
    );
    expect(older.out).toBe('');
    const alone = await cli(
      ['sandbox', 'serve', '--port', '0', '--openmetadata-version', '2.0.0'],
      {
        cwd: root,
      },
    );
    expect(alone.code).toBe(1);
    expect(alone.err).toContain('--openmetadata-version needs --profile openmetadata');
    // A variant is taken only for a behaviour the release leaves open, written NAME=on|off.
    const serve = (...flags: string[]) =>
      cli(['sandbox', 'serve', '--port', '0', '--profile', 'openmetadata', ...flags], {
        cwd: root,
      });
    const settled = await serve(
      '--openmetadata-version',
      '1.12.6',
      '--openmetadata-variant',
      'ifMatchDropsContractChanges=off',
    );
    expect(settled.code).toBe(1);
    expect(settled.err).toContain(
      "--openmetadata-variant: 'ifMatchDropsContractChanges' is not unconfirmed on 1.12.6",
    );
    expect(settled.out).toBe('');
    const unwritten = await serve('--openmetadata-variant', 'ifMatchDropsContractChanges');
    expect(unwritten.code).toBe(1);
    expect(unwritten.err).toContain('--openmetadata-variant takes NAME=on or NAME=off');
  });

  it("folds one user's PATCHes without If-Match within ten minutes into one version; the answer's changeDescription says what each did, the stored one the session", async () => {
    let now = 1_800_000_000_000;
    const opened = await openSandbox({
      seed: oneTable('openmetadata', {}),
      profile: 'openmetadata',
      clock: () => now,
    });
    cleanups.push(() => opened.sandbox.close());
    const edit = async (value: string, user = 'alice') =>
      (
        await opened.client.patch(path, [{ op: 'add', path: '/description', value }], {
          token: await opened.token(user),
        })
      ).body as Record<string, unknown>;
    // From the first version: a version of its own.
    expect(await edit('a')).toMatchObject({
      version: 0.2,
      changeDescription: { previousVersion: 0.1, fieldsAdded: [{ name: 'description' }] },
      incrementalChangeDescription: { previousVersion: 0.1 },
    });
    now += 5 * 60_000;
    // Five minutes later, the same user: folded into 0.2, stored as described from 0.1; the
    // answer says what this PATCH did.
    const thisPatch = {
      previousVersion: 0.2,
      fieldsUpdated: [{ name: 'description', oldValue: 'a', newValue: 'b' }],
    };
    expect(await edit('b')).toMatchObject({
      version: 0.2,
      changeDescription: thisPatch,
      incrementalChangeDescription: thisPatch,
    });
    expect(opened.sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      updatedAt: now,
      changeDescription: {
        previousVersion: 0.1,
        fieldsAdded: [{ name: 'description', newValue: 'b' }],
        fieldsUpdated: [],
      },
    });
    // Eleven minutes after the last change: a new version.
    now += 11 * 60_000;
    expect(await edit('c')).toMatchObject({
      version: 0.3,
      changeDescription: { previousVersion: 0.2 },
    });
    // Another user, a minute later: a new version too.
    now += 60_000;
    expect(await edit('d', 'bob')).toMatchObject({ version: 0.4 });
  });

  it('keeps a PATCH only when it counts a change: a column described or a list reordered alone is answered 200 and dropped; with a counted change it is all kept', async () => {
    const opened = await openSandbox({
      seed: oneTable('openmetadata', {
        semantics: [
          { name: 'a', description: 'A.', rule: '{"!!":[{"var":"owners"}]}', enabled: true },
          { name: 'b', description: 'B.', rule: '{"!!":[{"var":"owners"}]}', enabled: true },
        ],
      }),
      profile: 'openmetadata',
    });
    cleanups.push(() => opened.sandbox.close());
    const stored = () => opened.sandbox.store.contracts.get(CONTRACT)!;
    const before = structuredClone(stored());
    const described = { op: 'add', path: '/schema/0/description', value: 'The key.' };
    const alone = await opened.client.patch(path, [described]);
    expect(alone.status).toBe(200);
    // Answered as patched, at the version it had, with nothing counted; and not stored.
    expect(alone.body).toMatchObject({
      version: 0.1,
      schema: [{ name: 'id', description: 'The key.' }],
      incrementalChangeDescription: { fieldsAdded: [], fieldsUpdated: [], fieldsDeleted: [] },
    });
    expect(stored()).toEqual(before);
    const reordered = await opened.client.patch(path, [
      { op: 'move', from: '/semantics/1', path: '/semantics/0' },
    ]);
    expect(reordered.body).toMatchObject({
      version: 0.1,
      semantics: [{ name: 'b' }, { name: 'a' }],
    });
    expect(stored()).toEqual(before);
    // A rule's description changed is a rule removed and one added: counted, and all is kept.
    const counted = await opened.client.patch(path, [
      described,
      { op: 'replace', path: '/semantics/1/description', value: 'Bee.' },
    ]);
    expect(counted.body).toMatchObject({ version: 0.2 });
    expect(stored()).toMatchObject({
      version: 0.2,
      schema: [{ name: 'id', description: 'The key.' }],
      semantics: [{ name: 'a' }, { name: 'b', description: 'Bee.' }],
      changeDescription: {
        fieldsAdded: [{ name: 'semantics' }],
        fieldsUpdated: [],
        fieldsDeleted: [{ name: 'semantics' }],
      },
    });
  });

  it('compares a test value as JSON-P does: the stored version 1.0 is not 1 (a failed test is a 500, as on every release; nothing stored)', async () => {
    const { sandbox, client } = await catalogOf(
      'openmetadata',
      oneTable('openmetadata', { version: 1 }),
    );
    const patch = (text: string) => client.patch(path, text);
    const edit = '{"op":"add","path":"/description","value":"x"}';
    for (const written of ['1', '1.00', '0.1']) {
      const refused = await patch(`[{"op":"test","path":"/version","value":${written}},${edit}]`);
      expect(refused.status, written).toBe(500);
      expect((refused.body as { message: string }).message).toContain(
        "The JSON Patch operation 'test' failed for path '/version'",
      );
    }
    // An Integer field compares at scale 0: 6, not 6.0.
    const interval = '/sla/refreshFrequency/interval';
    const asDouble = await patch(`[{"op":"test","path":"${interval}","value":6.0},${edit}]`);
    expect(asDouble.status).toBe(500);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 1 });
    expect(sandbox.store.contracts.get(CONTRACT)!.description).toBeUndefined();
    const landed = await patch(
      `[{"op":"test","path":"/version","value":1.0},{"op":"test","path":"/version","value":10e-1},{"op":"test","path":"${interval}","value":6},${edit}]`,
    );
    expect(landed.status, JSON.stringify(landed.body)).toBe(200);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 1.1, description: 'x' });
  });

  it('refuses (400, nothing stored) what OpenMetadata refuses: Active, a string termsOfUse, a rule without its parts, an unknown data type', async () => {
    const { sandbox, client } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const cases: [unknown[], RegExp][] = [
      [
        [{ op: 'replace', path: '/entityStatus', value: 'Active' }],
        /entityStatus must be one of \[Draft, In Review, Approved/,
      ],
      [[{ op: 'replace', path: '/termsOfUse', value: 'text' }], /\/termsOfUse must be object/],
      [
        [{ op: 'add', path: '/semantics/-', value: { name: 'r' } }],
        /\/semantics\/1 must have required property/,
      ],
      [
        [{ op: 'replace', path: '/schema/0/dataType', value: 'BIGNT' }],
        /\/schema\/0\/dataType must be equal to one of the allowed values/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await client.patch(path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(sandbox.store.contracts.get(CONTRACT)!.version).toBe(0.1);
  });

  it('knows the users, teams and test cases of its seed by name, and refuses a reference to any other (404, nothing stored)', async () => {
    const withTestCase = {
      ...oneTable('openmetadata', {}),
      testCases: [{ fullyQualifiedName: 'db.s.t.id.id_is_unique' }],
    };
    const { sandbox, client } = await catalogOf('openmetadata', withTestCase);
    const team = await client.get('/v1/teams/name/data');
    expect(team.status).toBe(200);
    expect(team.body).toMatchObject({
      type: 'team',
      name: 'data',
      fullyQualifiedName: 'data',
      teamType: 'Group',
    });
    expect((await client.get('/v1/users/name/alice')).body).toMatchObject({ type: 'user' });
    const testCase = await client.get('/v1/dataQuality/testCases/name/db.s.t.id.id_is_unique');
    expect(testCase.body).toMatchObject({ name: 'id_is_unique', type: 'testCase' });
    const missing = await client.get('/v1/teams/name/nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('team instance for nobody not found');
    // By name or by id, a reference resolves to the entity the sandbox knows.
    const added = await client.patch(path, [
      { op: 'add', path: '/owners', value: [{ type: 'team', fullyQualifiedName: 'data' }] },
      { op: 'add', path: '/reviewers', value: [{ id: team.body.id, type: 'team' }] },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // A reference, not the team: no teamType.
    const { teamType: _teamType, ...reference } = team.body;
    expect(sandbox.store.contracts.get(CONTRACT)!.reviewers).toEqual([
      { ...reference, deleted: false },
    ]);
    for (const value of [
      [{ type: 'team', fullyQualifiedName: 'nobody' }],
      [{ id: '00000000-0000-4000-8000-000000000000', type: 'user' }],
    ]) {
      const refused = await client.patch(path, [{ op: 'add', path: '/owners', value }]);
      expect(refused.status, JSON.stringify(value)).toBe(404);
    }
    expect(sandbox.store.contracts.get(CONTRACT)!.version).toBe(0.2);
  });

  it('ignores from and size on the field query: the first ten hits, always', async () => {
    const seedValue = seed({
      users: [EDITOR],
      assets: Array.from({ length: 12 }, (_, i) => ({
        id: `6e000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        entityType: 'table',
        name: `t${i}`,
        fullyQualifiedName: `db.s.t${String(i).padStart(2, '0')}`,
      })),
      dataProducts: [],
      dataContracts: [],
    });
    const { client } = await catalogOf('openmetadata', seedValue);
    const query = (from: number, size: number) =>
      client.get(
        `/v1/search/fieldQuery?fieldName=fullyQualifiedName&fieldValue=db.s.*&index=table_search_index&from=${from}&size=${size}`,
      );
    const first = await query(0, 10);
    const later = await query(10, 5);
    expect(first.body.hits.total.value).toBe(12);
    expect(later.body.hits.hits).toEqual(first.body.hits.hits);
    expect(later.body.hits.hits).toHaveLength(10);
  });
});

describe('the demo under openmetadata', () => {
  it('plans, applies and converges with examples/openmetadata; products in force are Approved; import writes files that plan to nothing', async () => {
    const opened = await openSandbox({ profile: 'openmetadata' });
    cleanups.push(() => opened.sandbox.close());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await cp(path.join(root, 'examples/openmetadata/contracts'), path.join(dir.dir, 'contracts'), {
      recursive: true,
    });
    const plan = await cli(['plan', '--json', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(plan.code, plan.err).toBe(2);
    const json = JSON.parse(plan.out);
    expect(json.summary).toEqual({
      create: 1,
      update: 3,
      delete: 0,
      noop: 2,
      error: 0,
      missing: 0,
    });
    const customers = json.changes.find(
      (c: { file: string }) => c.file === 'contracts/customers.yaml',
    );
    expect(customers.notes.join(' ')).toContain('inherited from data product sales-analytics');
    expect((await cli(['apply', '--auto-approve'], { cwd: dir.dir, env })).code).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env })).code).toBe(0);
    const imported = await cli(
      ['import', '--fqn', 'warehouse.sales.public.orders.dataContract_orders', '--out', 'imported'],
      { cwd: dir.dir, env },
    );
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toBe('');
    const again = await cli(['plan', '--detailed-exitcode', 'imported'], { cwd: dir.dir, env });
    expect(again.code, again.out).toBe(0);
  });
});

describe('changes OpenMetadata would not keep', () => {
  const live = {
    schema: [
      { name: 'id', dataType: 'BIGINT', fullyQualifiedName: 'db.s.t.id' },
      { name: 'at', dataType: 'TIMESTAMP' },
    ],
    semantics: [
      { name: 'a', rule: 'x', enabled: true },
      { name: 'b', rule: 'y', enabled: true },
    ],
    owners: [{ id: 'u1', type: 'user', name: 'ann' }],
    termsOfUse: { content: 'T.' },
  };
  const after = (change: (c: Record<string, any>) => void) => {
    const copy = structuredClone(live) as Record<string, any>;
    change(copy);
    return copy;
  };

  it('names what OpenMetadata counts as no change, and nothing when it counts one', () => {
    const description = unkeptChange(
      live,
      after((c) => (c.schema[1].description = 'When.')),
    );
    expect(description?.message).toMatch(
      /^column at's description will not be kept by OpenMetadata on its own: /,
    );
    expect(description).toMatchObject({
      code: 'unkept.column-property',
      severity: 'warning',
      pointer: '/schema/1/description',
    });
    // Columns match by name whatever its case (EntityUtil.columnMatch: equalsIgnoreCase).
    const recased = unkeptChange(
      live,
      after((c) => (c.schema[1].name = String(c.schema[1].name).toUpperCase())),
    );
    expect(recased).toMatchObject({ code: 'unkept.column-property', pointer: '/schema/1/name' });
    // Another array type is another column: counted, so kept.
    expect(
      unkeptChange(
        live,
        after((c) => (c.schema[1].arrayDataType = 'INT')),
      ),
    ).toBeUndefined();
    const reordered = unkeptChange(
      live,
      after((c) => {
        c.schema[0].constraint = 'NOT_NULL';
        c.schema.reverse();
      }),
    );
    expect(reordered?.message).toMatch(
      /^column id's constraint, the order of the columns will not be kept/,
    );
    // At the first thing it names: the column id, last now, and its constraint.
    expect(reordered).toMatchObject({
      code: 'unkept.column-property',
      pointer: `/schema/${live.schema.length - 1}/constraint`,
    });
    const rules = unkeptChange(
      live,
      after((c) => c.semantics.reverse()),
    );
    expect(rules?.message).toMatch(/^the order of the semantics rules will not be kept/);
    expect(rules).toMatchObject({ code: 'unkept.list-order', pointer: '/semantics' });
    const emptied = unkeptChange({ ...live, owners: null }, { ...live, owners: [] });
    expect(emptied).toMatchObject({ code: 'unkept.empty-list', pointer: '/owners' });
    // Counted: a column retyped, added or removed; a rule or a reference changed; another field.
    for (const counted of [
      (c: Record<string, any>) => (c.schema[1].dataType = 'DATE'),
      (c: Record<string, any>) => c.schema.pop(),
      (c: Record<string, any>) => (c.semantics[0].rule = 'z'),
      (c: Record<string, any>) => (c.owners = [{ id: 'u2', type: 'user', name: 'bo' }]),
      (c: Record<string, any>) => {
        c.schema[1].description = 'When.';
        c.termsOfUse = { content: 'New.' };
      },
    ])
      expect(unkeptChange(live, after(counted))).toBeUndefined();
    expect(unkeptChange(live, live)).toBeUndefined();
  });

  const described = `name: c
fullyQualifiedName: db.s.t.dataContract_c
entity: {type: table, fullyQualifiedName: db.s.t}
schema:
  - name: id
    dataType: BIGINT
    description: The key.
`;

  it('openmetadata: a column described alone is a warning at its line and no change (plan --detailed-exitcode 0, apply sends nothing); with a change counted it is kept and plan converges', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const cwd = await filesDir({ 'contracts/c.yaml': described });
    const plan = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toMatch(
      /^::warning file=contracts\/c.yaml,line=7,col=18,title=change the catalog will not keep::column id's description will not be kept by OpenMetadata on its own: .*so nothing is sent for it/m,
    );
    const detailed = await cli(['plan', '--detailed-exitcode', '--no-color'], { cwd, env });
    expect(detailed.code, detailed.out).toBe(0);
    expect(detailed.out).toContain('Plan: 0 to change, 1 unchanged, 0 errors.');
    // The files do not match the catalog in full, and the headline says so.
    expect(detailed.out).toMatch(
      /^No changes\. The data contracts in \S+ match the files, except one contract with a difference OpenMetadata would not keep on its own \(see its warning\)\.$/m,
    );
    const drift = await cli(['drift', '--no-color'], { cwd, env });
    expect(drift.code, drift.out).toBe(0);
    expect(drift.out).toMatch(
      /^No drift\. The data contracts in \S+ match the files, except one /m,
    );
    const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(apply.code, apply.out).toBe(0);
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
    expect((sandbox.store.contracts.get(CONTRACT)!.schema as object[])[0]).not.toHaveProperty(
      'description',
    );
    // --strict: an error, nothing sent.
    const patches = () => sandbox.requests().filter((r) => r.method === 'PATCH').length;
    const sent = patches();
    const strict = await cli(['apply', '--auto-approve', '--strict'], { cwd, env });
    expect(strict.code).toBe(1);
    expect(strict.out + strict.err).toContain('--strict makes this an error');
    expect(patches()).toBe(sent);
    // With a change OpenMetadata counts, the description is kept too.
    await writeFile(path.join(cwd, 'contracts/c.yaml'), `${described}termsOfUse: New terms.\n`);
    const both = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(both.code, both.out).toBe(0);
    expect(both.out).not.toContain('will not be kept');
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      version: 0.2,
      schema: [{ name: 'id', description: 'The key.' }],
    });
    const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
    expect(again.code, again.out).toBe(0);
  });

  it('openmetadata: owners come back sorted by name, so a file listing them otherwise converges, with no reorder planned', async () => {
    const { sandbox, env } = await catalogOf('openmetadata', oneTable('openmetadata', {}));
    const cwd = await filesDir({
      'contracts/c.yaml': `${head}owners:\n  - {type: user, name: bob}\n  - {type: user, name: alice}\n`,
    });
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code, apply.out).toBe(0);
    expect(
      (sandbox.store.contracts.get(CONTRACT)!.owners as { name: string }[]).map((o) => o.name),
    ).toEqual(['alice', 'bob']);
    const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
    expect(again.code, again.out).toBe(0);
  });

  it('spec: the same change is kept, with no warning', async () => {
    const { sandbox, env } = await catalogOf('spec', oneTable('spec', {}));
    const cwd = await filesDir({ 'contracts/c.yaml': described });
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code, apply.out).toBe(0);
    expect(apply.out).not.toContain('will not be kept');
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      version: 0.2,
      schema: [{ name: 'id', description: 'The key.' }],
    });
  });
});

describe('plan --format github', () => {
  it('annotates a retyped column at its dataType line and each slowed SLA property at its own line', async () => {
    const { env } = await catalogOf(
      'spec',
      oneTable('spec', {
        schema: [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'updated_at', dataType: 'TIMESTAMP' },
        ],
        sla: { refreshFrequency: 'PT6H', maxLatency: 'PT15M' },
      }),
    );
    const cwd = await filesDir({
      'contracts/c.yaml': `name: c
fullyQualifiedName: db.s.t.dataContract_c
entity: {type: table, fullyQualifiedName: db.s.t}
schema:
  - name: id
    dataType: BIGINT
  - name: updated_at
    dataType: DATE
sla:
  refreshFrequency: PT12H
  maxLatency: PT1H
`,
    });
    const run = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(run.code).toBe(0);
    const commands = run.out.split('\n').filter((line) => line.startsWith('::'));
    expect(commands).toEqual([
      '::warning file=contracts/c.yaml,line=8,col=15,title=breaking data contract change::breaking: column updated_at type changed from TIMESTAMP to DATE',
      '::warning file=contracts/c.yaml,line=10,col=21,title=breaking data contract change::breaking: SLA refresh frequency slowed from PT6H to PT12H',
      '::warning file=contracts/c.yaml,line=11,col=15,title=breaking data contract change::breaking: SLA max latency raised from PT15M to PT1H',
      '::warning file=contracts/c.yaml,line=8,col=15,title=live-asset check::column updated_at is DATE in the contract but TIMESTAMP in table db.s.t',
    ]);
    expect(run.out).toContain('Plan: 1 to change, 0 unchanged, 0 errors.');
  });
});
