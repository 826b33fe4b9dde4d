// What OpenMetadata checks on every PATCH of a contract, whether or not the PATCH touches it, and
// a create does not always: its reviewers are users, or one team alone (`validateReviewers`, run
// by the updater); it keeps the data asset rules in force, the default one on owners and any an
// admin added (`RuleEngine.evaluateUpdate`: a change that leaves rules broken, as many as before or
// more, is refused). A file that breaks them is refused before anything is sent; a live contract
// that breaks them (created so, or before the rule) is an error while a change would be sent,
// until the file mends them with the change.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../src/apply/apply-plan.js';
import { CatalogClient } from '../src/catalog/client.js';
import { parseContract } from '../src/contract/parse.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { idFor } from '@contracts-gitops/sandbox';
import { openMetadataCodec } from '../src/profile/codec.js';
import type { DesiredContract } from '../src/model/contract.js';
import type { Operation } from '../src/model/operation.js';
import { cli } from './helpers/cli.js';
import { EDITOR, openSandbox, postContract, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TABLE = '6a000000-0000-4000-8000-0000000000a1';
const CONTRACT = '6c000000-0000-4000-8000-0000000000a1';
const ref = (type: string, name: string) => ({
  id: idFor(type, name),
  type,
  name,
  fullyQualifiedName: name,
});
const MIXED = [ref('team', 'data-eng'), ref('user', 'bob')];
const FQN = 'db.s.t.dataContract_c';
/** Generated contracts in the property (each with a sandbox of its own, closed with the test). */
const RUNS = 40;
const head = `name: c\nfullyQualifiedName: ${FQN}\nentity: {type: table, fullyQualifiedName: db.s.t}\n`;

/**
 * A sandbox under the openmetadata profile: one table, and a contract holding `held` when given;
 * `more` adds to its seed.
 */
async function catalog(held?: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const opened = await openSandbox({
    profile: 'openmetadata',
    seed: seed({
      users: [EDITOR, { name: 'bob', permissions: [] }, { name: 'carol', permissions: [] }],
      teams: [{ name: 'data-eng' }, { name: 'finance' }],
      assets: [
        {
          id: TABLE,
          entityType: 'table',
          name: 't',
          fullyQualifiedName: 'db.s.t',
          columns: [{ name: 'id', dataType: 'BIGINT' }],
        },
      ],
      dataProducts: [],
      dataContracts:
        held === undefined
          ? []
          : [
              {
                id: CONTRACT,
                name: 'c',
                fullyQualifiedName: FQN,
                entity: { id: TABLE, type: 'table', fullyQualifiedName: 'db.s.t' },
                version: 0.1,
                description: 'Old.',
                ...held,
              },
            ],
      ...more,
    }),
  });
  cleanups.push(() => opened.sandbox.close());
  const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
  const writes = () => opened.sandbox.requests().filter((r) => r.method !== 'GET');
  return { ...opened, env, writes };
}

async function filesDir(files: Record<string, string>) {
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  return dir.dir;
}

describe('reviewers under the openmetadata profile', () => {
  it('the codec takes users, or one team; it refuses a mix, or two teams, at the item that breaks the rule', () => {
    const contract = (reviewers: { type: string; name: string }[]) =>
      ({
        name: 'c',
        fullyQualifiedName: FQN,
        entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
        reviewers,
      }) as DesiredContract;
    const user = (name: string) => ({ type: 'user', name });
    const team = (name: string) => ({ type: 'team', name });
    for (const fine of [[], [user('a')], [user('a'), user('b')], [team('x')]])
      expect(openMetadataCodec.unstorable(contract(fine))).toEqual([]);
    expect(openMetadataCodec.unstorable(contract([user('a'), user('b'), team('x')]))).toEqual([
      {
        pointer: '/reviewers/2',
        message: expect.stringMatching(
          /^OpenMetadata takes as reviewers users, or one team alone, and these mix team x with user a: "Invalid Reviewer Type\. Only one team or multiple users can be assigned as reviewer\."; it refuses such reviewers on any change to the contract: list users only, or one team$/,
        ),
      },
    ]);
    expect(openMetadataCodec.unstorable(contract([team('x'), team('y')]))).toEqual([
      {
        pointer: '/reviewers/1',
        message: expect.stringContaining(
          'these are 2 teams (team x, team y): "Only one team can be assigned as reviewer."',
        ),
      },
    ]);
  });

  it('the codec finds such reviewers in a live contract the file leaves them out of, whatever their types', () => {
    const desired = {
      name: 'c',
      fullyQualifiedName: FQN,
      entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
    } as DesiredContract;
    const live = (reviewers: unknown[]) => ({ entity: { type: 'table' }, reviewers });
    expect(openMetadataCodec.refusedLive!(live([ref('user', 'bob')]), desired)).toEqual([]);
    expect(openMetadataCodec.refusedLive!(live(MIXED), desired)).toEqual([
      expect.objectContaining({
        field: 'reviewers',
        why: expect.stringContaining('these mix user bob with team data-eng'),
      }),
    ]);
    expect(openMetadataCodec.refusedLive!(live([{ type: 'bot', name: 'x' }]), desired)).toEqual([
      expect.objectContaining({
        field: 'reviewers',
        why: expect.stringContaining('this is bot x'),
      }),
    ]);
    expect(openMetadataCodec.refusedLive!(live(MIXED), { ...desired, reviewers: null })).toEqual(
      [],
    );
  });

  it('the sandbox takes a create with any reviewers, as the server does, and then refuses every PATCH until they are users or one team', async () => {
    const { sandbox, client, env } = await catalog();
    const created = await postContract(sandbox, env, {
      name: 'c',
      entity: { id: TABLE, type: 'table' },
      reviewers: MIXED,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const describe = await client.patch(`/v1/dataContracts/${id}`, [
      { op: 'add', path: '/description', value: 'New.' },
    ]);
    expect(describe.status).toBe(400);
    expect(describe.body.message).toBe(
      'Invalid Reviewer Type. Only one team or multiple users can be assigned as reviewer.',
    );
    const teams = await client.patch(`/v1/dataContracts/${id}`, [
      {
        op: 'replace',
        path: '/reviewers',
        value: [ref('team', 'data-eng'), ref('team', 'finance')],
      },
    ]);
    expect(teams.status).toBe(400);
    expect(teams.body.message).toBe('Only one team can be assigned as reviewer.');
    expect(sandbox.store.contracts.get(id)!.version).toBe(0.1);
    // Read back sorted by name, as OpenMetadata answers relationships: bob, then data-eng.
    const mended = await client.patch(`/v1/dataContracts/${id}`, [
      { op: 'remove', path: '/reviewers/1' },
      { op: 'add', path: '/description', value: 'New.' },
    ]);
    expect(mended.status, JSON.stringify(mended.body)).toBe(200);
    expect(sandbox.store.contracts.get(id)).toMatchObject({
      description: 'New.',
      reviewers: [ref('user', 'bob')],
    });
  });

  it('a file whose reviewers mix users and a team is a problem at that reviewer, and nothing is read or sent', async () => {
    const { sandbox, env } = await catalog({ reviewers: [ref('user', 'bob')] });
    const cwd = await filesDir({
      'contracts/c.yaml': `${head}description: New.\nreviewers:\n  - {type: user, name: bob}\n  - {type: team, name: data-eng}\n`,
    });
    const run = await cli(['plan'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.out + run.err).toMatch(
      /contracts\/c\.yaml:7:5 OpenMetadata takes as reviewers users, or one team alone, and these mix team data-eng with user bob: .*list users only, or one team/,
    );
    expect(sandbox.requests().filter((r) => r.path.startsWith('/api/v1/dataContracts'))).toEqual(
      [],
    );
  });

  it('a live contract holding such reviewers, which the file leaves out, is an error while a change would be sent and a warning while none would; the file mends it by naming reviewers', async () => {
    const { sandbox, env, writes } = await catalog({ reviewers: MIXED });
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: New.\n` });
    const planned = await cli(['plan', '--json'], { cwd, env });
    expect(planned.code).toBe(1);
    expect(JSON.parse(planned.out).changes[0].error).toMatch(
      /^the live contract holds reviewers that the catalog refuses on every PATCH \(OpenMetadata takes as reviewers users, or one team alone, and these mix team data-eng with user bob: .*\), and this file leaves it out: the catalog refuses \(400\) any change to this contract while it is there\. To change the contract, write reviewers in the file, users only or one team \(or reviewers: null\), to replace them with this change; nothing will be sent for this contract$/,
    );
    const applied = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(applied.code).toBe(1);
    expect(writes()).toEqual([]);

    await writeFile(path.join(cwd, 'contracts/c.yaml'), `${head}description: Old.\n`);
    const quiet = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
    expect(quiet.code, quiet.out + quiet.err).toBe(0);
    expect(JSON.parse(quiet.out).changes[0].warnings).toEqual([
      expect.stringMatching(/while it is there; nothing is sent while the file matches it$/),
    ]);

    await writeFile(
      path.join(cwd, 'contracts/c.yaml'),
      `${head}description: New.\nreviewers:\n  - {type: user, name: bob}\n  - {type: user, name: carol}\n`,
    );
    const mended = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(mended.code, mended.out + mended.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      description: 'New.',
      reviewers: [ref('user', 'bob'), ref('user', 'carol')],
    });
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
  });

  it('reviewers: null removes them with the change; import leaves them out, says why, and writes a file that plans to nothing', async () => {
    const { sandbox, env } = await catalog({ reviewers: MIXED });
    const cwd = await filesDir({});
    const imported = await cli(['import', '--fqn', FQN, '--out', 'contracts'], { cwd, env });
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toMatch(
      /left out reviewers \(OpenMetadata takes as reviewers users, or one team alone.*\); the field stays unmanaged/,
    );
    const file = path.join(cwd, `contracts/${FQN}.yaml`);
    const written = await readFile(file, 'utf8');
    expect(written).not.toMatch(/^reviewers:/m);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);

    await writeFile(
      file,
      written.replace('description: Old.', 'description: New.\nreviewers: null'),
    );
    const applied = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    const stored = sandbox.store.contracts.get(CONTRACT)!;
    expect(stored.description).toBe('New.');
    expect(stored.reviewers).toBeUndefined();
  });
});

describe("owners under the openmetadata profile's data asset rule", () => {
  const owners = [ref('team', 'data-eng'), ref('user', 'bob')];

  it('a live contract whose owners break the rule, which the file keeps, is an error while a change would be sent, a warning while none would; naming users only mends them with the change', async () => {
    const { sandbox, env, writes } = await catalog({ owners });
    // The sandbox refuses any PATCH that leaves them so, as the server does.
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: New.\n` });
    const planned = await cli(['plan', '--json'], { cwd, env });
    expect(planned.code).toBe(1);
    expect(JSON.parse(planned.out).changes[0].error).toBe(
      `the live contract's owners (user bob, team data-eng), which this file keeps, are more than one team or a team beside users, and this catalog's data asset rule "Multiple Users or Single Team Ownership" refuses (400) any change that leaves them so: name one team, or users only, in the file's owners to mend them with this change (or have an admin turn the rule off for data contracts in Settings › Preferences › Data Asset Rules); nothing will be sent for this contract`,
    );
    // The same when the file names the same owners.
    await writeFile(
      path.join(cwd, 'contracts/c.yaml'),
      `${head}description: New.\nowners:\n  - {type: team, name: data-eng}\n  - {type: user, name: bob}\n`,
    );
    expect(JSON.parse((await cli(['plan', '--json'], { cwd, env })).out).changes[0].error).toMatch(
      /^the live contract's owners \(user bob, team data-eng\), which this file keeps/,
    );
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(1);
    expect(writes()).toEqual([]);

    await writeFile(path.join(cwd, 'contracts/c.yaml'), `${head}description: Old.\n`);
    const quiet = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
    expect(quiet.code, quiet.out + quiet.err).toBe(0);
    expect(JSON.parse(quiet.out).changes[0].warnings).toEqual([
      expect.stringMatching(
        /refuses \(400\) any change that leaves them so; nothing is sent while the file matches the contract$/,
      ),
    ]);
    expect((await cli(['plan', '--strict'], { cwd, env })).code).toBe(1);

    await writeFile(
      path.join(cwd, 'contracts/c.yaml'),
      `${head}description: New.\nowners:\n  - {type: user, name: bob}\n`,
    );
    const mended = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(mended.code, mended.out + mended.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      description: 'New.',
      owners: [ref('user', 'bob')],
    });
  });

  it('one error says every refusal of a contract, so that one run says all there is to mend', async () => {
    const { env, writes } = await catalog({ owners, reviewers: MIXED });
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: New.\n` });
    const error = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out).changes[0].error;
    expect(error).toMatch(
      /^the live contract holds reviewers that .* to replace them with this change\. Also, the live contract's owners \(user bob, team data-eng\), .* to mend them with this change \(.*\); nothing will be sent for this contract$/,
    );
    expect(error.match(/nothing will be sent/g)).toHaveLength(1);
    expect(writes()).toEqual([]);
  });

  it('with the rule off for data contracts, a change to such a contract is planned and applied', async () => {
    const { sandbox, env } = await catalog(
      { owners },
      {
        dataAssetRules: [
          {
            name: 'Multiple Users or Single Team Ownership',
            rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
            enabled: false,
          },
        ],
      },
    );
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: New.\n` });
    const applied = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)!.description).toBe('New.');
  });
});

describe('data asset rules an admin adds for data contracts', () => {
  const DESCRIBED = {
    name: 'Contracts say what they are for',
    description: 'A data contract has a description.',
    rule: '{"!!":{"var":"description"}}',
    enabled: true,
    entityType: 'dataContract',
  };
  const OWNERSHIP = {
    name: 'Multiple Users or Single Team Ownership',
    description:
      'Validates that an entity has either multiple owners or a single team as the owner.',
    rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
    enabled: true,
  };
  // In force for tables only: never weighed on a data contract.
  const TABLES = {
    name: 'Tables have a glossary term',
    rule: 'false',
    enabled: true,
    entityType: 'table',
  };
  const dataAssetRules = [OWNERSHIP, DESCRIBED, TABLES];
  const refusal = `this catalog's data asset rule "Contracts say what they are for" (A data contract has a description.), which reads description, does not hold for the contract as this change would leave it, and the catalog refuses (400) such a change`;

  it('a change that breaks one is an error at the field the rule reads, with nothing sent; the sandbox refuses it as the server does', async () => {
    const { client, env, writes } = await catalog({}, { dataAssetRules });
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: null\n` });
    const planned = await cli(['plan', '--json'], { cwd, env });
    expect(planned.code).toBe(1);
    expect(JSON.parse(planned.out).changes[0].error).toBe(
      `${refusal}: change the file so that it holds (or have an admin turn the rule off for data contracts in Settings › Preferences › Data Asset Rules); nothing will be sent for this contract`,
    );
    const github = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(github.out).toMatch(/::error file=contracts\/c\.yaml,line=4,col=1,/);
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(1);
    expect(writes()).toEqual([]);
    // Sent anyway, by another client: refused with OpenMetadata's message.
    const sent = await client.patch(`/v1/dataContracts/${CONTRACT}`, [
      { op: 'remove', path: '/description' },
    ]);
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe(
      'Rule [Contracts say what they are for] validation failed: Entity does not satisfy the rule. Rule context: A data contract has a description.',
    );
  });

  it('an unknown owner, an extension key the catalog lacks and a broken rule are one error, at the owner, with nothing sent', async () => {
    const { env, writes } = await catalog(
      {},
      { dataAssetRules, customProperties: [{ name: 'tier' }] },
    );
    const cwd = await filesDir({
      'contracts/c.yaml': `${head}description: null\nowners:\n  - {type: user, name: nobody}\nextension:\n  note: x\n`,
    });
    const planned = await cli(['plan', '--json'], { cwd, env });
    expect(planned.code).toBe(1);
    const error: string = JSON.parse(planned.out).changes[0].error;
    expect(error.split('. Also, ')).toEqual([
      'owners[0] names user nobody, which the catalog does not have: create it in the catalog first, or correct the name',
      expect.stringMatching(/^extension\.note is not a custom property of data contracts/),
      expect.stringMatching(/^this catalog's data asset rule "Contracts say what they are for" /),
    ]);
    expect(error.match(/nothing will be sent/g)).toHaveLength(1);
    const github = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(github.out).toMatch(/::error file=contracts\/c\.yaml,line=6,col=5,/);
    // Under --strict, a live-asset warning (a column's type) is an error, said after them.
    await writeFile(
      path.join(cwd, 'contracts/c.yaml'),
      `${head}owners:\n  - {type: user, name: nobody}\nschema:\n  - {name: id, dataType: VARCHAR}\n`,
    );
    const strict = await cli(['plan', '--strict', '--json'], { cwd, env });
    expect(JSON.parse(strict.out).changes[0].error).toMatch(
      /^owners\[0\] names user nobody, .*\. Also, live-asset check failed \(--strict\): column id .*; nothing will be sent for this contract$/,
    );
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it('a change that mends one rule applies though the contract still breaks another, as the catalog takes it; then a change that mends none is an error', async () => {
    const { sandbox, env } = await catalog(
      { description: undefined, owners: MIXED },
      { dataAssetRules },
    );
    const cwd = await filesDir({ 'contracts/c.yaml': `${head}description: Now said.\n` });
    const planned = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out).changes[0];
    expect(planned.action).toBe('update');
    expect(planned.notes).toContain(
      `after this change the contract still breaks this catalog's data asset rule "Multiple Users or Single Team Ownership" (${OWNERSHIP.description}); the catalog takes the change because it mends "Contracts say what they are for"`,
    );
    const applied = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)!.description).toBe('Now said.');

    await writeFile(path.join(cwd, 'contracts/c.yaml'), `${head}description: Said again.\n`);
    const next = await cli(['plan', '--json'], { cwd, env });
    expect(next.code).toBe(1);
    expect(JSON.parse(next.out).changes[0].error).toMatch(
      /^the live contract's owners \(user bob, team data-eng\), which this file keeps, are more than one team or a team beside users/,
    );
  });

  it('apply: a contract that moved after the plan, planned again, is not sent when the catalog would refuse the change now, and the run goes on', async () => {
    // The live contract breaks both rules; the file's description mends one, so it is planned.
    const { sandbox, env } = await catalog(
      { description: undefined, owners: MIXED },
      { dataAssetRules },
    );
    const parsed = parseContract(`${head}description: Ours.\n`, 'contracts/c.yaml');
    if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
    const client = new CatalogClient({ baseUrl: sandbox.url, token: env.CATALOG_TOKEN });
    cleanups.push(() => client.close());
    const planned = await readAndPlanEach([parsed.value], client, {
      codec: openMetadataCodec,
      keepLive: true,
    });
    expect(planned.changes[0]!.action).toBe('update');
    // Another writer mends the same rule first: the change planned again would mend none.
    let raced = false;
    const racing: CatalogClient = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string, ops: Operation[], options?: { ifMatch?: string }) => {
        if (!raced) {
          raced = true;
          await client.patchContract(id, [{ op: 'add', path: '/description', value: 'Theirs.' }]);
        }
        return client.patchContract(id, ops, options);
      },
    });
    const plan = assemblePlan(planned.changes, {
      catalogUrl: sandbox.url,
      catalogProfile: 'openmetadata',
      gitCommit: null,
      createdAt: '',
    });
    const report = await applyPlan(plan, racing, {
      codec: openMetadataCodec,
      liveContracts: planned.liveForUpdates,
      desired: planned.desired,
      ...(planned.assetRules === undefined ? {} : { assetRules: planned.assetRules }),
    });
    expect(report.results[0]).toMatchObject({
      status: 'failed',
      httpStatus: null,
      errorType: 'REFUSED_BY_RULE',
      message: expect.stringMatching(
        /^the contract changed since the plan was made \(version 0\.1 then, 0\.2 now\); planned again against it, the change would be refused: the live contract's owners \(user bob, team data-eng\), which this file keeps, .*\. Nothing was sent for it; run plan to see$/,
      ),
    });
    expect(report.stoppedBy).toBeNull();
    expect(sandbox.store.contracts.get(CONTRACT)!.description).toBe('Theirs.');
  });

  it('a contract to create that breaks one is an error with nothing sent; one that keeps it is created', async () => {
    const { sandbox, env, writes } = await catalog(undefined, { dataAssetRules });
    const cwd = await filesDir({ 'contracts/c.yaml': head });
    const planned = await cli(['plan', '--json'], { cwd, env });
    expect(planned.code).toBe(1);
    expect(JSON.parse(planned.out).changes[0].error).toMatch(
      /^this catalog's data asset rule "Contracts say what they are for" \(A data contract has a description\.\), which reads description, does not hold for the contract this file would create, and the catalog refuses \(400\) a contract that breaks it: /,
    );
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(1);
    expect(writes()).toEqual([]);

    await writeFile(path.join(cwd, 'contracts/c.yaml'), `${head}description: Said.\n`);
    const created = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(created.code, created.out + created.err).toBe(0);
    expect(sandbox.store.contractByFqn(FQN)?.description).toBe('Said.');
  });
});

describe('property: what OpenMetadata checks on every PATCH', () => {
  const user = fc.constantFrom('bob', 'carol').map((name) => ({ type: 'user', name }));
  const team = fc.constantFrom('data-eng', 'finance').map((name) => ({ type: 'team', name }));
  /** Any list a catalog may hold: what a create took, or what was stored before a rule. */
  const anyList = fc.uniqueArray(fc.oneof(user, team), {
    selector: (r) => `${r.type}/${r.name}`,
    maxLength: 3,
  });
  const usersOrOneTeam = fc.oneof(
    fc.uniqueArray(user, { selector: (r) => r.name, maxLength: 2 }),
    team.map((t) => [t]),
  );
  /** What a file says of a list: nothing (left out), the live one, none (null), or another. */
  const fileList = fc.oneof(
    fc.constant<'absent'>('absent'),
    fc.constant<'same'>('same'),
    fc.constant(null),
    usersOrOneTeam,
  );
  /** The default rule on owners, and one an admin added: a contract says what it is for. */
  const RULES = [
    {
      name: 'Multiple Users or Single Team Ownership',
      rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
      enabled: true,
    },
    { name: 'Described', rule: '{"!!":{"var":"description"}}', enabled: true },
  ];
  const breaksRule = (list: { type: string }[]) => {
    const teams = list.filter((r) => r.type === 'team').length;
    return teams > 1 || (teams === 1 && list.length > 1);
  };

  it(`property: ${RUNS} generated contracts either apply without a refusal, or are an error naming what the catalog refuses, with nothing sent`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          liveReviewers: anyList,
          liveOwners: anyList,
          reviewers: fileList,
          owners: fileList,
          liveDescribed: fc.boolean(),
          description: fc.constantFrom<'absent' | 'set' | null>('absent', 'set', null),
        }),
        async (run) => {
          const { sandbox, env, writes } = await catalog(
            {
              reviewers: run.liveReviewers.map((r) => ref(r.type, r.name)),
              owners: run.liveOwners.map((r) => ref(r.type, r.name)),
              description: run.liveDescribed ? 'Old.' : undefined,
            },
            { dataAssetRules: RULES },
          );
          const said = (list: typeof run.reviewers, live: { type: string; name: string }[]) =>
            list === 'absent' ? undefined : list === 'same' ? live : list;
          const reviewers = said(run.reviewers, run.liveReviewers);
          const owners = said(run.owners, run.liveOwners);
          // A file's reviewers the codec refuses are a file problem, tested above.
          fc.pre(reviewers === undefined || reviewers === null || !breaksRule(reviewers));
          const description =
            run.description === 'absent'
              ? ''
              : `description: ${run.description === 'set' ? 'New.' : 'null'}\n`;
          const text = `${head}${description}${stringify({
            ...(reviewers === undefined ? {} : { reviewers }),
            ...(owners === undefined ? {} : { owners }),
          })}`;
          const parsed = parseContract(text.replace(/^\{\}\n$/m, ''), 'contracts/c.yaml');
          if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
          const client = new CatalogClient({ baseUrl: sandbox.url, token: env.CATALOG_TOKEN });
          try {
            const planned = await readAndPlanEach([parsed.value], client, {
              codec: openMetadataCodec,
              keepLive: true,
            });
            const change = planned.changes[0]!;
            const keptReviewers = reviewers ?? (reviewers === null ? [] : run.liveReviewers);
            const keptOwners = owners ?? (owners === null ? [] : run.liveOwners);
            const keptDescribed =
              run.description === 'absent' ? run.liveDescribed : run.description === 'set';
            // The server's count (`evaluateUpdate`): refused when the contract left breaks rules,
            // at least as many as the live one broke.
            const broken = (owned: typeof keptOwners, described: boolean) =>
              Number(breaksRule(owned)) + Number(!described);
            const after = broken(keptOwners, keptDescribed);
            const ruled = after > 0 && after >= broken(run.liveOwners, run.liveDescribed);
            const refused = breaksRule(keptReviewers) || ruled;
            if (change.action === 'error') {
              // Refused only for what the catalog would refuse, and said so.
              expect(refused).toBe(true);
              if (breaksRule(keptReviewers)) expect(change.error).toContain('reviewers');
              if (ruled && breaksRule(keptOwners)) expect(change.error).toContain('owners');
              if (ruled && !keptDescribed) expect(change.error).toContain('description');
              expect(writes()).toEqual([]);
              return;
            }
            const plan = assemblePlan(planned.changes, {
              catalogUrl: sandbox.url,
              catalogProfile: 'openmetadata',
              gitCommit: null,
              createdAt: new Date().toISOString(),
            });
            const report = await applyPlan(plan, client, {
              codec: openMetadataCodec,
              liveContracts: planned.liveForUpdates,
              desired: planned.desired,
            });
            // Never a refusal: whatever plan sends, the catalog takes.
            expect(report.stoppedBy).toBeNull();
            expect(report.results.map((r) => r.status)).toEqual([
              change.action === 'update' ? 'applied' : 'unchanged',
            ]);
            if (change.action === 'update') expect(refused).toBe(false);
          } finally {
            await client.close();
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
