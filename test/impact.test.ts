// Who a breaking change hurts, over HTTP against the sandbox: the catalog's lineage names the
// assets downstream of a contract's asset, and each of their owners; the plan lists them (human,
// markdown, JSON), --fail-on breaking-with-consumers fails only on a break someone reads, and a
// catalog without lineage (the spec profile) says so once, and nothing fails.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli } from './helpers/cli.js';
import {
  COLUMNS,
  contractOn,
  dashboard,
  droppingAmount,
  idsFrom,
  table,
} from './helpers/lineage-seed.js';
import { sandboxWithFolder, seed } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const id = idsFrom('4a000000');
const contractOf = (name: string, n: number) => contractOn(id(50 + n), id(n), name);

function impactSeed() {
  return seed({
    users: [
      {
        name: 'alice',
        permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities', 'EditLineage'],
      },
      { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
      { name: 'carol', permissions: ['ViewDataContract', 'EditDataContract'] },
    ],
    teams: [{ name: 'sales-data' }, { name: 'ops' }],
    assets: [
      table(id(1), 'orders'),
      table(id(2), 'lonely'),
      table(id(3), 'daily', [{ type: 'user', name: 'bob' }]),
      dashboard(id(4), 'revenue', 'sales-data'),
      dashboard(id(5), 'kpis', 'ops'),
    ],
    dataProducts: [],
    dataContracts: [contractOf('orders', 1), contractOf('lonely', 2)],
    // orders → daily → kpis, and orders → revenue: two dashboards downstream within two levels.
    lineage: [
      { from: 'db.s.orders', to: 'db.s.daily' },
      { from: 'db.s.daily', to: 'looker.kpis' },
      { from: 'db.s.orders', to: 'looker.revenue' },
    ],
  });
}

/** A folder whose files drop `amount` from each named table's contract: a breaking change. */
async function dropping(profile: 'spec' | 'openmetadata', ...names: string[]) {
  const opened = await sandboxWithFolder(cleanups, { profile, seed: impactSeed() });
  await mkdir(path.join(opened.cwd, 'contracts'));
  for (const name of names)
    await writeFile(
      path.join(opened.cwd, 'contracts', `${name}.yaml`),
      stringify(droppingAmount(name)),
    );
  return { ...opened, run: (...args: string[]) => cli(args, { cwd: opened.cwd, env: opened.env }) };
}

describe('who a breaking change hurts', () => {
  it('lists the dashboards downstream of a removed column, and their owning teams, in the plan, its markdown and its JSON', async () => {
    const { run, sandbox } = await dropping('openmetadata', 'orders');
    const human = await run('plan');
    expect(human.code, human.err).toBe(0);
    // At the schema, which no longer holds the column.
    expect(human.out).toContain('! breaking: contracts/orders.yaml:6:1 column amount removed');
    expect(human.out).toContain(
      'consumers of table db.s.orders (3 downstream, 2 levels of lineage):',
    );
    expect(human.out).toContain('dashboard looker.kpis · owned by team ops');
    expect(human.out).toContain('dashboard looker.revenue · owned by team sales-data');
    expect(human.out).toContain('table db.s.daily · owned by user bob');

    const json = JSON.parse((await run('plan', '--json')).out);
    expect(json.impact).toEqual({ depth: 2 });
    expect(json.changes[0].impact).toEqual({
      asset: { type: 'table', fullyQualifiedName: 'db.s.orders' },
      consumers: [
        {
          type: 'dashboard',
          fullyQualifiedName: 'looker.kpis',
          owners: [{ type: 'team', name: 'ops' }],
        },
        {
          type: 'dashboard',
          fullyQualifiedName: 'looker.revenue',
          owners: [{ type: 'team', name: 'sales-data' }],
        },
        {
          type: 'table',
          fullyQualifiedName: 'db.s.daily',
          owners: [{ type: 'user', name: 'bob' }],
        },
      ],
    });
    const markdown = (await run('plan', '--format', 'markdown')).out;
    expect(markdown).toContain(
      '- 👥 consumers of table `db.s.orders` (3 downstream, 2 levels of lineage):',
    );
    expect(markdown).toContain('  - dashboard `looker.revenue` · owned by team `sales-data`');

    // Lineage was read once, with OpenMetadata's route and depths; each consumer's owners once.
    const paths = sandbox
      .requests()
      .map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);
    expect(paths.filter((p) => p.includes('/lineage/'))).toContainEqual(
      expect.stringContaining(
        'GET /api/v1/lineage/table/name/db.s.orders?upstreamDepth=0&downstreamDepth=2',
      ),
    );
    expect(paths.filter((p) => p.includes('/dashboards/name/looker.kpis')).length).toBe(3);

    // The same break fails breaking-with-consumers.
    const gated = await run('plan', '--fail-on', 'breaking-with-consumers');
    expect(gated.code).toBe(1);
    expect(gated.err).toContain(
      'Error: 1 contract with breaking changes has 3 consumers downstream (db.s.orders.dataContract_orders), and fail-on is breaking-with-consumers.',
    );
  });

  it('a break nobody reads passes --fail-on breaking-with-consumers; a plan without breaking changes asks no lineage', async () => {
    const { run, sandbox, cwd } = await dropping('openmetadata', 'lonely');
    const gated = await run('plan', '--fail-on', 'breaking-with-consumers');
    expect(gated.code, gated.err).toBe(0);
    expect(gated.out).toContain(
      'consumers of table db.s.lonely: none downstream (2 levels of lineage)',
    );
    expect((await run('plan', '--fail-on', 'breaking')).code).toBe(1);
    // Nothing breaking (a column kept, a description added): no lineage read.
    await writeFile(
      path.join(cwd, 'contracts', 'lonely.yaml'),
      stringify({
        name: 'lonely',
        fullyQualifiedName: 'db.s.lonely.dataContract_lonely',
        entity: { type: 'table', fullyQualifiedName: 'db.s.lonely' },
        description: 'Read by nobody.',
        schema: COLUMNS,
      }),
    );
    sandbox.clearRequests();
    const calm = await run('plan', '--json');
    expect(JSON.parse(calm.out).impact).toBeUndefined();
    expect(sandbox.requests().some((r) => r.path.includes('/lineage'))).toBe(false);
  });

  it('lineage the catalog refuses to show (403) is said once, as a note, and nothing fails', async () => {
    const { cwd, env, token } = await dropping('openmetadata', 'orders', 'lonely');
    const carol = { ...env, CATALOG_TOKEN: await token('carol') };
    const plan = await cli(['plan', '--fail-on', 'breaking-with-consumers'], { cwd, env: carol });
    expect(plan.code, plan.err).toBe(0);
    const said =
      'Consumers of breaking changes not looked up: the catalog refused to show lineage (403 FORBIDDEN';
    expect(plan.out.split(said)).toHaveLength(2);
    expect(plan.out).toContain(
      'consumers of table db.s.orders: unknown, the catalog refused to show lineage',
    );
  });

  it('PUT /v1/lineage adds an edge the next plan sees', async () => {
    const { run, sandbox, token } = await dropping('openmetadata', 'lonely');
    const put = await fetch(`${sandbox.url}/v1/lineage`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        edge: {
          fromEntity: { id: id(2), type: 'table' },
          toEntity: { id: id(4), type: 'dashboard' },
        },
      }),
    });
    expect(put.status).toBe(200);
    const gated = await run('plan', '--fail-on', 'breaking-with-consumers');
    expect(gated.code).toBe(1);
    expect(gated.out).toContain('dashboard looker.revenue · owned by team sales-data');
    // A user who may not edit lineage may not add to it.
    const refused = await fetch(`${sandbox.url}/v1/lineage`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${await token('bob')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        edge: {
          fromEntity: { id: id(2), type: 'table' },
          toEntity: { id: id(5), type: 'dashboard' },
        },
      }),
    });
    expect(refused.status).toBe(403);
  });

  it('spec profile: says once that consumers are not looked up, sends no lineage request, and nothing fails', async () => {
    const { run, sandbox } = await dropping('spec', 'orders', 'lonely');
    const plan = await run('plan', '--fail-on', 'breaking-with-consumers');
    expect(plan.code, plan.err).toBe(0);
    const said =
      'Consumers of breaking changes not looked up: this catalog (spec profile) serves no lineage';
    expect(plan.out.split(said)).toHaveLength(2);
    expect(sandbox.requests().some((r) => r.path.includes('/lineage'))).toBe(false);
    const json = JSON.parse((await run('plan', '--json')).out);
    expect(json.impact.unavailable).toContain('serves no lineage');
  });
});
