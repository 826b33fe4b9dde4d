// Adopting an existing catalog in a repository with an origin (every Actions run), through the
// built CLI against a real sandbox: import plans back to no changes, the marker rides along with
// the first real change, and prune keeps an adopted contract that carries no marker yet.
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import type { CatalogReader } from '../src/catalog/catalog-reader.js';
import { markingFor } from '../src/read/marker.js';
import { cliProcess } from './helpers/cli-process.js';
import { COMMITTER, commitAll, git } from './helpers/prune-repository.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'warehouse.sales.public.orders.dataContract_orders';
const FILE = `contracts/${FQN}.yaml`;

/** A sandbox, and a folder that imported its orders contract: a checkout with `origin` (none: no checkout). */
async function adopted(origin: string | null = 'git@github.com:acme/contracts.git') {
  const opened = await openSandbox({});
  cleanups.push(() => opened.sandbox.close());
  const token = await opened.token('alice');
  const dir = await tempDir({});
  cleanups.push(() => dir.remove());
  const cwd = dir.dir;
  if (origin !== null) {
    git(cwd, 'init', '-q', '-b', 'main');
    git(cwd, 'remote', 'add', 'origin', origin);
  }
  const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: token, ...COMMITTER };
  const run = (...args: string[]) => cliProcess(args, { cwd, env });
  const live = async () => {
    const client = new CatalogClient({ baseUrl: opened.sandbox.url, token });
    try {
      return await client.getContractByName(FQN, ['extension']);
    } finally {
      await client.close();
    }
  };
  return { cwd, env, run, live };
}

describe('adopting a catalog in a repository with an origin', () => {
  it('import plans back to no changes; the marker comes with the first real change', async () => {
    const { cwd, run, live } = await adopted();
    const imported = await run('import', '--fqn', FQN);
    expect(imported.code, imported.err).toBe(0);
    const adoption = commitAll(cwd, 'adopt');

    const plan = await run('plan', '--detailed-exitcode');
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain('No changes.');
    expect(plan.out).not.toContain('managedBy');
    const drift = await run('drift');
    expect(drift.code, drift.out + drift.err).toBe(0);
    // Nothing was written: the contract still carries no marker.
    expect((await live()).extension).toBeUndefined();

    // Its file deleted (a pull request's change): prune keeps it, and says why.
    await rm(path.join(cwd, FILE));
    commitAll(cwd, 'drop orders');
    const pruned = await run('plan', '--prune', '--changed-since', adoption, '--detailed-exitcode');
    expect(pruned.code, pruned.out + pruned.err).toBe(0);
    expect(pruned.out + pruned.err).toContain(
      `${FQN} is kept: it carries no marker of this tool (one is written with the first change applied to it`,
    );
    git(cwd, 'checkout', '-q', adoption, '--', 'contracts');

    // The first real change carries the marker, at the commit that applies it.
    const text = await readFile(path.join(cwd, FILE), 'utf8');
    await writeFile(
      path.join(cwd, FILE),
      text.replace(/^description: .*$/m, 'description: Orders.'),
    );
    const head = commitAll(cwd, 'describe orders');
    const changed = await run('plan', '--detailed-exitcode');
    expect(changed.code, changed.out + changed.err).toBe(2);
    expect(changed.out).toContain('~ description:');
    expect(changed.out).toContain(
      `+ managedBy: "https://github.com/acme/contracts/blob/${head}/${FILE}"`,
    );
    const applied = await run('apply', '--auto-approve');
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect((await live()).extension).toEqual({
      managedBy: `https://github.com/acme/contracts/blob/${head}/${FILE}`,
    });
    const after = await run('plan', '--detailed-exitcode');
    expect(after.code, after.out + after.err).toBe(0);
  }, 60_000);
});

/** `file` with its description changed: a real change to plan. */
async function describe2(cwd: string, file: string): Promise<void> {
  const text = await readFile(path.join(cwd, file), 'utf8');
  await writeFile(
    path.join(cwd, file),
    text.replace(/^description: .*$/m, 'description: Changed.'),
  );
}

describe('which files mark their contracts', () => {
  const NOTE =
    'no marker (extension.managedBy) is written, so --prune will not delete this contract: ';

  it.each([
    ['a folder in no git checkout', null, 'this folder is in no git checkout'],
    [
      'a checkout whose origin is a local path',
      '../elsewhere/contracts.git',
      "the git checkout's origin remote is not a forge's address (https://host/owner/repo, git@host:owner/repo or ssh://host/owner/repo)",
    ],
    [
      'a checkout whose origin is a file: URL',
      'file:///srv/git/contracts.git',
      "the git checkout's origin remote is not a forge's address",
    ],
  ])(
    '%s: no marker, and one note saying why',
    async (_, origin, why) => {
      const { cwd, run, live } = await adopted(origin);
      expect((await run('import', '--fqn', FQN)).code).toBe(0);
      await describe2(cwd, FILE);
      const plan = await run('plan', '--json');
      expect(plan.code, plan.err).toBe(0);
      const [change] = (
        JSON.parse(plan.out) as {
          changes: { action: string; notes: string[]; patch: { path: string }[] }[];
        }
      ).changes;
      expect(change!.action).toBe('update');
      expect(change!.patch.map((op) => op.path)).not.toContain('/extension');
      expect(change!.notes.filter((note) => note.startsWith(NOTE))).toEqual([
        expect.stringContaining(`${NOTE}${why}`),
      ]);
      const human = await run('plan');
      expect(human.out).not.toContain('+ managedBy');
      expect(human.out.split(NOTE)).toHaveLength(2);
      expect((await run('apply', '--auto-approve')).code).toBe(0);
      expect((await live()).extension).toBeUndefined();
      // The remote is never echoed.
      if (origin !== null) expect(plan.out + plan.err).not.toContain(origin);
    },
    60_000,
  );

  it('a file in another checkout inside this one (a clone, a submodule): no marker, and why', async () => {
    const { cwd, run } = await adopted();
    const inner = path.join(cwd, 'vendor', 'other');
    await mkdir(inner, { recursive: true });
    git(inner, 'init', '-q', '-b', 'main');
    git(inner, 'remote', 'add', 'origin', 'https://github.com/acme/other.git');
    expect((await run('import', '--fqn', FQN, '--out', 'vendor/other/contracts')).code).toBe(0);
    await describe2(cwd, `vendor/other/${FILE}`);
    const plan = await run('plan', 'vendor/other/contracts', '--json');
    expect(plan.code, plan.err).toBe(0);
    const [change] = (
      JSON.parse(plan.out) as { changes: { notes: string[]; patch: { path: string }[] }[] }
    ).changes;
    expect(change!.patch.map((op) => op.path)).not.toContain('/extension');
    expect(change!.notes).toContain(
      `${NOTE}it is in another git checkout (vendor/other) inside this one, whose repository is not this checkout's`,
    );
  }, 60_000);

  it('a file outside the checkout never makes a marker with `..` in it', async () => {
    const dir = await tempDir({});
    cleanups.push(() => dir.remove());
    const top = await realpath(dir.dir);
    const marking = markingFor(
      { url: 'https://github.com/acme/contracts', top: path.join(top, 'repo') },
      path.join(top, 'repo'),
      'spec',
      {} as CatalogReader,
    );
    expect(await marking.markerOf('../play/contracts/payments.yaml', { kind: 'missing' })).toEqual({
      unmarked: `it is outside the git checkout (${path.join(top, 'repo')})`,
    });
    expect(await marking.markerOf('contracts/payments.yaml', { kind: 'missing' })).toBe(
      'https://github.com/acme/contracts/blob/HEAD/contracts/payments.yaml',
    );
    const none = markingFor({ none: 'why' }, top, 'spec', {} as CatalogReader);
    expect(await none.markerOf('contracts/payments.yaml', { kind: 'missing' })).toEqual({
      unmarked: 'why',
    });
  });
});
