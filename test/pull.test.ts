// `contracts pull` against a real OpenMetadata sandbox, through the built CLI: contracts applied
// from a checkout, edited in the catalog by another user, come back into their files in the
// files' own style; plan then has nothing to change. What git changed too is a conflict, what
// only git changed stays, and a contract the catalog deleted is said and its file kept.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProcess } from './helpers/cli-process.js';
import { commitAll, COMMITTER, git } from './helpers/prune-repository.js';
import { openMetadataDemo } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const ORDERS = 'warehouse.sales.public.orders.dataContract_orders';
const ORDERS_FILE = 'contracts/orders.yaml';

/** The demo's files in a checkout with an origin, applied by the admin. */
async function applied() {
  const demo = await openMetadataDemo(cleanups);
  const { cwd, sandbox } = demo;
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'remote', 'add', 'origin', 'git@github.com:acme/contracts.git');
  // A comment of the team's own, which pull must keep.
  const file = path.join(cwd, ORDERS_FILE);
  const text = await readFile(file, 'utf8');
  await writeFile(
    file,
    text.replace('  - name: order_id\n', '  # the key: never reused\n  - name: order_id\n'),
  );
  commitAll(cwd, 'contracts');
  const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await demo.token('admin'), ...COMMITTER };
  const run = (...args: string[]) => cliProcess(args, { cwd, env });
  const apply = await run('apply', '--auto-approve');
  expect(apply.code, apply.out + apply.err).toBe(0);
  /** A PATCH of `fqn` sent as `user`, as the catalog's UI would send it. */
  const edit = async (user: string, fqn: string, ops: unknown[]) => {
    const token = await demo.token(user);
    const headers = { authorization: `Bearer ${token}` };
    const read = await fetch(`${sandbox.url}/v1/dataContracts/name/${fqn}`, { headers });
    const { id } = (await read.json()) as { id: string };
    const answer = await fetch(`${sandbox.url}/v1/dataContracts/${id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify(ops),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    return id;
  };
  return { ...demo, cwd, env, run, edit, file };
}

/** The lines `git diff` adds and removes in the checkout. */
function diffLines(cwd: string): { added: string[]; removed: string[] } {
  const lines = git(cwd, 'diff', '--unified=0').split('\n');
  return {
    added: lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1)),
    removed: lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).map((l) => l.slice(1)),
  };
}

describe('contracts pull', () => {
  it("brings another user's edits back in the file's style; plan then has no changes", async () => {
    const { cwd, run, edit } = await applied();
    await edit('maria.garcia', ORDERS, [
      { op: 'replace', path: '/description', value: 'Orders placed in the web shop.' },
      {
        op: 'add',
        path: '/schema/-',
        value: { name: 'updated_at', dataType: 'TIMESTAMP', description: 'Last change.' },
      },
      { op: 'replace', path: '/sla/refreshFrequency', value: { interval: 12, unit: 'hour' } },
    ]);

    const check = await run('pull', '--check');
    expect(check.code, check.out + check.err).toBe(2);
    expect(git(cwd, 'status', '--porcelain')).toBe('');

    const pulled = await run('pull');
    expect(pulled.code, pulled.out + pulled.err).toBe(0);
    expect(pulled.out).toContain(
      `${ORDERS_FILE} (${ORDERS}): now holds the catalog's description, schema, sla`,
    );
    // Who changed what, from the contract's version history.
    expect(pulled.out).toMatch(
      /changed by maria\.garcia \(version \d\.\d, \d{4}-\d\d-\d\d \d\d:\d\d UTC\): description, schema, sla/,
    );
    expect(diffLines(cwd)).toEqual({
      added: [
        'description: Orders placed in the web shop.',
        '  - name: updated_at',
        '    dataType: TIMESTAMP',
        '    description: Last change.',
        '  refreshFrequency: PT12H',
      ],
      removed: [
        'description: Orders placed in the web shop, one row per order, loaded hourly',
        '  from the shop database.',
        '  refreshFrequency: PT1H',
      ],
    });
    const text = await readFile(path.join(cwd, ORDERS_FILE), 'utf8');
    expect(text).toContain('  # the key: never reused\n  - name: order_id\n');
    expect(text.startsWith('# yaml-language-server: $schema=')).toBe(true);

    const plan = await run('plan', '--detailed-exitcode');
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain('0 to change');
    const again = await run('pull', '--check');
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('Nothing to pull');
  });

  it('says a conflict, keeps what only git changed, and keeps the file of a deleted contract', async () => {
    const { cwd, run, edit, file, env, sandbox } = await applied();
    // Git: the SLA and the description change, not applied yet.
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text
        .replace('refreshFrequency: PT1H', 'refreshFrequency: PT2H')
        .replace('loaded hourly', 'loaded every hour'),
    );
    commitAll(cwd, 'slower refresh');
    // The catalog: the SLA too.
    await edit('maria.garcia', ORDERS, [
      { op: 'replace', path: '/sla/refreshFrequency', value: { interval: 6, unit: 'hour' } },
    ]);
    // And the customers contract deleted in the catalog.
    const customers = 'warehouse.sales.public.customers.dataContract_customers';
    const headers = { authorization: `Bearer ${env.CATALOG_TOKEN}` };
    const read = await fetch(`${sandbox.url}/v1/dataContracts/name/${customers}`, { headers });
    const { id } = (await read.json()) as { id: string };
    const deleted = await fetch(`${sandbox.url}/v1/dataContracts/${id}`, {
      method: 'DELETE',
      headers,
    });
    expect(deleted.status).toBe(200);

    const human = await run('pull', '--check');
    expect(human.out).toContain('conflict: sla changed in git since the last apply');
    expect(human.out).toContain('not applied yet: description changed in git since the last apply');

    const pulled = await run('pull', '--json');
    expect(pulled.code, pulled.out + pulled.err).toBe(0);
    const report = JSON.parse(pulled.out) as {
      contracts: {
        file: string;
        status: string;
        history: unknown;
        fields: string[];
        conflicts: string[];
        notApplied: string[];
        message: string | null;
      }[];
    };
    const orders = report.contracts.find((c) => c.file === ORDERS_FILE)!;
    expect(orders).toMatchObject({
      status: 'pulled',
      fields: ['sla'],
      conflicts: ['sla'],
      notApplied: ['description'],
      history: { edits: [{ user: 'maria.garcia', fields: ['sla'] }] },
    });
    const gone = report.contracts.find((c) => c.file === 'contracts/customers.yaml')!;
    expect(gone.status).toBe('not-in-catalog');
    expect(gone.message).toContain('the catalog deleted this contract');
    expect(gone.message).toContain(`contracts restore ${customers}`);
    const now = await readFile(file, 'utf8');
    expect(now).toContain('refreshFrequency: PT6H');
    expect(now).toContain('loaded every hour');
  });

  it('brings edits back into an ODCS file, keeping what the mapping does not make', async () => {
    const { cwd, run, edit, env } = await applied();
    const exported = await cliProcess(
      ['export', '--format', 'odcs', ORDERS_FILE, '--out', 'contracts'],
      { cwd, env },
    );
    expect(exported.code, exported.err).toBe(0);
    const odcsFile = path.join(cwd, `contracts/${ORDERS}.odcs.yaml`);
    const odcs = await readFile(odcsFile, 'utf8');
    await writeFile(
      odcsFile,
      odcs.replace('slaProperties:\n', '# agreed with the shop team\nslaProperties:\n') +
        "tags: [sales, orders] # ours, not the catalog's\n",
    );
    git(cwd, 'rm', '-q', ORDERS_FILE);
    commitAll(cwd, 'orders as ODCS');
    const apply = await run('apply', '--auto-approve');
    expect(apply.code, apply.out + apply.err).toBe(0);
    commitAll(cwd, 'applied');
    await edit('maria.garcia', ORDERS, [
      { op: 'replace', path: '/description', value: 'Orders placed in the web shop.' },
      { op: 'replace', path: '/sla/refreshFrequency', value: { interval: 12, unit: 'hour' } },
    ]);

    const pulled = await run('pull');
    expect(pulled.code, pulled.out + pulled.err).toBe(0);
    expect(diffLines(cwd)).toEqual({
      added: ['  purpose: Orders placed in the web shop.', '    value: 12'],
      removed: [
        '  purpose: Orders placed in the web shop, one row per order, loaded hourly from the shop database.',
        '    value: 1',
      ],
    });
    const plan = await run('plan', '--detailed-exitcode');
    expect(plan.code, plan.out + plan.err).toBe(0);
  });
});
