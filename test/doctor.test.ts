// `contracts doctor [--fix]` through the built CLI against a real sandbox: what a read-only, an
// editing and an admin's token are told, that the doctor writes nothing but what --fix defines,
// and that a contract applied after --fix carries the marker.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cliProcess } from './helpers/cli-process.js';
import { mintToken } from '@contracts-gitops/sandbox';
import { openSandbox, SECRET, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';
import { contractsCheckout, fqnOf } from './helpers/prune-repository.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const NAMES = ['a', 'b'];
const tableId = (i: number) => `3a000000-0000-4000-8000-00000000000${i + 1}`;

/** A catalog with two tables, no contracts and no custom property: as a new server has. */
const doctorSeed = () =>
  seed({
    users: [
      { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      { name: 'admin', admin: true, permissions: [] },
    ],
    assets: NAMES.map((name, i) => ({
      id: tableId(i),
      entityType: 'table',
      name,
      fullyQualifiedName: `db.s.${name}`,
      columns: [{ name: 'id', dataType: 'BIGINT' }],
    })),
    dataProducts: [],
    dataContracts: [],
  });

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@x',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@x',
    },
  }).toString();

/** A sandbox of `profile` and a committed checkout of two contract files beside it. */
async function checkout(profile: 'spec' | 'openmetadata') {
  const opened = await openSandbox({
    profile,
    seed: doctorSeed(),
    ...(profile === 'openmetadata' ? { openmetadataVersion: '2.0.5' } : {}),
  });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  const cwd = dir.dir;
  await contractsCheckout(cwd, NAMES);
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'contracts');
  const run = async (user: string, ...args: string[]) =>
    cliProcess(args, {
      cwd,
      env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token(user) },
    });
  return { ...opened, cwd, run };
}

/** The methods and paths the sandbox was sent, but its own admin routes. */
const sent = (sandbox: Sandbox) =>
  sandbox
    .requests()
    .filter((record) => !record.path.startsWith('/sandbox/'))
    .map((record) => `${record.method} ${record.path}`);

describe('contracts doctor on OpenMetadata', () => {
  it('tells a read-only token it cannot apply, naming the edit permission, and exits 1', async () => {
    const { sandbox, run } = await checkout('openmetadata');
    const result = await run('bob', 'doctor');
    expect(result.err).toBe('');
    expect(result.code).toBe(1);
    expect(result.out).toContain('✓ plan: the token may view data contracts');
    expect(result.out).toMatch(
      /✗ apply: the token may not edit all of a data contract .*EditAll \(notAllow\)/,
    );
    expect(result.out).toContain('Fix: ask an admin');
    expect(result.out).toContain('plan or apply cannot work');
    // Nothing written: every request a read.
    expect(sent(sandbox).length).toBeGreaterThan(5);
    expect(sent(sandbox).filter((line) => !line.startsWith('GET '))).toEqual([]);
  });

  it('tells an editing token plan and apply work, with the release and the missing managedBy', async () => {
    const { sandbox, run, token } = await checkout('openmetadata');
    const result = await run('alice', 'doctor');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('The catalog is OpenMetadata 2.0.5');
    expect(result.out).toContain('✓ apply: the token may edit all');
    expect(result.out).toContain(
      '! The catalog defines no custom property managedBy on data contracts',
    );
    expect(result.out).toContain("Fix: run `contracts doctor --fix` with an admin's token");
    expect(result.out).toContain('! prune: the token may not delete data contracts');
    expect(result.out).toContain("✓ The catalog serves the server's dry run of a create");
    expect(result.out).toContain('plan and apply can work');
    expect(result.out).not.toContain(await token('alice'));
    expect(sent(sandbox).filter((line) => !line.startsWith('GET '))).toEqual([]);
    // The same as data.
    const json = await run('alice', 'doctor', '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as {
      ok: boolean;
      release: string;
      checks: { id: string; status: string; fix?: string }[];
    };
    expect(report.ok).toBe(true);
    expect(report.release).toBe('2.0.5');
    expect(report.checks.find((check) => check.id === 'customProperty.managedBy')).toMatchObject({
      status: 'warning',
      fix: expect.stringContaining('contracts doctor --fix'),
    });
    expect(report.checks.find((check) => check.id === 'permission.apply')?.status).toBe('ok');
  });

  it('--fix needs an admin; with one it defines managedBy, and the next apply marks the contracts', async () => {
    const { sandbox, run, client } = await checkout('openmetadata');
    const refused = await run('alice', 'doctor', '--fix');
    expect(refused.out).toContain('✗ The catalog refused to define managedBy (403');
    expect(refused.out).toContain('needs Create on types');
    sandbox.clearRequests();
    const fixed = await run('admin', 'doctor', '--fix');
    expect(fixed.err).toBe('');
    expect(fixed.code).toBe(0);
    expect(fixed.out).toMatch(
      /✓ Defined the custom property managedBy \(string\) on data contracts through PUT \/v1\/metadata\/types\/\S+\./,
    );
    expect(fixed.out).toContain(
      '✓ The catalog defines the custom property managedBy on data contracts',
    );
    expect(sent(sandbox).filter((line) => !line.startsWith('GET '))).toEqual([
      expect.stringMatching(/^PUT \/api\/v1\/metadata\/types\/[0-9a-f-]+$/),
    ]);
    const type = await client.get('/v1/metadata/types/name/dataContract?fields=customProperties');
    expect(type.body.customProperties).toEqual([
      expect.objectContaining({
        name: 'managedBy',
        propertyType: expect.objectContaining({ name: 'string', type: 'type' }),
      }),
    ]);
    const applied = await run('alice', 'apply', '--auto-approve');
    expect(applied.code).toBe(0);
    for (const name of NAMES) {
      const live = await client.get(`/v1/dataContracts/name/${fqnOf(name)}?fields=extension`);
      expect(live.body.extension?.managedBy).toMatch(
        new RegExp(
          `^https://github\\.com/acme/contracts/blob/[0-9a-f]{40}/contracts/${name}\\.yaml$`,
        ),
      );
    }
  });
});

describe('contracts doctor and declared versions', () => {
  it('needs contractVersion too where a file declares a version, and --fix defines both', async () => {
    const { sandbox, cwd, run, client } = await checkout('openmetadata');
    await writeFile(
      path.join(cwd, 'contracts', 'a.yaml'),
      stringify({
        name: 'a',
        fullyQualifiedName: fqnOf('a'),
        contractVersion: '1.2.0',
        entity: { type: 'table', fullyQualifiedName: 'db.s.a' },
      }),
    );
    const told = await run('alice', 'doctor');
    expect(told.code).toBe(0);
    expect(told.out).toContain('! The catalog defines no custom property contractVersion');
    const fixed = await run('admin', 'doctor', '--fix');
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('✓ Defined the custom property managedBy');
    expect(fixed.out).toContain('✓ Defined the custom property contractVersion');
    expect(sent(sandbox).filter((line) => line.startsWith('PUT '))).toHaveLength(2);
    const type = await client.get('/v1/metadata/types/name/dataContract?fields=customProperties');
    expect(type.body.customProperties.map((p: { name: string }) => p.name).sort()).toEqual([
      'contractVersion',
      'managedBy',
    ]);
  });
});

describe('contracts doctor where the catalog cannot be used', () => {
  it("gives the /api hint for the catalog's web address, and stops there", async () => {
    const { sandbox, cwd, token } = await checkout('openmetadata');
    const result = await cliProcess(['doctor'], {
      cwd,
      env: { CATALOG_URL: sandbox.root, CATALOG_TOKEN: await token('alice') },
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain(`try --catalog-url ${sandbox.root}/api`);
    expect(result.out).not.toContain('permission');
    expect(sent(sandbox).filter((line) => !line.startsWith('GET '))).toEqual([]);
  });

  it('says an expired token expired, and when, as the catalog refuses it', async () => {
    const { sandbox, cwd } = await checkout('openmetadata');
    const expired = await mintToken('alice', SECRET, Math.floor(Date.now() / 1000) - 60);
    const result = await cliProcess(['doctor', '--json'], {
      cwd,
      env: { CATALOG_URL: sandbox.url, CATALOG_TOKEN: expired },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      ok: boolean;
      checks: { id: string; status: string; message: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ['token', 'error'],
      ['reach', 'error'],
    ]);
    expect(report.checks[0]!.message).toMatch(/^The token is for user alice and expired at /);
    expect(report.checks[1]!.message).toContain('Expired token!');
    expect(result.out).not.toContain(expired);
  });
});

describe('contracts doctor on a catalog of the spec profile', () => {
  it('checks what it can, says what it cannot and how a 403 will show, and writes nothing', async () => {
    const { sandbox, run } = await checkout('spec');
    const result = await run('alice', 'doctor', '--catalog-profile', 'spec');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('planned with the spec profile');
    expect(result.out).toContain('✓ plan: the token may view data contracts');
    expect(result.out).toContain('has no permissions route');
    expect(result.out).toContain('403 FORBIDDEN');
    expect(sent(sandbox).filter((line) => !line.startsWith('GET '))).toEqual([]);
  });
});
