// Creating contracts: a new file for an existing table becomes a new contract, under both
// profiles; a missing table, a contract created meanwhile, a moved asset and a lost answer are
// handled as users expect. Against a real sandbox over HTTP.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../src/apply/apply-plan.js';
import { applyCreate, type CatalogCreator } from '../src/apply/create.js';
import { CatalogClient } from '../src/catalog/client.js';
import { CatalogError, NetworkError } from '../src/model/errors.js';
import { planFromFiles } from '../src/pipeline/plan-pipeline.js';
import { codecFor, openMetadataCodec } from '../src/profile/codec.js';
import type { PlannedChange } from '../src/plan/types.js';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { interfacePath, openSandbox, postContract, seed, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TABLE = '7a000000-0000-4000-8000-000000000001';
const users = [
  { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
  { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
  { name: 'carol', permissions: ['SearchEntities'] },
];
const tableSeed = () =>
  seed({
    users,
    assets: [
      {
        id: TABLE,
        entityType: 'table',
        name: 'shipments',
        fullyQualifiedName: 'db.s.shipments',
        columns: [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'eta', dataType: 'DATE' },
        ],
      },
    ],
    dataProducts: [],
    dataContracts: [],
    teams: [{ name: 'logistics' }],
  });

const FQN = 'db.s.shipments.dataContract_shipments';
function file(extra = '', fqn = FQN, table = 'db.s.shipments'): string {
  return `name: shipments\nfullyQualifiedName: ${fqn}\nentity: {type: table, fullyQualifiedName: ${table}}\ndescription: Shipments.\nschema:\n  - {name: id, dataType: BIGINT, constraint: PRIMARY_KEY}\n  - {name: eta, dataType: DATE}\n${extra}`;
}

async function setup(
  profile: 'spec' | 'openmetadata',
  contract: string,
  options: Parameters<typeof openSandbox>[0] = {},
) {
  const opened = await openSandbox({ seed: tableSeed(), profile, ...options });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir({ 'contracts/shipments.yaml': contract });
  cleanups.push(() => dir.remove());
  const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
  return { ...opened, cwd: dir.dir, env };
}

/** `POST /v1/dataContracts` with `body`, as someone else would create a contract. */
/** Writes to the catalog interface (admin routes of the sandbox excluded). */
const writes = (sandbox: Sandbox) =>
  sandbox
    .requests()
    .filter(
      (r) =>
        interfacePath(r.path).startsWith('/v1/') && (r.method === 'POST' || r.method === 'PATCH'),
    );

describe('a new file for an existing table', () => {
  for (const [profile, extra] of [
    [
      'spec',
      'entityStatus: Active\nsla: {refreshFrequency: PT1H, availability: 99.5}\ntermsOfUse: Internal.\nsemantics:\n  - {name: hasOwner}\n',
    ],
    [
      'openmetadata',
      'entityStatus: Approved\nsla: {refreshFrequency: PT1H, retention: P30D}\ntermsOfUse: Internal.\nsemantics:\n  - {name: hasOwner, description: Owned., rule: "{}", enabled: true}\nowners:\n  - {type: team, name: logistics}\n',
    ],
  ] as const) {
    it(`${profile}: plan shows +, apply creates it, plan again shows no changes`, async () => {
      const { sandbox, cwd, env } = await setup(profile, file(extra));
      const plan = await cli(['plan', '--detailed-exitcode'], { cwd, env });
      expect(plan.code, plan.out + plan.err).toBe(2);
      expect(plan.out).toContain(`  + ${FQN}`);
      expect(plan.out).toContain('contracts/shipments.yaml · new contract on table db.s.shipments');
      expect(plan.out).toContain('+ description: "Shipments."');
      expect(plan.out).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
      const json = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out);
      expect(json.changes[0]).toMatchObject({
        action: 'create',
        create: {
          assetId: TABLE,
          body: { name: 'shipments', entity: { id: TABLE, type: 'table' } },
        },
      });
      if (profile === 'openmetadata') {
        expect(json.changes[0].create.body.termsOfUse).toBe('Internal.');
        // The create request's references carry ids: the team's, looked up by its name.
        const team = await fetch(`${sandbox.url}/v1/teams/name/logistics`, {
          headers: { authorization: `Bearer ${env.CATALOG_TOKEN}` },
        });
        expect(json.changes[0].create.body.owners).toEqual([
          {
            id: ((await team.json()) as { id: string }).id,
            type: 'team',
            name: 'logistics',
            fullyQualifiedName: 'logistics',
          },
        ]);
      }
      const apply = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      expect(apply.out).toMatch(
        /\+ db\.s\.shipments\.dataContract_shipments {2}created: id [0-9a-f-]{36}, version 0\.1/,
      );
      expect(apply.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
      sandbox.clearRequests();
      const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
      expect(again.code, again.out).toBe(0);
      // References the live contract holds are not looked up again.
      expect(sandbox.requests().filter((r) => /\/(users|teams)\/name\//.test(r.path))).toEqual([]);
      const stored = sandbox.store.contractByFqn(FQN)!;
      expect(stored).toMatchObject({ version: 0.1, entity: { id: TABLE, type: 'table' } });
      if (profile === 'openmetadata')
        expect(stored).toMatchObject({
          termsOfUse: { content: 'Internal.' },
          sla: { retention: { period: 30, unit: 'day' } },
        });
    });
  }

  it('openmetadata: a user, team or test case the catalog lacks is an error at its item, and nothing is sent', async () => {
    const base = 'entityStatus: Approved\nowners:\n  - {type: team, name: logistics}\n';
    const { sandbox, cwd, env } = await setup(
      'openmetadata',
      file(`${base}reviewers:\n  - {type: user, name: alice}\n  - {type: user, name: nobody}\n`),
    );
    const plan = await cli(['plan'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.out).toContain(
      'reviewers[1] names user nobody, which the catalog does not have: create it in the catalog first, or correct the name',
    );
    const github = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(github.out).toMatch(/::error file=contracts\/shipments\.yaml,line=13,col=5,/);
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code).toBe(1);
    expect(writes(sandbox)).toEqual([]);
    // Once created, a reference added later is looked up the same way before any PATCH.
    await writeFile(path.join(cwd, 'contracts', 'shipments.yaml'), file(base));
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
    await writeFile(
      path.join(cwd, 'contracts', 'shipments.yaml'),
      file(
        `${base}qualityExpectations:\n  - {fullyQualifiedName: db.s.shipments.id.id_is_unique}\n`,
      ),
    );
    sandbox.clearRequests();
    const again = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(again.code).toBe(1);
    expect(again.out).toContain(
      'qualityExpectations[0] names test case db.s.shipments.id.id_is_unique, which the catalog does not have',
    );
    expect(writes(sandbox)).toEqual([]);
  });

  it('openmetadata: a team owner that is not of type Group is an error at its item (the server refuses it), nothing sent', async () => {
    const withDepartment = () => {
      const value = tableSeed();
      return { ...value, teams: [...(value.teams ?? []), { name: 'ops', teamType: 'Department' }] };
    };
    const opened = await openSandbox({ seed: withDepartment(), profile: 'openmetadata' });
    cleanups.push(() => opened.sandbox.close());
    const owned =
      'entityStatus: Approved\nowners:\n  - {type: team, name: logistics}\n  - {type: team, name: ops}\n';
    const dir = await tempDir({ 'contracts/shipments.yaml': file(owned) });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const team = async (name: string) =>
      (await (
        await fetch(`${opened.sandbox.url}/v1/teams/name/${name}`, {
          headers: { authorization: `Bearer ${env.CATALOG_TOKEN}` },
        })
      ).json()) as { id: string; teamType: string };
    expect((await team('logistics')).teamType).toBe('Group');
    const ops = await team('ops');
    expect(ops.teamType).toBe('Department');
    // What the server answers such a write.
    const refused = await postContract(opened.sandbox, env, {
      name: 'shipments',
      entity: { id: TABLE, type: 'table' },
      owners: [{ id: ops.id, type: 'team' }],
    });
    expect(refused).toEqual({
      status: 400,
      body: expect.objectContaining({
        message:
          "Team of type Department can't own entities. Only Team of type Group can own entities.",
      }),
    });
    opened.sandbox.clearRequests();
    const run = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(run.code, run.out + run.err).toBe(1);
    // Said with the ownership rule the same owners break: one run tells everything to mend.
    expect(run.out).toContain(
      'it cannot be created: owners[1] names team ops, a team of type Department, and the catalog lets only teams of type Group own anything (it refuses the write with a 400): name a team of type Group or a user instead. Also, owners[1] (team ops) makes the owners more than one team, or a team beside users, which this catalog\'s data asset rule "Multiple Users or Single Team Ownership" refuses (400)',
    );
    expect(writes(opened.sandbox)).toEqual([]);
    const github = await cli(['plan', '--format', 'github'], { cwd: dir.dir, env });
    expect(github.out).toMatch(/::error file=contracts\/shipments\.yaml,line=11,col=5,/);
  });

  it("openmetadata: owners a team beside users break the catalog's ownership rule: an error at the item, nothing sent; with the rule off, created", async () => {
    const owned =
      'entityStatus: Approved\nowners:\n  - {type: team, name: logistics}\n  - {type: user, name: alice}\n';
    const { sandbox, cwd, env } = await setup('openmetadata', file(owned));
    const rules = await fetch(
      `${sandbox.url}/v1/system/settings/entityRulesSettings/dataContract`,
      { headers: { authorization: `Bearer ${env.CATALOG_TOKEN}` } },
    );
    // OpenMetadata's defaults, but the one for tables only.
    expect(((await rules.json()) as { name: string }[]).map((rule) => rule.name)).toEqual([
      'Multiple Users or Single Team Ownership',
      'Multiple Domains are not allowed',
      'Multiple Data Products are not allowed',
      'Data Product Domain Validation',
    ]);
    // What the server answers such a write.
    const refused = await postContract(sandbox, env, {
      name: 'shipments',
      entity: { id: TABLE, type: 'table' },
      owners: [
        { type: 'team', fullyQualifiedName: 'logistics' },
        { type: 'user', fullyQualifiedName: 'alice' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Rule [Multiple Users or Single Team Ownership] validation failed: Entity does not satisfy the rule. Rule context: Validates that an entity has either multiple owners or a single team as the owner.',
    );
    sandbox.clearRequests();
    const run = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      'owners[1] (user alice) makes the owners a team beside users, which this catalog\'s data asset rule "Multiple Users or Single Team Ownership" refuses (400): name one team, or users only',
    );
    expect(writes(sandbox)).toEqual([]);
    const github = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(github.out).toMatch(/::error file=contracts\/shipments\.yaml,line=11,col=5,/);
    // The same file against a catalog whose admin turned the rule off is created as written.
    const off = await openSandbox({
      seed: {
        ...tableSeed(),
        dataAssetRules: [
          {
            name: 'Multiple Users or Single Team Ownership',
            rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
            enabled: false,
          },
        ],
      },
      profile: 'openmetadata',
    });
    cleanups.push(() => off.sandbox.close());
    const offEnv = { CATALOG_URL: off.sandbox.url, CATALOG_TOKEN: await off.token() };
    const created = await cli(['apply', '--auto-approve'], { cwd, env: offEnv });
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
  });

  it('coverage marks the table whose contract a file will create', async () => {
    const { cwd, env } = await setup('spec', file());
    const run = await cli(['coverage'], { cwd, env });
    expect(run.out).toContain('(contracts/shipments.yaml: not in the catalog yet)');
    expect(run.out).toContain('1 to be created from git');
  });
});

describe('what is not created', () => {
  it('a file for a table that does not exist: exit 1, the table named, nothing sent', async () => {
    const { sandbox, cwd, env } = await setup(
      'spec',
      file('', 'db.s.ghosts.dataContract_shipments', 'db.s.ghosts'),
    );
    const run = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      "cannot be created: table db.s.ghosts is not in the catalog's search index: the contract's asset does not exist (or is deleted)",
    );
    expect(run.out).toContain('Plan: 0 to change, 0 unchanged, 1 error.');
    expect(writes(sandbox)).toEqual([]);
  });

  it('a name the catalog would not give the new contract: exit 1, the name to use', async () => {
    const { sandbox, cwd, env } = await setup('spec', file('', 'shipping.contract'));
    const run = await cli(['plan'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`'${FQN}'; set fullyQualifiedName to that`);
    expect(writes(sandbox)).toEqual([]);
  });

  it("when the asset's contract in force cannot be read, plan says what that leaves unknown, and still plans the create", async () => {
    const { sandbox, cwd, env } = await setup('spec', file(), {
      faults: {
        seed: 1,
        rules: [
          { method: 'GET', path: '/dataContracts/entity', kind: 'status', status: 500, rate: 1 },
        ],
      },
    });
    const plan = await cli(['plan', '--detailed-exitcode'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(2);
    expect(plan.out).toContain(
      'note: could not read the contract in force on table db.s.shipments (',
    );
    expect(plan.out).toContain(
      '): if the asset already has a contract of another name, the catalog will refuse this one',
    );
    expect(plan.out).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
    expect(sandbox.faults!.injected.status).toBe(1);
  });

  it('a saved plan whose create someone else made meanwhile is stale: refused whole, nothing sent', async () => {
    const { sandbox, cwd, env } = await setup('spec', file());
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    const created = await fetch(`${sandbox.url}/v1/dataContracts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.CATALOG_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shipments', entity: { id: TABLE, type: 'table' } }),
    });
    expect(created.status).toBe(201);
    const run = await cli(['apply', 'plan.json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `plan is stale: re-run plan. 1 contract changed since it was made: ${FQN} (planned as a new contract, but it now exists, at version 0.1). Nothing was sent.`,
    );
    expect(writes(sandbox)).toHaveLength(1);
  });

  it('a saved plan whose table was replaced (another id) is stale', async () => {
    const { sandbox, cwd, env, client } = await setup('spec', file());
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    const asset = { ...tableSeed().assets[0]!, id: '7a000000-0000-4000-8000-000000000002' };
    expect((await client.admin('DELETE', `/sandbox/assets/${TABLE}`)).status).toBe(204);
    expect((await client.admin('POST', '/sandbox/assets', asset)).status).toBe(201);
    const run = await cli(['apply', 'plan.json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `planned on table db.s.shipments with id ${TABLE}, which now has id 7a000000-0000-4000-8000-000000000002`,
    );
    expect(writes(sandbox)).toEqual([]);
  });

  // The catalog keeps one contract per asset: a plan that said "create" would only fail on apply.
  for (const profile of ['spec', 'openmetadata'] as const)
    it(`${profile}: a table whose own contract has another name: exit 1 at plan, the name to use, nothing sent`, async () => {
      const { sandbox, cwd, env } = await setup(profile, file());
      expect(
        (await postContract(sandbox, env, { name: 'legacy', entity: { id: TABLE, type: 'table' } }))
          .status,
      ).toBe(201);
      sandbox.clearRequests();
      const run = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(run.code, run.out + run.err).toBe(1);
      expect(run.out).toContain(
        'error: contracts/shipments.yaml:2:1 table db.s.shipments already has a data contract, db.s.shipments.dataContract_legacy, and the catalog keeps one per asset, so it would refuse this one: to manage that contract with this file, set name to legacy and fullyQualifiedName to db.s.shipments.dataContract_legacy (contracts import --fqn db.s.shipments.dataContract_legacy writes its file); nothing will be sent for this contract',
      );
      expect(run.out).toContain('Plan: 0 to change, 0 unchanged, 1 error.');
      expect(writes(sandbox)).toEqual([]);
      // Annotated at the file's fullyQualifiedName.
      const github = await cli(['plan', '--format', 'github'], { cwd, env });
      expect(github.out).toMatch(
        /^::error file=contracts\/shipments\.yaml,line=2,col=\d+,title=contract cannot be planned::table db\.s\.shipments already has a data contract/m,
      );
    });

  it('a deleted contract that keeps the name: exit 1 at plan, restore or delete it for good, nothing sent', async () => {
    const { sandbox, cwd, env, client } = await setup('spec', file());
    const deleted = {
      id: '7c000000-0000-4000-8000-000000000001',
      name: 'shipments',
      fullyQualifiedName: FQN,
      entity: { id: TABLE, type: 'table', fullyQualifiedName: 'db.s.shipments' },
      version: 0.3,
      deleted: true,
    };
    expect((await client.admin('POST', '/sandbox/dataContracts', deleted)).status).toBe(201);
    // The real server's answer to that create, had plan said "create".
    const refused = await postContract(sandbox, env, {
      name: 'shipments',
      entity: { id: TABLE, type: 'table' },
    });
    expect(refused).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 409, message: 'Entity already exists' }),
    });
    sandbox.clearRequests();
    const run = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      `error: contracts/shipments.yaml:2:1 the catalog holds a deleted data contract named ${FQN} (id ${deleted.id}, version 0.3), and a deleted contract keeps its name, so it would refuse to create another: restore that one with \`contracts restore ${FQN}\` and plan again to bring it to this file, or delete it for good (DELETE /v1/dataContracts/${deleted.id}?hardDelete=true); nothing will be sent for this contract`,
    );
    expect(writes(sandbox)).toEqual([]);
    // Asked for by name with include=deleted, after the plain read found nothing.
    expect(
      sandbox
        .requests()
        .filter((r) => r.path.endsWith(`/dataContracts/name/${FQN}`))
        .map((r) => r.query),
    ).toEqual(['fields=owners%2Creviewers%2Cextension', 'include=deleted']);
  });

  it('a saved plan whose table got a contract of another name meanwhile is stale: refused whole, nothing sent', async () => {
    const { sandbox, cwd, env } = await setup('spec', file());
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    expect(
      (await postContract(sandbox, env, { name: 'legacy', entity: { id: TABLE, type: 'table' } }))
        .status,
    ).toBe(201);
    const run = await cli(['apply', 'plan.json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `1 contract changed since it was made: ${FQN} (planned as a new contract, but table db.s.shipments now has contract db.s.shipments.dataContract_legacy). Nothing was sent.`,
    );
    expect(writes(sandbox)).toHaveLength(1);
  });

  it('a saved plan whose name a contract deleted meanwhile keeps is stale', async () => {
    const { sandbox, cwd, env, client } = await setup('spec', file());
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    const id = '7c000000-0000-4000-8000-000000000002';
    const entity = { id: TABLE, type: 'table', fullyQualifiedName: 'db.s.shipments' };
    const deleted = { id, name: 'shipments', fullyQualifiedName: FQN, entity, deleted: true };
    expect((await client.admin('POST', '/sandbox/dataContracts', deleted)).status).toBe(201);
    const run = await cli(['apply', 'plan.json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `${FQN} (planned as a new contract, but a deleted contract of that name, id ${id}, now keeps the name). Nothing was sent.`,
    );
    expect(writes(sandbox)).toEqual([]);
  });

  it('without EditDataContract: 403, apply stops, nothing created', async () => {
    const opened = await setup('spec', file());
    const env = { ...opened.env, CATALOG_TOKEN: await opened.token('bob') };
    const run = await cli(['apply', '--auto-approve'], { cwd: opened.cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain('failed with 403 FORBIDDEN');
    expect(opened.sandbox.store.contractByFqn(FQN)).toBeUndefined();
  });
});

describe('a lost answer after a POST', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: another job created the contract with other content meanwhile: a CONFLICT naming its version, never "created"',
    async (profile) => {
      const { sandbox, cwd, env } = await setup(profile, file());
      const client = new CatalogClient({ baseUrl: sandbox.url, token: env.CATALOG_TOKEN });
      cleanups.push(() => client.close());
      const { plan, desired } = (await planFromFiles(
        { paths: ['contracts'], cwd, catalogUrl: sandbox.url, gitCommit: null, keepLive: true },
        client,
      )) as Extract<Awaited<ReturnType<typeof planFromFiles>>, { ok: true }>;
      expect(plan.summary.create).toBe(1);
      const codec = codecFor(profile);
      // The POST's answer is lost, and meanwhile another job created the same contract its way.
      const racing = Object.assign(Object.create(client) as CatalogClient, {
        createContract: async (body: Record<string, unknown>) => {
          const theirs = await postContract(sandbox, env, { ...body, description: 'Theirs.' });
          expect(theirs.status).toBe(201);
          throw new NetworkError('POST /v1/dataContracts: the connection was reset');
        },
      });
      const report = await applyPlan(plan, racing, { desired, codec });
      expect(report.results[0]).toMatchObject({ status: 'failed', errorType: 'CONFLICT' });
      expect((report.results[0] as { message: string }).message).toMatch(
        /the contract of that name the catalog now holds \(id [0-9a-f-]+, version 0\.1, last changed by alice\) differs from what this create sent in description: another writer created it/,
      );
      expect(sandbox.store.contractByFqn(FQN)).toMatchObject({ description: 'Theirs.' });
      // The same content, on a catalog of its own, answered 201 with a body cut short: the
      // create is in place, whoever sent it.
      const other = await openSandbox({ seed: tableSeed(), profile });
      cleanups.push(() => other.sandbox.close());
      const fresh = new CatalogClient({ baseUrl: other.sandbox.url, token: env.CATALOG_TOKEN });
      cleanups.push(() => fresh.close());
      const sameOn = Object.assign(Object.create(fresh) as CatalogClient, {
        createContract: async (body: Record<string, unknown>) => {
          await fresh.createContract(body);
          // Landed, and answered 201 with a body a proxy cut short.
          throw new CatalogError(
            201,
            'INVALID_RESPONSE',
            'the catalog answered 201 with a body that is not JSON',
            'POST /v1/dataContracts',
          );
        },
      });
      const applied = await applyPlan({ ...plan, catalogUrl: other.sandbox.url }, sameOn, {
        desired,
        codec,
        liveContracts: new Map(),
      });
      expect(applied.results[0]).toMatchObject({ status: 'applied', confirmedByReread: true });
    },
  );

  it('is read back by name: created once, reported as created', async () => {
    const { sandbox, cwd, env } = await setup('spec', file(), {
      faults: { seed: 1, rules: [{ method: 'POST', kind: 'commit-drop', rate: 1 }] },
    });
    const run = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain(
      '(the response was lost; reading the contract back showed the change in place)',
    );
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    expect([...sandbox.store.contracts.values()]).toHaveLength(1);
  });
});

describe('a create the catalog answers without some of what was sent', () => {
  // A server that builds the new contract without some fields (one of OpenMetadata's mappers
  // left out terms of use, security and SLA) cannot run here: a creator that answers as it would.
  const change: PlannedChange = {
    file: 'contracts/c.yaml',
    fullyQualifiedName: 'db.s.t.dataContract_c',
    id: null,
    liveVersion: null,
    liveHash: null,
    action: 'create',
    patch: [],
    breaking: [],
    diff: [],
    warnings: [],
    notes: [],
    error: null,
    create: {
      assetId: TABLE,
      assetType: 'table',
      assetFullyQualifiedName: 'db.s.t',
      body: {
        name: 'c',
        entity: { id: TABLE, type: 'table' },
        description: 'd',
        termsOfUse: 'Terms.',
        sla: { refreshFrequency: { interval: 1, unit: 'hour' } },
      },
    },
  };
  const creator = (answer: Record<string, unknown>): CatalogCreator =>
    ({
      redact: (text: string) => text,
      createContract: () => Promise.resolve({ id: 'c1', version: 0.1, ...answer }),
    }) as unknown as CatalogCreator;

  it('is not reported created as planned: NOT_KEPT names what the catalog kept none of', async () => {
    expect(
      await applyCreate(
        change,
        creator({ description: 'd', termsOfUse: { content: 'Terms.' } }),
        2,
        openMetadataCodec,
      ),
    ).toEqual({
      status: 'failed',
      file: 'contracts/c.yaml',
      fullyQualifiedName: 'db.s.t.dataContract_c',
      httpStatus: null,
      errorType: 'NOT_KEPT',
      message:
        'created (id c1, version 0.1), but the catalog kept no sla of what was sent: the next plan shows it as a change to apply',
    });
    expect(
      await applyCreate(
        change,
        creator({ description: 'd', termsOfUse: { content: 'Terms.' }, sla: {} }),
        2,
        openMetadataCodec,
      ),
    ).toMatchObject({ status: 'applied', createdId: 'c1', newVersion: 0.1 });
  });
});

describe('the sandbox creates as the real server does', () => {
  it('201 with version 0.1; 400 for a second contract on the asset, for columns it lacks; 415; kept under --data', async () => {
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    const dataFile = path.join(dir.dir, 'state.json');
    const first = await openSandbox({ seed: tableSeed(), dataFile });
    const post = async (sandbox: Sandbox, body: unknown, contentType = 'application/json') => {
      const answer = await fetch(`${sandbox.url}/v1/dataContracts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await first.token()}`, 'content-type': contentType },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const entity = { id: TABLE, type: 'table' };
    const missingColumn = await post(first.sandbox, {
      name: 'x',
      entity,
      schema: [{ name: 'ghost', dataType: 'INT' }],
    });
    expect(missingColumn.status).toBe(400);
    expect(missingColumn.body.message).toContain(
      'Schema validation failed. The following fields specified in the data contract do not exist in the table: ghost',
    );
    expect((await post(first.sandbox, { name: 'x', entity }, 'text/plain')).status).toBe(415);
    const created = await post(first.sandbox, { name: 'shipments', entity, description: 'd' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ fullyQualifiedName: FQN, version: 0.1, description: 'd' });
    const again = await post(first.sandbox, { name: 'other', entity });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(
      `A data contract already exists for entity 'table' with ID ${TABLE}`,
    );
    await first.sandbox.close();
    const second = await openSandbox({ seed: tableSeed(), dataFile });
    cleanups.push(() => second.sandbox.close());
    expect(second.sandbox.store.contractByFqn(FQN)).toMatchObject({ id: created.body.id });
  });
});

describe('the openmetadata sandbox creates as OpenMetadata does', () => {
  it('a name holding "::" (not an entityName) is a 400, nothing stored; plan says so first', async () => {
    const { sandbox, cwd, env } = await setup(
      'openmetadata',
      file('', 'db.s.shipments.dataContract_ship::ments').replace(
        'name: shipments',
        'name: ship::ments',
      ),
    );
    const refused = await postContract(sandbox, env, {
      name: 'ship::ments',
      entity: { id: TABLE, type: 'table' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('/name must match pattern "^((?!::).)*$"');
    expect([...sandbox.store.contracts.values()]).toEqual([]);
    sandbox.clearRequests();
    const run = await cli(['plan'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out + run.err).toContain(
      'contracts/shipments.yaml:1:7 name ship::ments holds "::", which OpenMetadata does not allow in a name',
    );
    expect(writes(sandbox)).toEqual([]);
  });
});

describe('contracts show and contracts drift', () => {
  it('show renders a saved plan without the catalog, and refuses a file that is not a plan', async () => {
    const { sandbox, cwd, env } = await setup('spec', file());
    expect((await cli(['plan', '--out', 'plan.json'], { cwd, env })).code).toBe(0);
    const before = sandbox.requests().length;
    // No CATALOG_URL or token: show needs no catalog.
    const human = await cli(['show', 'plan.json'], { cwd });
    expect(human.code).toBe(0);
    expect(human.out).toContain(`  + ${FQN}`);
    expect(human.out).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
    const markdown = await cli(['show', 'plan.json', '--markdown'], { cwd });
    expect(markdown.out).toContain('| + create |');
    const json = await cli(['show', 'plan.json', '--json'], { cwd });
    expect(JSON.parse(json.out).summary.create).toBe(1);
    const notAPlan = await cli(['show', 'contracts/shipments.yaml'], { cwd });
    expect(notAPlan.code).toBe(1);
    expect(notAPlan.err).toContain('contracts/shipments.yaml is not a plan: it is not JSON');
    await writeFile(path.join(cwd, 'other.json'), '{"name": "x"}');
    const otherJson = await cli(['show', 'other.json'], { cwd });
    expect(otherJson.err).toContain(
      'other.json is not a plan (the file lacks formatVersion); a plan file is what contracts plan --out writes\n',
    );
    expect(sandbox.requests()).toHaveLength(before);
  });

  it('drift: 2 while the catalog differs from the files, 0 when it agrees', async () => {
    const { cwd, env } = await setup('spec', file());
    const differs = await cli(['drift'], { cwd, env });
    expect(differs.code).toBe(2);
    expect(differs.out).toContain('Plan: 1 to create');
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
    const agrees = await cli(['drift'], { cwd, env });
    expect(agrees.code).toBe(0);
  });
});

describe('what plan and apply say', () => {
  it('a token whose user may not view contracts: one error naming the permission, not one per contract', async () => {
    const opened = await setup('spec', file());
    const env = { ...opened.env, CATALOG_TOKEN: await opened.token('carol') };
    const run = await cli(['plan'], { cwd: opened.cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      "Error: the catalog refused to show data contracts to this token's user (403: Principal: CatalogPrincipal{name='carol'} operations [ViewBasic] not allowed); it needs the permission to view data contracts (ViewDataContract, or ViewAll on OpenMetadata)\n",
    );
  });

  it("the catalog's web address instead of its API: one error before any contract, suggesting /api", async () => {
    const { sandbox, cwd, env } = await setup('openmetadata', file());
    // An OpenMetadata server answers its web UI's page (200, HTML) outside /api.
    const web = sandbox.root;
    const run = await cli(['plan', '--catalog-url', web], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      `Error: ${web} answered GET /v1/tables with a page that is not the catalog's API (not JSON). If ${web} is the catalog's web address, its API is under /api: try --catalog-url ${web}/api.\n`,
    );
    expect(sandbox.requests().filter((r) => r.path.startsWith('/api/'))).toEqual([]);
    const right = await cli(['plan', '--catalog-url', `${web}/api`], { cwd, env });
    expect(right.code).toBe(0);
  });

  it('with no contract file in the folder: an error saying so (exit 1), never that the catalog matches', async () => {
    const { env } = await setup('spec', file());
    const empty = await tempDir({ 'contracts/README.md': 'no contracts here' });
    cleanups.push(() => empty.remove());
    const plan = await cli(['plan'], { cwd: empty.dir, env });
    expect(plan.code).toBe(1);
    expect(plan.err).toBe(
      'Error: no contract files in contracts (looked for *.yaml and *.yml below it); nothing was planned. Name the folder or files that hold the contracts (contracts/ by default).\n',
    );
    const apply = await cli(['apply', '--auto-approve'], { cwd: empty.dir, env });
    expect(apply.code).toBe(1);
    expect(apply.err).toContain('no contract files in contracts');
  });

  it('plan --json with invalid files gives the problems as JSON on stdout', async () => {
    const { sandbox, cwd, env } = await setup('spec', 'name: x\n');
    const run = await cli(['plan', '--json'], { cwd, env });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out);
    expect(report).toMatchObject({ valid: false, fileCount: 1 });
    expect(report.problems[0]).toMatchObject({ file: 'contracts/shipments.yaml', line: 1 });
    expect(writesAmong(sandbox.requests())).toEqual([]);
  });

  it('a saved plan with errors is not offered for apply', async () => {
    const { cwd, env } = await setup(
      'spec',
      file('', 'db.s.ghosts.dataContract_shipments', 'db.s.ghosts'),
    );
    const run = await cli(['plan', '--out', 'plan.json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out).not.toContain('apply it with');
    expect(run.out).toContain('it has contracts that cannot be applied (see above)');
  });
});
