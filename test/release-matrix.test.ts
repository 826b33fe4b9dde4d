// Every OpenMetadata release our users run, as the sandbox plays it: the openmetadata demo
// converges on each, what it stores is what OpenMetadata's own schema takes, and the behaviours
// that differ from release to release (If-Match dropping contract changes up to 1.13.0, Archived
// from 1.13.0, the create dry run, the 2.0.0 ODCS strip) are met by the CLI as a user meets them.
import { readFileSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { forwarder } from './helpers/forwarder.js';
import { openMetadataSchemas } from './helpers/openmetadata-schemas.js';
import { openSandbox, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const schemaOf = openMetadataSchemas();

/** Copies the openmetadata example files into `dir`'s `contracts` folder. */
function withExamples(dir: string): Promise<void> {
  return cp(path.join(root, 'examples', 'openmetadata', 'contracts'), path.join(dir, 'contracts'), {
    recursive: true,
  });
}

/** A sandbox playing `release`, and the openmetadata example files in a directory of their own. */
async function demoOn(release: string) {
  const opened = await openSandbox({ profile: 'openmetadata', openmetadataVersion: release });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  await withExamples(dir.dir);
  return {
    ...opened,
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

const patches = (sandbox: Sandbox) => sandbox.requests().filter((r) => r.method === 'PATCH');

const RELEASES = [
  '1.10.0',
  '1.12.3',
  '1.13.0',
  '1.13.1',
  '1.13.6',
  '1.13.7',
  '2.0.0',
  '2.0.5',
  '2.0.9',
];

describe.each(RELEASES)('OpenMetadata %s', (release) => {
  it('the openmetadata demo plans, applies (exit 0), re-plans with no changes; every stored contract is one dataContract.json takes', async () => {
    const { sandbox, cwd, env } = await demoOn(release);
    const plan = await cli(['plan', '--no-color'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain('Plan: 1 to create, 3 to change, 2 unchanged, 0 errors.');
    const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(apply.out).toContain('Apply complete: 1 created, 3 changed, 2 unchanged.');
    const again = await cli(['plan', '--detailed-exitcode', '--no-color'], { cwd, env });
    expect(again.code, again.out + again.err).toBe(0);
    expect(again.out).toContain('Plan: 0 to change, 6 unchanged, 0 errors.');
    expect(patches(sandbox).map((r) => r.status)).toEqual([200, 200, 200]);
    const validate = schemaOf('entity/data/dataContract.json')!;
    for (const contract of sandbox.store.contracts.values()) {
      const { href: _href, ...stored } = contract;
      expect(
        validate(stored),
        `${contract.fullyQualifiedName}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
  });
});

describe('If-Match on releases up to 1.13.0 (open-metadata/OpenMetadata#28876)', () => {
  const CONTRACT = '6c000000-0000-4000-8000-000000000001';
  const oneContract = () =>
    seed({
      users: [
        { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      ],
      assets: [
        {
          id: '6a000000-0000-4000-8000-000000000001',
          entityType: 'table',
          name: 't',
          fullyQualifiedName: 'db.s.t',
          columns: [{ name: 'id', dataType: 'BIGINT' }],
        },
      ],
      dataProducts: [],
      dataContracts: [
        {
          id: CONTRACT,
          name: 'c',
          fullyQualifiedName: 'db.s.t.dataContract_c',
          entity: {
            id: '6a000000-0000-4000-8000-000000000001',
            type: 'table',
            fullyQualifiedName: 'db.s.t',
          },
          entityStatus: 'Draft',
          description: 'Old.',
          version: 0.1,
        },
      ],
    });
  const status = { op: 'replace', path: '/entityStatus', value: 'Approved' };

  it('1.13.0: a PATCH with If-Match changing only entityStatus is answered 200 at the old version and stores nothing; 1.13.1 stores it', async () => {
    const at = async (release: string) => {
      const { sandbox, client } = await openSandbox({
        seed: oneContract(),
        profile: 'openmetadata',
        openmetadataVersion: release,
      });
      cleanups.push(() => sandbox.close());
      const read = await client.get(`/v1/dataContracts/${CONTRACT}`);
      const answer = await client.patch(`/v1/dataContracts/${CONTRACT}`, [status], {
        ifMatch: read.headers.get('etag')!,
      });
      return { sandbox, client, read, answer };
    };
    const old = await at('1.13.0');
    expect(old.answer.status).toBe(200);
    expect(old.answer.body).toMatchObject({
      version: 0.1,
      entityStatus: 'Approved',
      changeDescription: { fieldsAdded: [], fieldsUpdated: [], fieldsDeleted: [] },
    });
    expect(old.sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      version: 0.1,
      entityStatus: 'Draft',
      updatedAt: old.read.body.updatedAt,
    });
    // Mixed with a field the generic updater counts: the whole document is stored, but the
    // change description names only that field.
    const mixed = await old.client.patch(
      `/v1/dataContracts/${CONTRACT}`,
      [status, { op: 'replace', path: '/description', value: 'New.' }],
      { ifMatch: 'W/"0.1"' },
    );
    expect(mixed.body).toMatchObject({
      version: 0.2,
      changeDescription: { fieldsUpdated: [{ name: 'description' }] },
    });
    expect(JSON.stringify(mixed.body.changeDescription)).not.toContain('entityStatus');
    expect(old.sandbox.store.contracts.get(CONTRACT)).toMatchObject({
      entityStatus: 'Approved',
      description: 'New.',
    });
    const fixed = await at('1.13.1');
    expect(fixed.answer.body).toMatchObject({ version: 0.2, entityStatus: 'Approved' });
    expect(fixed.sandbox.store.contracts.get(CONTRACT)).toMatchObject({ version: 0.2 });
  });

  it.each(['1.10.0', '1.13.0', '1.13.1', '2.0.5'])(
    '%s: apply of a status change alone is stored, and If-Match is sent only where the release keeps the change',
    async (release) => {
      const { sandbox, token } = await openSandbox({
        seed: oneContract(),
        profile: 'openmetadata',
        openmetadataVersion: release,
      });
      cleanups.push(() => sandbox.close());
      const dir = await tempDir({
        'contracts/c.yaml': stringify({
          name: 'c',
          fullyQualifiedName: 'db.s.t.dataContract_c',
          entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
          entityStatus: 'Approved',
        }),
      });
      cleanups.push(() => dir.remove());
      const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await token() };
      const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      expect(apply.out).toContain('0.1 → 0.2');
      expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({
        version: 0.2,
        entityStatus: 'Approved',
      });
      const again = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
      expect(again.code, again.out).toBe(0);
    },
  );
});

describe('the vocabulary of the connected release', () => {
  const archived = (release: string) => async () => {
    const { sandbox, cwd, env } = await demoOn(release);
    const file = path.join(cwd, 'contracts', 'orders.yaml');
    const text = readFileSync(file, 'utf8').replace(
      /^entityStatus: .*$/m,
      'entityStatus: Archived',
    );
    await writeFile(file, text);
    const line = text.split('\n').findIndex((l) => l.startsWith('entityStatus:')) + 1;
    return { sandbox, cwd, env, line };
  };

  it('1.12.3: Archived is an error at its line naming the release, before any write', async () => {
    const { sandbox, cwd, env, line } = await archived('1.12.3')();
    const plan = await cli(['plan', '--format', 'github'], { cwd, env });
    expect(plan.code).toBe(1);
    expect(plan.out).toMatch(
      new RegExp(
        `^::error file=contracts/orders.yaml,line=${line},col=\\d+,title=contract cannot be planned::entityStatus Archived is not a status OpenMetadata 1\\.12\\.3 stores \\(it came in OpenMetadata 1\\.13\\.0\\)`,
        'm',
      ),
    );
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code).toBe(1);
    // Nothing written: the only requests that are no reads are the dry runs of the create.
    expect(
      sandbox
        .requests()
        .filter((r) => r.method !== 'GET')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['POST /api/v1/dataContracts/validate', 'POST /api/v1/dataContracts/validate']);
  });

  it('1.13.0: Archived is stored', async () => {
    const { sandbox, cwd, env } = await archived('1.13.0')();
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(
      sandbox.store.contractByFqn('warehouse.sales.public.orders.dataContract_orders'),
    ).toMatchObject({
      entityStatus: 'Archived',
    });
  });
});

describe("the server's dry run of a create (POST /v1/dataContracts/validate)", () => {
  const ORDER_ITEMS = 'warehouse.sales.public.order_items';

  it("refused: plan exits 1 with the server's words at the column, and nothing is created", async () => {
    const opened = await openSandbox({ profile: 'openmetadata', openmetadataVersion: '2.0.5' });
    cleanups.push(() => opened.sandbox.close());
    // The search index is behind the table (as a real one can be): it still shows a column the
    // table no longer has, so the tool's own check cannot see what the server will refuse.
    const front = await forwarder(
      opened.sandbox.root,
      () => undefined,
      (_method, url, body) => {
        if (!url.includes('/search/') && !url.startsWith('/api/v1/tables')) return body;
        const text = JSON.stringify(body);
        return JSON.parse(
          text.replace(
            /("fullyQualifiedName":"warehouse\.sales\.public\.order_items"[^]*?"columns":\[)/,
            '$1{"name":"discount","dataType":"DECIMAL","fullyQualifiedName":"warehouse.sales.public.order_items.discount"},',
          ),
        );
      },
    );
    cleanups.push(() => front.close());
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await withExamples(dir.dir);
    const file = path.join(dir.dir, 'contracts', 'order-items.yaml');
    const text = readFileSync(file, 'utf8').replace(
      /^schema:\n/m,
      'schema:\n  - name: discount\n    dataType: DECIMAL\n',
    );
    await writeFile(file, text);
    const env = { CATALOG_URL: `${front.url}/api`, CATALOG_TOKEN: await opened.token() };
    const plan = await cli(['plan', '--format', 'github'], { cwd: dir.dir, env });
    expect(plan.code, plan.out + plan.err).toBe(1);
    const line = text.split('\n').findIndex((l) => l.includes('name: discount')) + 1;
    expect(plan.out).toMatch(
      new RegExp(
        `^::error file=contracts/order-items.yaml,line=${line},col=\\d+,title=contract cannot be planned::column discount is not among the table's columns, says the catalog's dry run of this create`,
        'm',
      ),
    );
    expect(front.requests.filter((r) => r.startsWith('POST'))).toEqual([
      'POST /api/v1/dataContracts/validate',
    ]);
    expect(
      opened.sandbox.store.contractByFqn(`${ORDER_ITEMS}.dataContract_order_items`),
    ).toBeUndefined();
  });

  it("its answer is the ContractValidation of OpenMetadata's schema; 1.10.0 serves none, which plan tells apart from a refusal", async () => {
    const opened = await openSandbox({ profile: 'openmetadata', openmetadataVersion: '2.0.5' });
    cleanups.push(() => opened.sandbox.close());
    const asset = opened.sandbox.store.assetByFqn('table', ORDER_ITEMS)!;
    const response = await fetch(`${opened.sandbox.url}/v1/dataContracts/validate`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await opened.token()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: 'order_items',
        entity: { id: asset.id, type: 'table' },
        schema: [{ name: 'ghost', dataType: 'INT' }],
      }),
    });
    const answer = await response.json();
    const validate = schemaOf('entity/datacontract/contractValidation.json')!;
    expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    expect(answer).toMatchObject({ valid: false, schemaValidation: { failedFields: ['ghost'] } });
    expect(
      opened.sandbox.store.contractByFqn(`${ORDER_ITEMS}.dataContract_order_items`),
    ).toBeUndefined();

    const { cwd, env, sandbox } = await demoOn('1.10.0');
    const plan = await cli(['plan', '--no-color'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain(
      'note: OpenMetadata 1.10.0 serves no dry run of a create (POST /v1/dataContracts/validate); the create is checked by this tool alone',
    );
    expect(
      sandbox
        .requests()
        .filter((r) => r.method === 'POST')
        .map((r) => r.status),
    ).toEqual([405]);
  });
});

describe("OpenMetadata 2.0.0 strips an ODCS import's passthrough on any other update (#31145)", () => {
  it.each([
    ['2.0.0', true],
    ['2.0.1', false],
  ])(
    '%s: plan warns %s; the sandbox drops it on a PATCH only on 2.0.0',
    async (release, strips) => {
      const { sandbox, cwd, env } = await demoOn(release);
      const orders = sandbox.store.contractByFqn(
        'warehouse.sales.public.orders.dataContract_orders',
      )!;
      sandbox.store.putContract({
        ...orders,
        odcsElementExtensions: { servers: [{ server: 'prod' }] },
      });
      const plan = await cli(['plan', '--no-color'], { cwd, env });
      expect(plan.code, plan.err).toBe(0);
      const warning = `OpenMetadata ${release} drops what this contract keeps of its ODCS document (odcsElementExtensions)`;
      if (strips) expect(plan.out).toContain(warning);
      else expect(plan.out).not.toContain('odcsElementExtensions');
      const apply = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      const stored = sandbox.store.contractByFqn(
        'warehouse.sales.public.orders.dataContract_orders',
      )!;
      expect(stored.odcsElementExtensions === undefined).toBe(strips);
    },
  );
});

describe("a data product's contract", () => {
  it('its search document carries the UUID the create takes: the product contract is created on it', async () => {
    const { sandbox, token } = await openSandbox({ profile: 'openmetadata' });
    cleanups.push(() => sandbox.close());
    const auth = { authorization: `Bearer ${await token()}` };
    const search = (await (
      await fetch(
        `${sandbox.url}/v1/search/fieldQuery?fieldName=fullyQualifiedName&fieldValue=sales-analytics&index=data_product_search_index`,
        { headers: auth },
      )
    ).json()) as { hits: { hits: { _source: { id: string } }[] } };
    const id = search.hits.hits[0]!._source.id;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The demo's product has its contract: another product's is created on its id.
    const product = sandbox.store.contractByFqn('sales-analytics.dataContract_sales-analytics')!;
    sandbox.store.putContract({ ...product, deleted: true });
    const created = await fetch(`${sandbox.url}/v1/dataContracts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shop', entity: { id, type: 'dataProduct' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await created.json()).toMatchObject({
      fullyQualifiedName: 'sales-analytics.dataContract_shop',
      entity: { id, type: 'dataProduct', fullyQualifiedName: 'sales-analytics' },
    });
  });
});
