// `contracts new`: a contract file for an asset without one, from the catalog's columns and owners,
// that plans as a create, applies, and re-plans to nothing; and the refusals that keep one file per
// contract (import and new alike).
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { sandboxWithFolder } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const ORDER_ITEMS = 'warehouse.sales.public.order_items';

function demoCatalog(profile: 'spec' | 'openmetadata') {
  return sandboxWithFolder(cleanups, { profile });
}

describe('contracts new --entity TYPE:FQN', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: writes a draft with the table columns and types, which plans as a create, applies, and re-plans to nothing',
    async (profile) => {
      const { sandbox, cwd, env } = await demoCatalog(profile);
      const made = await cli(['new', '--entity', `table:${ORDER_ITEMS}`], { cwd, env });
      expect(made.code, made.out + made.err).toBe(0);
      expect(made.out).toContain(
        `wrote contracts/order_items.yaml  (${ORDER_ITEMS}.dataContract_order_items`,
      );
      const text = await readFile(path.join(cwd, 'contracts', 'order_items.yaml'), 'utf8');
      expect(text).toContain(`fullyQualifiedName: ${ORDER_ITEMS}.dataContract_order_items`);
      expect(text).toContain('entityStatus: Draft');
      const columns = sandbox.store.assetByFqn('table', ORDER_ITEMS)!.columns!;
      for (const column of columns)
        expect(text).toContain(`  - name: ${column.name}\n    dataType: ${column.dataType}`);
      const validate = await cli(['validate'], { cwd, env });
      expect(validate.code, validate.out).toBe(0);
      const plan = await cli(['plan', '--no-color'], { cwd, env });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
      const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
      expect(again.code, again.out).toBe(0);
    },
  );

  it("keeps the asset's owners, by name", async () => {
    const { sandbox, cwd, env } = await demoCatalog('spec');
    const asset = sandbox.store.assetByFqn('table', ORDER_ITEMS)!;
    sandbox.store.putAsset({ ...asset, owners: [{ type: 'team', name: 'sales-data' }] });
    const made = await cli(['new', '--entity', `table:${ORDER_ITEMS}`], { cwd, env });
    expect(made.code, made.err).toBe(0);
    expect(await readFile(path.join(cwd, 'contracts', 'order_items.yaml'), 'utf8')).toContain(
      'owners:\n  - type: team\n    name: sales-data\n',
    );
  });

  it('refuses, writing nothing: an asset the catalog lacks, one with a contract, one a file manages, a file that exists', async () => {
    const { cwd, env } = await demoCatalog('spec');
    const run = (entity: string, ...more: string[]) =>
      cli(['new', '--entity', entity, ...more], { cwd, env });
    const missing = await run('table:warehouse.sales.public.nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(
      "table warehouse.sales.public.nope is not in the catalog's search index",
    );
    const owned = await run('table:warehouse.sales.public.orders');
    expect(owned.code).toBe(1);
    expect(owned.err).toContain(
      'already has contract warehouse.sales.public.orders.dataContract_orders: write its file with contracts import --fqn',
    );
    const badArgument = await run('orders');
    expect(badArgument.code).toBe(1);
    expect(badArgument.err).toContain('--entity takes TYPE:FQN');
    await writeFile(
      path.join(cwd, 'managed.yaml'),
      `name: mine\nfullyQualifiedName: ${ORDER_ITEMS}.dataContract_mine\nentity: {type: table, fullyQualifiedName: ${ORDER_ITEMS}}\n`,
    );
    const managed = await run(`table:${ORDER_ITEMS}`, '--out', '.');
    expect(managed.code).toBe(1);
    expect(managed.err).toContain(`managed.yaml already manages table ${ORDER_ITEMS}`);
    await rm(path.join(cwd, 'managed.yaml'));
    const first = await run(`table:${ORDER_ITEMS}`);
    expect(first.code, first.err).toBe(0);
    await writeFile(path.join(cwd, 'contracts', 'order_items.yaml'), 'name: x\n');
    const exists = await run(`table:${ORDER_ITEMS}`);
    expect(exists.code).toBe(1);
    expect(exists.err).toContain('contracts/order_items.yaml already exists; use --force');
  });
});

describe('import writes no second file for a contract', () => {
  it('import --fqn of a contract a file already manages is refused, nothing written', async () => {
    const { cwd, env } = await demoCatalog('spec');
    const fqn = 'warehouse.sales.public.orders.dataContract_orders';
    const first = await cli(['import', '--fqn', fqn], { cwd, env });
    expect(first.code, first.err).toBe(0);
    const written = path.join(cwd, 'contracts', `${fqn}.yaml`);
    const renamed = path.join(cwd, 'contracts', 'orders.yaml');
    await writeFile(renamed, await readFile(written, 'utf8'));
    await rm(written);
    const second = await cli(['import', '--fqn', fqn], { cwd, env });
    expect(second.code).toBe(1);
    expect(second.err).toContain(`${fqn} is already managed by contracts/orders.yaml`);
    const validate = await cli(['validate'], { cwd, env });
    expect(validate.code, validate.out).toBe(0);
  });
});
