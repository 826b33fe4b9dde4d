// The version gate of `plan --changed-since REF`: a column dropped without a major bump fails at
// the version's line; with the bump it passes; an acknowledgement lets the break through with a
// note until it expires, then the gate fails again and the acknowledgement is warned.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { EDITOR, openSandbox, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).toString();

/**
 * A repository whose base commit holds the customers contract as the catalog has it, version
 * 1.2.0; the working tree drops its phone column at `version`.
 */
async function repository(version: string, settings = '') {
  const opened = await openSandbox({});
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
  const imported = await cli(
    ['import', '--fqn', 'warehouse.sales.public.customers.dataContract_customers'],
    { cwd: dir.dir, env },
  );
  expect(imported.code, imported.err).toBe(0);
  const file = path.join(
    dir.dir,
    'contracts',
    'warehouse.sales.public.customers.dataContract_customers.yaml',
  );
  const text = (await readFile(file, 'utf8')).replace(
    /^name: customers$/m,
    'name: customers\ncontractVersion: 1.2.0',
  );
  await writeFile(file, text);
  if (settings !== '') await writeFile(path.join(dir.dir, '.contracts.yaml'), settings);
  git(dir.dir, 'init', '-q', '-b', 'main');
  git(dir.dir, 'add', '-A');
  git(dir.dir, 'commit', '-q', '-m', 'base');
  const dropped = text
    .replace(/^contractVersion: 1\.2\.0$/m, `contractVersion: ${version}`)
    .replace(/ {2}- name: phone\n(?: {4}.*\n)*/m, '');
  expect(dropped).not.toContain('name: phone');
  await writeFile(file, dropped);
  const line = dropped.split('\n').findIndex((l) => l.startsWith('contractVersion:')) + 1;
  return { cwd: dir.dir, env, line, file: path.relative(dir.dir, file) };
}

describe('the version gate', () => {
  it('a column dropped without a major bump: exit 1, the error at the version line, saying which bump and why', async () => {
    const repo = await repository('1.3.0');
    const plan = await cli(['plan', '--changed-since', 'main'], { cwd: repo.cwd, env: repo.env });
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.err).toContain(
      `${repo.file}:${repo.line}:18 contractVersion 1.2.0 → 1.3.0 is a minor bump, but this change needs a major one: breaking: column phone removed (or acknowledge the break in .contracts.yaml)`,
    );
    const github = await cli(['plan', '--changed-since', 'main', '--format', 'github'], {
      cwd: repo.cwd,
      env: repo.env,
    });
    expect(github.err).toContain(
      `::error file=${repo.file},line=${repo.line},col=18,title=version gate::contractVersion 1.2.0 → 1.3.0`,
    );
    // The version is the file's alone: never planned as a change of the catalog's contract.
    expect(plan.out).not.toContain('contractVersion');
  });

  it('with the major bump: passes', async () => {
    const repo = await repository('2.0.0');
    const plan = await cli(['plan', '--changed-since', 'main'], { cwd: repo.cwd, env: repo.env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.err).toBe('');
  });

  it('with an acknowledgement instead (and a minor bump, the break now a change like another): passes with a note; after its expiry: fails, and the acknowledgement is warned', async () => {
    const ack = (expires: string) =>
      [
        'acknowledgedBreaks:',
        '  - contract: warehouse.sales.public.customers.dataContract_customers',
        '    change: column phone removed',
        '    reason: no consumer reads phone (checked with the CRM team)',
        `    expires: ${expires}`,
        '    ticket: DATA-123',
        '',
      ].join('\n');
    // Acknowledged, the break is a change like another: a minor bump.
    const open = await repository('1.3.0', ack('2999-12-31'));
    const passes = await cli(['plan', '--changed-since', 'main'], { cwd: open.cwd, env: open.env });
    expect(passes.code, passes.out + passes.err).toBe(0);
    expect(passes.err).toContain(
      'Note: warehouse.sales.public.customers.dataContract_customers: breaking change acknowledged in .contracts.yaml: column phone removed (no consumer reads phone (checked with the CRM team); until 2999-12-31; DATA-123)',
    );
    const expired = await repository('1.3.0', ack('2020-01-31'));
    const fails = await cli(['plan', '--changed-since', 'main'], {
      cwd: expired.cwd,
      env: expired.env,
    });
    expect(fails.code).toBe(1);
    expect(fails.err).toContain('is a minor bump, but this change needs a major one');
    expect(fails.err).toContain(
      'Warning: the acknowledgement of "column phone removed" on warehouse.sales.public.customers.dataContract_customers expired on 2020-01-31',
    );
  });

  it('an acknowledgement of a break the plan does not have is warned, so the file does not rot', async () => {
    const repo = await repository(
      '2.0.0',
      'acknowledgedBreaks:\n  - { contract: warehouse.sales.public.customers.dataContract_customers, change: column email removed, reason: r, expires: 2999-01-01 }\n',
    );
    const plan = await cli(['plan', '--changed-since', 'main'], { cwd: repo.cwd, env: repo.env });
    expect(plan.code).toBe(0);
    expect(plan.err).toContain(
      'Warning: the acknowledgement of "column email removed" on warehouse.sales.public.customers.dataContract_customers lets nothing through',
    );
  });
});

describe('the version kept in git', () => {
  it('validates as a semantic version at its line, and is never sent', async () => {
    const dir = await tempDir({
      'contracts/a.yaml': `name: a\ncontractVersion: v1\nfullyQualifiedName: db.s.a.dataContract_a\nentity: { type: table, fullyQualifiedName: db.s.a }\n`,
    });
    cleanups.push(() => dir.remove());
    const run = await cli(['validate'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      "contracts/a.yaml:2:18 contractVersion must be a semantic version such as 1.4.0, got 'v1'",
    );
  });
});

describe('the version in the catalog', () => {
  it('openmetadata: where a data contract custom property contractVersion is defined, the declared version is written to it, and a bump is planned as its change', async () => {
    const opened = await openSandbox({
      profile: 'openmetadata',
      seed: seed({
        users: [EDITOR],
        assets: [
          {
            id: '7b000000-0000-4000-8000-000000000001',
            entityType: 'table',
            name: 'people',
            fullyQualifiedName: 'db.s.people',
            columns: [{ name: 'id', dataType: 'BIGINT' }],
          },
        ],
        dataProducts: [],
        dataContracts: [],
        customProperties: [{ name: 'contractVersion', description: 'The version git declares.' }],
      }),
    });
    cleanups.push(() => opened.sandbox.close());
    const file = (version: string) =>
      `name: people\ncontractVersion: ${version}\nfullyQualifiedName: db.s.people.dataContract_people\nentity: { type: table, fullyQualifiedName: db.s.people }\nentityStatus: Draft\n`;
    const dir = await tempDir({ 'contracts/people.yaml': file('1.2.0') });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const apply = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(opened.sandbox.store.contractByFqn('db.s.people.dataContract_people')).toMatchObject({
      extension: { contractVersion: '1.2.0' },
    });
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env })).code).toBe(0);
    await writeFile(path.join(dir.dir, 'contracts', 'people.yaml'), file('1.3.0'));
    const bumped = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
    expect(bumped.out).toContain('~ extension.contractVersion: "1.2.0" → "1.3.0"');
  });
});
