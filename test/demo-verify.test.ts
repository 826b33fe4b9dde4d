// The shipped OpenMetadata examples on the shipped demo catalog (#68): they apply and verify with
// exit 0 — the data product's rules weighed on the product, with its owners and description —
// and a part with nothing counted yet reads as such, not `0/0`. A file naming an asset's contract
// wrongly is told the name of the contract the asset has. A file's problems come in one pass.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { openMetadataDemo } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('the shipped examples on the demo catalog', () => {
  it('apply --verify and verify exit 0; quality without results says so', async () => {
    const { cwd, env } = await openMetadataDemo(cleanups);
    const applied = await cli(['apply', '--auto-approve', '--verify', '--no-color'], { cwd, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(applied.out).toContain(
      '✓ sales-analytics.dataContract_sales-analytics  holds on its data (semantics 2/2)',
    );
    const verified = await cli(['verify', '--no-color'], { cwd, env });
    expect(verified.code, verified.out + verified.err).toBe(0);
    expect(verified.out).toContain('Verified: 6 contracts hold on their data.');
    expect(verified.out).toContain('quality no results yet');
    expect(verified.out).not.toContain('0/0');
  });

  it("a wrong contract name on an asset with a contract names the asset's contract", async () => {
    const { cwd, env } = await openMetadataDemo(cleanups);
    const file = path.join(cwd, 'contracts', 'orders.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('dataContract_orders', 'dataContract_order'),
    );
    const plan = await cli(['plan', 'contracts/orders.yaml', '--no-color'], { cwd, env });
    expect(plan.code).toBe(1);
    expect(plan.out + plan.err).toContain(
      'table warehouse.sales.public.orders already has a data contract, warehouse.sales.public.orders.dataContract_orders',
    );
    expect(plan.out + plan.err).not.toContain('will name a new contract');
  });
});

describe('every problem of a file in one pass', () => {
  it('what the release refuses beside what the catalog cannot store (Archived and PT90M on 1.12)', async () => {
    const { cwd, env } = await openMetadataDemo(cleanups, { openmetadataVersion: '1.12.6' });
    const file = path.join(cwd, 'contracts', 'orders.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8'))
        .replace('entityStatus: Approved', 'entityStatus: Archived')
        .replace('refreshFrequency: PT1H', 'refreshFrequency: PT90M'),
    );
    const plan = await cli(['plan', 'contracts/orders.yaml', '--no-color'], { cwd, env });
    expect(plan.code).toBe(1);
    const said = plan.out + plan.err;
    expect(said).toMatch(/orders\.yaml:\d+:\d+ .*refreshFrequency/);
    expect(said).toMatch(/orders\.yaml:\d+:\d+ .*Archived/);
  });

  it('an ODCS document: what the catalog cannot read beside what the standard refuses', async () => {
    const { cwd } = await openMetadataDemo(cleanups);
    await writeFile(
      path.join(cwd, 'contracts', 'x.odcs.yaml'),
      [
        'apiVersion: v3.1.0',
        'kind: DataContract',
        'id: x',
        'version: 1.0.0',
        'status: bogus',
        'schema:',
        '  - name: x',
        '    logicalType: object',
        '    properties:',
        '      - { name: a, logicalType: text }',
        'customProperties:',
        '  - { property: catalogEntity, value: "table:warehouse.sales.public.x" }',
        '',
      ].join('\n'),
    );
    const validated = await cli(['validate', 'contracts/x.odcs.yaml'], { cwd });
    expect(validated.code).toBe(1);
    expect(validated.out).toContain('logicalType');
    expect(validated.out).toContain('status must be one of');
  });
});
