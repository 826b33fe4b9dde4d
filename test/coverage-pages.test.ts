// Coverage reads which tables have a contract of their own from the catalog's list of data
// contracts where its pages cost less than one effective-contract read per table
// (src/coverage/own-contracts.ts), and asks only the tables that could inherit one: the same
// report either way, and a catalog without the list is asked table by table, with one note.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Seed } from '@contracts-gitops/sandbox';
import { demoSeed } from '@contracts-gitops/sandbox/demo-catalog';
import { CatalogClient } from '../src/catalog/client.js';
import { collectCoverage } from '../src/coverage/coverage.js';
import { FILES_FOR_LIST } from '../src/read/live-reads.js';
import { interfacePath, openSandbox } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/**
 * The demo catalog with `extra` more tables: every third with a contract of its own (a copy of
 * the orders contract), every third in the sales-analytics product (inheriting its contract),
 * the rest in no product (`dataProducts: []`) and without a contract.
 */
function largerCatalog(extra: number): Seed {
  const demo = demoSeed();
  const template = demo.assets.find(
    (a) => a.fullyQualifiedName === 'warehouse.sales.public.orders',
  )!;
  const ownTemplate = demo.dataContracts.find(
    (c) => c.fullyQualifiedName === 'warehouse.sales.public.orders.dataContract_orders',
  )!;
  const { dataProducts: _, ...plain } = template;
  for (let i = 0; i < extra; i++) {
    const name = `extra_${String(i).padStart(3, '0')}`;
    const fqn = `warehouse.sales.public.${name}`;
    const id = randomUUID();
    demo.assets.push({
      ...plain,
      id,
      name,
      fullyQualifiedName: fqn,
      columns: [{ name: 'id', dataType: 'BIGINT', fullyQualifiedName: `${fqn}.id` }],
      // The others say they are in no data product, as a catalog may.
      dataProducts: i % 3 === 1 ? ['sales-analytics'] : [],
    });
    if (i % 3 === 0)
      demo.dataContracts.push({
        ...ownTemplate,
        id: randomUUID(),
        name: `dataContract_${name}`,
        fullyQualifiedName: `${fqn}.dataContract_${name}`,
        entity: { id, type: 'table', name, fullyQualifiedName: fqn },
        schema: [],
      });
  }
  return demo;
}

async function coverageOf(seed: Seed, options: { withoutContractList?: 404 } = {}) {
  const opened = await openSandbox({ seed, ...options });
  cleanups.push(() => opened.sandbox.close());
  const client = new CatalogClient({ baseUrl: opened.sandbox.url, token: await opened.token() });
  cleanups.push(() => client.close());
  opened.sandbox.clearRequests();
  const report = await collectCoverage(client, []);
  const paths = opened.sandbox
    .requests()
    .filter((r) => r.method === 'GET')
    .map((r) => interfacePath(r.path));
  return {
    report,
    effective: paths.filter((p) => p.startsWith('/v1/dataContracts/entity')).length,
    list: paths.filter((p) => p === '/v1/dataContracts').length,
  };
}

describe('coverage by the contracts list', () => {
  it('the same report, with reads only for the tables the list gives no contract of their own', async () => {
    const seed = largerCatalog(FILES_FOR_LIST + 20);
    const tables = seed.assets.filter((a) => a.entityType === 'table');
    const byPages = await coverageOf(seed);
    const byTable = await coverageOf(seed, { withoutContractList: 404 });
    expect(byPages.report.rows).toEqual(byTable.report.rows);
    expect(byPages.report.totals).toEqual(byTable.report.totals);
    expect(byPages.report.totals).toMatchObject({ own: 3 + 40, inherited: 2 + 40 });
    // Asked: only the tables without a contract of their own that may be in a data product (a
    // row that says it is in none, `dataProducts: []`, inherits nothing).
    const asked = tables.filter(
      (t) =>
        !seed.dataContracts.some((c) => c.entity.fullyQualifiedName === t.fullyQualifiedName) &&
        !(Array.isArray(t.dataProducts) && t.dataProducts.length === 0),
    );
    expect(asked.length).toBeLessThan(tables.length - 40 - 3 - 30);
    expect(byPages.list).toBeGreaterThan(0);
    expect(byPages.effective).toBe(asked.length);
    expect(byPages.report.notes).toEqual([]);
    // Without the list: every table asked, and one note.
    expect(byTable.effective).toBe(tables.length);
    expect(byTable.report.notes).toHaveLength(1);
    expect(byTable.report.notes[0]).toMatch(
      /^The catalog's list of data contracts could not be read \(.*404.*\): each table's contract was asked for one by one/,
    );
  });

  it(`asks each table below ${FILES_FOR_LIST} tables, and never lists the contracts`, async () => {
    const seed = demoSeed();
    const { report, effective, list } = await coverageOf(seed);
    expect(list).toBe(0);
    expect(effective).toBe(report.totals.tables);
  });
});
