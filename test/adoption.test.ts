// Adopting an existing catalog in a repository with an origin (every Actions run), through the
// built CLI against a real sandbox: import plans back to no changes, the marker rides along with
// the first real change, and prune keeps an adopted contract that carries no marker yet.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
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

async function adopted(origin = 'git@github.com:acme/contracts.git') {
  const opened = await openSandbox({});
  cleanups.push(() => opened.sandbox.close());
  const token = await opened.token('alice');
  const dir = await tempDir({});
  cleanups.push(() => dir.remove());
  const cwd = dir.dir;
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'remote', 'add', 'origin', origin);
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
