// A change inside a multi-line or long text is shown as a line diff (the changed lines marked) in
// the plan, its markdown and the apply report: never the same cut text before and after. The line
// diff itself: text-changes.unit.test.ts.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('values too long for one line', () => {
  it('spec: a create and a long one-line description are shown whole in the plan, its markdown and the apply report, never cut', async () => {
    const opened = await openSandbox({});
    cleanups.push(() => opened.sandbox.close());
    const long = `Every order line of the web shop, ${'with its product and quantity, '.repeat(5)}end.`;
    const dir = await tempDir({
      'contracts/order_items.yaml': [
        'name: order_items',
        'fullyQualifiedName: warehouse.sales.public.order_items.dataContract_order_items',
        'entity: { type: table, fullyQualifiedName: warehouse.sales.public.order_items }',
        'entityStatus: Draft',
        `description: ${long}`,
        'schema:',
        '  - { name: order_id, dataType: BIGINT, description: The order this line belongs to (orders.order_id). }',
        '  - { name: line_no, dataType: INT, description: The position of the line within its order. }',
        '',
      ].join('\n'),
    });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const plan = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain(`+ description:\n          + ${long}\n`);
    expect(plan.out).toContain(
      '+ schema:\n          + {"name":"order_id","dataType":"BIGINT","description":"The order this line belongs to (orders.order_id)."}\n          + {"name":"line_no",',
    );
    expect(plan.out).not.toContain('…');
    const markdown = await cli(['plan', '--format', 'markdown'], { cwd: dir.dir, env });
    expect(markdown.out).toContain(`+     ${long}\n`);
    expect(markdown.out).toContain(
      '+     {"name":"line_no","dataType":"INT","description":"The position of the line within its order."}',
    );
    expect((await cli(['apply', '--auto-approve'], { cwd: dir.dir, env })).code).toBe(0);
    const longer = `${long} Loaded hourly.`;
    await writeFile(
      path.join(dir.dir, 'contracts/order_items.yaml'),
      (await readFile(path.join(dir.dir, 'contracts/order_items.yaml'), 'utf8')).replace(
        long,
        longer,
      ),
    );
    const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(apply.out).toContain(`description:\n        - ${long}\n        + ${longer}\n`);
    expect(apply.out).not.toContain('…');
  });
});

describe('the second line of the terms of use changed', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: plan, its markdown and the apply report show that line changed',
    async (profile) => {
      const opened = await openSandbox({ profile });
      cleanups.push(() => opened.sandbox.close());
      const dir = await tempDir();
      cleanups.push(() => dir.remove());
      const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
      const fqn = 'warehouse.sales.public.orders.dataContract_orders';
      const imported = await cli(['import', '--fqn', fqn], { cwd: dir.dir, env });
      expect(imported.code, imported.err).toBe(0);
      const file = path.join(dir.dir, 'contracts', `${fqn}.yaml`);
      const text = await readFile(file, 'utf8');
      const edited = text.replace(
        /^termsOfUse:.*$/m,
        'termsOfUse: |\n  Internal use only.\n  Do not share outside the sales team.\n  Ask data-platform first.',
      );
      expect(edited).not.toBe(text);
      await writeFile(file, edited);
      await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
      await writeFile(file, edited.replace('outside the sales team', 'outside sales'));
      const plan = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out).toContain('~ termsOfUse:\n');
      expect(plan.out).toContain('- Do not share outside the sales team.\n');
      expect(plan.out).toContain('+ Do not share outside sales.\n');
      expect(plan.out).not.toMatch(/"Internal use only\.…" → "Internal use only\.…"/);
      const markdown = await cli(['plan', '--format', 'markdown'], { cwd: dir.dir, env });
      expect(markdown.out).toContain(
        '-     Do not share outside the sales team.\n+     Do not share outside sales.',
      );
      const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      expect(apply.out).toContain('        - Do not share outside the sales team.');
      expect(apply.out).toContain('        + Do not share outside sales.');
    },
  );
});

describe('a column whose type changed', () => {
  it('openmetadata: the apply report reads it as one change, as the plan does, not a removal and an addition', async () => {
    const opened = await openSandbox({ profile: 'openmetadata' });
    cleanups.push(() => opened.sandbox.close());
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const fqn = 'warehouse.sales.public.orders.dataContract_orders';
    expect((await cli(['import', '--fqn', fqn], { cwd: dir.dir, env })).code).toBe(0);
    const file = path.join(dir.dir, 'contracts', `${fqn}.yaml`);
    const text = await readFile(file, 'utf8');
    const retyped = text.replace(/(- name: order_id\n\s+dataType: )BIGINT/, '$1INT');
    expect(retyped).not.toBe(text);
    await writeFile(file, retyped);
    const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(apply.out).toContain('~ schema["order_id"]: dataType: "BIGINT" → "INT"');
    expect(apply.out).not.toMatch(/^\s+[-+] schema: .*order_id/m);
  });
});
