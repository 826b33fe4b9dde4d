// Adopting and auditing against a real sandbox: import round trips, hostile FQNs, coverage while
// tables come and go, live-asset warnings, and notes on inherited fields.
import fc from 'fast-check';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import { collectCoverage } from '../src/coverage/coverage.js';
import { fileNameFor, filePathFor } from '../src/import/import-contracts.js';
import { demoSeed } from '@contracts-gitops/sandbox/demo-catalog';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { openSandbox, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function catalog(options: Parameters<typeof openSandbox>[0] = {}) {
  const opened = await openSandbox(options);
  cleanups.push(() => opened.sandbox.close());
  const token = await opened.token('alice');
  return {
    ...opened,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: token },
    tokenValue: token,
  };
}

async function workspace(files: Record<string, string> = {}) {
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  return dir.dir;
}

/** The note of a change made outside any git checkout, which writes no marker. */
const UNMARKED =
  'no marker (extension.managedBy) is written, so --prune will not delete this contract: this folder is in no git checkout';

const alice = {
  name: 'alice',
  permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
};

describe('contracts import', () => {
  it('imports every built-in contract, and plan then finds no changes', async () => {
    const { env } = await catalog();
    const dir = await workspace();
    const fqns = demoSeed().dataContracts.map((c) => c.fullyQualifiedName);
    const run = await cli(
      [
        'import',
        '--fqn',
        ...fqns.slice(0, 3),
        '--entity',
        'topic:events.web.clickstream',
        'dataProduct:sales-analytics',
      ],
      { cwd: dir, env },
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const written = (await readdir(path.join(dir, 'contracts'))).sort();
    expect(written).toEqual(fqns.map((fqn) => `${fqn}.yaml`).sort());
    const orders = await readFile(
      path.join(dir, 'contracts', 'warehouse.sales.public.orders.dataContract_orders.yaml'),
      'utf8',
    );
    expect(orders.split('\n').slice(0, 4)).toEqual([
      expect.stringMatching(
        /^# yaml-language-server: \$schema=.*schemas\/data-contract\.schema\.json$/,
      ),
      'name: orders',
      'fullyQualifiedName: warehouse.sales.public.orders.dataContract_orders',
      'entity:',
    ]);
    expect(orders).not.toMatch(/ordinalPosition|href|version|updatedAt|"id"|^id:/m);
    const plan = await cli(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(plan.code).toBe(0);
    expect(plan.out).toContain(`Plan: 0 to change, ${fqns.length} unchanged, 0 errors.`);
  });

  it('refuses to overwrite without --force, and writes nothing then', async () => {
    const { env } = await catalog();
    const dir = await workspace({
      'contracts/warehouse.sales.public.orders.dataContract_orders.yaml': 'mine\n',
    });
    const run = await cli(
      [
        'import',
        '--fqn',
        'warehouse.sales.public.orders.dataContract_orders',
        'warehouse.finance.ledger.payments.dataContract_payments',
      ],
      { cwd: dir, env },
    );
    expect(run.code).toBe(1);
    expect(run.err).toContain('already exists; use --force to overwrite. Nothing was written.');
    expect(await readdir(path.join(dir, 'contracts'))).toEqual([
      'warehouse.sales.public.orders.dataContract_orders.yaml',
    ]);
    const forced = await cli(
      ['import', '--force', '--fqn', 'warehouse.sales.public.orders.dataContract_orders'],
      { cwd: dir, env },
    );
    expect(forced.code).toBe(0);
    expect(
      await readFile(
        path.join(dir, 'contracts/warehouse.sales.public.orders.dataContract_orders.yaml'),
        'utf8',
      ),
    ).toContain('name: orders');
  });

  it('refuses an asset whose contract is only inherited', async () => {
    const { env } = await catalog();
    const dir = await workspace();
    const run = await cli(['import', '--entity', 'table:warehouse.sales.public.refunds'], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'has no contract of its own; it inherits sales-analytics.dataContract_sales-analytics from its data product',
    );
    // The command that starts its file, as it can be run.
    expect(run.err).toContain(
      'start its file with contracts new --entity table:warehouse.sales.public.refunds and plan',
    );
  });

  it('never writes outside the output directory, whatever the FQN holds', () => {
    const dir = path.resolve('/tmp/out');
    const hostile = [
      '../../etc/x',
      '/etc/passwd',
      '..',
      '.',
      '',
      'a/b/c',
      'a\u0000b',
      '..\\..\\windows',
      '~/.ssh/id',
      'x'.repeat(5000),
      'ünïcødé/../..',
    ];
    for (const fqn of hostile) {
      const file = filePathFor(dir, fqn);
      expect(path.dirname(file)).toBe(dir);
      expect(path.basename(file)).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\.yaml$/);
      expect(path.basename(file).length).toBeLessThanOrEqual(120);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (fqn) => {
        const file = filePathFor(dir, fqn);
        expect(path.dirname(file)).toBe(dir);
        expect(path.basename(file)).not.toMatch(/^\./);
      }),
      { numRuns: 2000 },
    );
    expect(fileNameFor('a/b')).not.toBe(fileNameFor('a_b'));
    expect(fileNameFor('warehouse.sales.orders.dataContract_orders')).toBe(
      'warehouse.sales.orders.dataContract_orders.yaml',
    );
  });

  it('imports a contract with a hostile FQN inside the directory, and it plans clean', async () => {
    const fqn = '../../etc/x';
    const { env } = await catalog({
      seed: seed({
        users: [alice],
        assets: [
          {
            id: '5a000000-0000-4000-8000-000000000001',
            entityType: 'table',
            name: 'x',
            fullyQualifiedName: 'db.s.x',
          },
        ],
        dataProducts: [],
        dataContracts: [
          {
            name: 'x',
            fullyQualifiedName: fqn,
            entity: {
              id: '5a000000-0000-4000-8000-000000000001',
              type: 'table',
              fullyQualifiedName: 'db.s.x',
            },
            description: 'd',
          },
        ],
      }),
    });
    const dir = await workspace();
    const run = await cli(['import', '--fqn', fqn, '--out', 'out'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const files = await readdir(path.join(dir, 'out'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^etc_x-[0-9a-f]{10}\.yaml$/);
    expect((await cli(['plan', 'out', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });
});

describe('contracts coverage', () => {
  it('lists every table of the built-in catalog exactly once', async () => {
    const { env } = await catalog();
    const dir = await workspace();
    const run = await cli(['coverage', '--json', '--page-size', '7'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    const tables = demoSeed()
      .assets.filter((a) => a.entityType === 'table')
      .map((a) => a.fullyQualifiedName)
      .sort();
    expect(report.rows.map((r: { table: string }) => r.table)).toEqual(tables);
    expect(report.totals).toMatchObject({
      tables: 31,
      own: 3,
      ownInGit: 3,
      inherited: 2,
      none: 26,
    });
    const refunds = report.rows.find(
      (r: { table: string }) => r.table === 'warehouse.sales.public.refunds',
    );
    expect(refunds).toMatchObject({
      status: 'inherited',
      dataProduct: 'sales-analytics',
      contract: 'sales-analytics.dataContract_sales-analytics',
      file: null,
    });
    expect(
      report.rows.find((r: { table: string }) => r.table === 'warehouse.sales.public.orders'),
    ).toMatchObject({ status: 'own', file: 'contracts/orders.yaml' });
    const human = await cli(['coverage', '--database', 'warehouse.finance'], { cwd: dir, env });
    expect(human.out).toContain(
      '8 tables: 1 with their own contract (0 in git; managed from this repository 0, from another 0, by none 1), 0 inherited from a data product, 7 without. Coverage: 12.5% have a contract in force; 0% are managed in git.',
    );
  });

  it('counts no table twice and misses none while tables are added and removed between pages', async () => {
    const { sandbox, client: http, tokenValue } = await catalog();
    const client = new CatalogClient({ baseUrl: sandbox.url, token: tokenValue });
    cleanups.push(() => client.close());
    const before = (await http.get('/v1/tables?limit=1000')).body.data.map(
      (t: { id: string }) => t.id,
    ) as string[];
    const victim = before[5]!;
    let pages = 0;
    let added = 0;
    const report = await collectCoverage(client, [], {
      pageSize: 4,
      onPage: () => {
        pages += 1;
        // Synchronous changes through the store, between this page and the next request.
        for (const name of [`aaa_${pages}`, `zzz_${pages}`]) {
          added += 1;
          sandbox.store.assets.set(`6a000000-0000-4000-8000-${String(added).padStart(12, '0')}`, {
            id: `6a000000-0000-4000-8000-${String(added).padStart(12, '0')}`,
            entityType: 'table',
            name,
            fullyQualifiedName: `db.new.${name}`,
          });
        }
        if (pages === 2) sandbox.store.assets.delete(victim);
      },
    });
    expect(pages).toBeGreaterThan(7);
    const ids = report.rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) if (id !== victim) expect(ids.filter((x) => x === id)).toHaveLength(1);
  });
});

describe('live-asset checks and inherited fields in plan', () => {
  const ids = {
    orders: '7a000000-0000-4000-8000-000000000001',
    gone: '7a000000-0000-4000-8000-000000000002',
  };
  const adoptSeed = () =>
    seed({
      users: [alice, { name: 'viewer', permissions: ['ViewDataContract'] }],
      assets: [
        {
          id: ids.orders,
          entityType: 'table',
          name: 'orders',
          fullyQualifiedName: 'db.s.orders',
          columns: [
            { name: 'id', dataType: 'BIGINT' },
            { name: 'amount', dataType: 'DECIMAL' },
          ],
          dataProducts: ['shop'],
        },
        {
          id: '7a000000-0000-4000-8000-000000000003',
          entityType: 'table',
          name: 'refunds',
          fullyQualifiedName: 'db.s.refunds',
          dataProducts: ['shop'],
        },
      ],
      dataProducts: [{ name: 'shop', contract: 'shop.dataContract_shop' }],
      dataContracts: [
        {
          name: 'orders',
          fullyQualifiedName: 'db.s.orders.dataContract_orders',
          entity: { id: ids.orders, type: 'table', fullyQualifiedName: 'db.s.orders' },
          schema: [{ name: 'id', dataType: 'BIGINT' }],
          semantics: [{ name: 'hasOwner' }],
        },
        {
          name: 'shop',
          fullyQualifiedName: 'shop.dataContract_shop',
          entity: { type: 'dataProduct', fullyQualifiedName: 'shop' },
          entityStatus: 'Active',
          termsOfUse: 'Shop terms.',
          security: { dataClassification: 'Internal' },
          semantics: [{ name: 'hasDescription' }],
        },
        {
          name: 'ghost',
          fullyQualifiedName: 'db.s.ghost.dataContract_ghost',
          entity: { id: ids.gone, type: 'table', fullyQualifiedName: 'db.s.ghost' },
        },
      ],
    });
  /** The seed with the orders contract naming ghost_col, a column the table lacks. */
  const ghostSeed = () => {
    const seeded = adoptSeed();
    const orders = seeded.dataContracts.find((c) => c.name === 'orders')!;
    orders.schema = [
      { name: 'id', dataType: 'BIGINT' },
      { name: 'ghost_col', dataType: 'INT' },
    ];
    return { seeded, orders };
  };
  const ordersFile = (extra: Record<string, unknown>) =>
    stringify({
      name: 'orders',
      fullyQualifiedName: 'db.s.orders.dataContract_orders',
      entity: { type: 'table', fullyQualifiedName: 'db.s.orders' },
      ...extra,
    });

  it('warns about column types that differ, and fails with --strict', async () => {
    const { env } = await catalog({ seed: adoptSeed() });
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({
        schema: [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'amount', dataType: 'INT' },
        ],
      }),
    });
    const plan = await cli(['plan', '--json'], { cwd: dir, env });
    const change = JSON.parse(plan.out).changes[0];
    expect(change.action).toBe('update');
    expect(change.warnings).toEqual([
      'column amount is INT in the contract but DECIMAL in table db.s.orders',
    ]);
    const human = await cli(['plan'], { cwd: dir, env });
    expect(human.out).toContain(
      '      warning: contracts/orders.yaml:10:15 column amount is INT in the contract but DECIMAL in table db.s.orders',
    );
    const markdown = await cli(['plan', '--markdown'], { cwd: dir, env });
    expect(markdown.out).toContain(
      '- ⚠️ warning: `contracts/orders.yaml:10:15` column amount is INT in the contract but DECIMAL in table db.s.orders',
    );
    // The patch apply will send, as indented JSON a reviewer can read (and parse).
    const block = /```json\n([\s\S]*?)\n```/.exec(markdown.out)![1]!;
    expect(block.split('\n').length).toBeGreaterThan(5);
    expect(JSON.parse(block)).toEqual(change.patch);
    const strict = await cli(['plan', '--strict'], { cwd: dir, env });
    expect(strict.code).toBe(1);
    expect(strict.out).toContain(
      'error: contracts/orders.yaml:10:15 live-asset check failed (--strict): column amount is INT in the contract but DECIMAL',
    );
  });

  it('a column the asset lacks is an error in the plan (the catalog would refuse it), at its own line', async () => {
    const { sandbox, env } = await catalog({ seed: adoptSeed() });
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({
        schema: [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'amount_total', dataType: 'DECIMAL' },
        ],
      }),
    });
    const plan = await cli(['plan', '--format', 'github'], { cwd: dir, env });
    expect(plan.code).toBe(1);
    const error =
      'column amount_total is not among the columns of table db.s.orders in the catalog (the table has amount, which the file does not name: a rename?), and the catalog refuses (400) a contract that names it: add the column to the table first, or remove it from the file; nothing will be sent for this contract';
    // ordersFile writes `schema:` at line 6, so `- name: amount_total` is at line 9.
    expect(plan.out).toContain(
      `::error file=contracts/orders.yaml,line=9,col=11,title=contract cannot be planned::${error}`,
    );
    expect(plan.out).toContain('Plan: 0 to change, 0 unchanged, 1 error.');
    expect(plan.out).not.toContain('apply it with');
    const apply = await cli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(apply.code).toBe(1);
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('a column the asset lacks in a contract that needs no change is a warning: nothing is sent', async () => {
    const { seeded, orders } = ghostSeed();
    const { env } = await catalog({ seed: seeded });
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({ schema: orders.schema }),
    });
    const plan = await cli(['plan', '--json'], { cwd: dir, env });
    expect(plan.code).toBe(0);
    const change = JSON.parse(plan.out).changes[0];
    expect(change.action).toBe('noop');
    expect(change.warnings).toEqual([
      'column ghost_col is not among the columns of table db.s.orders in the catalog (the table has amount, which the file does not name: a rename?), and the catalog refuses (400) a contract that names it; any change to it will be refused until they agree',
    ]);
  });

  it('a file that leaves schema out keeps the live one, which the catalog checks on every PATCH: a column the asset lacks there is an error when something would be sent, a warning when nothing would', async () => {
    const { seeded, orders } = ghostSeed();
    orders.description = 'Orders.';
    const { sandbox, client, env } = await catalog({ seed: seeded });
    const lacking =
      "column ghost_col of the live contract's schema, which this file leaves out, is not among the columns of table db.s.orders in the catalog (the table has amount, which the live contract does not name: a rename?), and the catalog refuses (400) any change to a contract that names it";
    // The premise, as the server answers: a PATCH that does not touch the schema is refused.
    const id = [...sandbox.store.contracts.values()].find((c) => c.name === 'orders')!.id;
    const refused = await client.patch(`/v1/dataContracts/${id}`, [
      { op: 'replace', path: '/description', value: 'Every order.' },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/do not exist in the table: ghost_col$/);
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({ description: 'Every order.' }),
    });
    const plan = await cli(['plan', '--json'], { cwd: dir, env });
    expect(plan.code).toBe(1);
    const change = JSON.parse(plan.out).changes[0];
    expect(change.action).toBe('error');
    expect(change.error).toBe(
      `${lacking}: add the column to the table first, or set schema in the file without it; nothing will be sent for this contract`,
    );
    const apply = await cli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(apply.code).toBe(1);
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toHaveLength(1);
    // Nothing to send: a warning only.
    await writeFile(
      path.join(dir, 'contracts/orders.yaml'),
      ordersFile({ description: 'Orders.' }),
    );
    const noop = JSON.parse((await cli(['plan', '--json'], { cwd: dir, env })).out).changes[0];
    expect(noop.action).toBe('noop');
    expect(noop.warnings).toEqual([`${lacking}; nothing is sent while the file matches it`]);
    // The file takes the schema over without the column: the change is applied and converges.
    await writeFile(
      path.join(dir, 'contracts/orders.yaml'),
      ordersFile({ description: 'Every order.', schema: [{ name: 'id', dataType: 'BIGINT' }] }),
    );
    const applied = await cli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('says which fields are inherited from the data product, and when the file takes one over', async () => {
    const { env } = await catalog({ seed: adoptSeed() });
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({
        schema: [{ name: 'id', dataType: 'BIGINT' }],
        termsOfUse: 'Our own terms.',
      }),
    });
    const plan = JSON.parse((await cli(['plan', '--json'], { cwd: dir, env })).out);
    expect(plan.changes[0].notes).toEqual([
      "inherited from data product shop: security, semantics rule hasDescription; change them in the product's contract, not here",
      'termsOfUse is now inherited from data product shop; this file gives the contract its own value instead',
      UNMARKED,
    ]);
  });

  it('a contract whose asset is gone is an error; a new one says what the asset inherits', async () => {
    const { env } = await catalog({ seed: adoptSeed() });
    const dir = await workspace({
      'contracts/ghost.yaml': stringify({
        name: 'ghost',
        fullyQualifiedName: 'db.s.ghost.dataContract_ghost',
        entity: { type: 'table', fullyQualifiedName: 'db.s.ghost' },
      }),
      'contracts/refunds.yaml': stringify({
        name: 'refunds',
        fullyQualifiedName: 'db.s.refunds.dataContract_refunds',
        entity: { type: 'table', fullyQualifiedName: 'db.s.refunds' },
      }),
    });
    const run = await cli(['plan', '--json'], { cwd: dir, env });
    expect(run.code).toBe(1);
    const [ghost, refunds] = JSON.parse(run.out).changes;
    expect(ghost).toMatchObject({
      action: 'error',
      error:
        "table db.s.ghost is not in the catalog's search index: the contract's asset does not exist (or is deleted)",
    });
    expect(refunds.action).toBe('create');
    expect(refunds.notes).toEqual([
      'table db.s.refunds currently inherits contract shop.dataContract_shop from data product shop; creating its own contract will override the inherited one',
      UNMARKED,
    ]);
  });

  it('skips the checks, with a note, for a token that may not search', async () => {
    const opened = await catalog({ seed: adoptSeed() });
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token('viewer') };
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({ schema: [{ name: 'id', dataType: 'BIGINT' }] }),
    });
    const plan = JSON.parse((await cli(['plan', '--json'], { cwd: dir, env })).out);
    expect(plan.changes[0].notes).toEqual([
      'live-asset check skipped: the token may not search entities (403)',
    ]);
  });

  it('says a note many contracts share once, and counts missing contracts as the JSON does', async () => {
    const opened = await catalog({ seed: adoptSeed() });
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token('viewer') };
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({ schema: [{ name: 'id', dataType: 'BIGINT' }] }),
      'contracts/refunds.yaml': stringify({
        name: 'refunds',
        fullyQualifiedName: 'db.s.refunds.dataContract_refunds',
        entity: { type: 'table', fullyQualifiedName: 'db.s.refunds' },
      }),
    });
    const json = JSON.parse((await cli(['plan', '--json'], { cwd: dir, env })).out);
    expect(json.summary).toMatchObject({ noop: 1, missing: 1, error: 0 });
    const human = await cli(['plan'], { cwd: dir, env });
    expect(human.code).toBe(1);
    const skipped = 'live-asset check skipped: the token may not search entities (403)';
    expect(human.out.split(skipped)).toHaveLength(2);
    expect(human.out).toContain(`note (2 contracts): ${skipped}`);
    expect(human.out).toContain('Plan: 0 to change, 1 unchanged, 1 missing, 0 errors.');
  });

  it('a semantics rule the file adds is its own, not one to change in the product', async () => {
    const { env } = await catalog({ seed: adoptSeed() });
    const dir = await workspace({
      'contracts/orders.yaml': ordersFile({
        schema: [{ name: 'id', dataType: 'BIGINT' }],
        semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
      }),
    });
    const plan = JSON.parse((await cli(['plan', '--json'], { cwd: dir, env })).out);
    expect(plan.changes[0].diff).toContainEqual(
      expect.objectContaining({ symbol: '+', field: 'semantics["hasDescription"]' }),
    );
    expect(plan.changes[0].notes).toEqual([
      "inherited from data product shop: termsOfUse, security; change them in the product's contract, not here",
      'semantics rule hasDescription is now inherited from data product shop; this file gives the contract its own value instead',
      UNMARKED,
    ]);
  });
});

export type { Sandbox };
