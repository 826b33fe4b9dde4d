// A checkout of three contract files against a sandbox that holds a fourth contract managed from
// another repository: what the tests of `--prune` start from (prune.test.ts, prune-attacks.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { cli } from './cli.js';
import { sandboxWithFolder, seed } from './sandbox.js';

export const REPOSITORY = 'https://github.com/acme/contracts';
export const OTHER = 'https://github.com/acme/elsewhere';
export const NAMES = ['a', 'b', 'c'];
export const tableId = (i: number) => `2a000000-0000-4000-8000-00000000000${i + 1}`;
export const fqnOf = (name: string) => `db.s.${name}.dataContract_${name}`;

/** A user who may view, edit, delete and search: what apply with `--prune` needs. */
export const PRUNER = {
  name: 'alice',
  permissions: ['ViewDataContract', 'EditDataContract', 'DeleteDataContract', 'SearchEntities'],
};

/**
 * A git checkout at `cwd` (branch main, origin acme/contracts on GitHub) with one contract file
 * for each name, contracts/<name>.yaml, on table db.s.<name>; nothing committed.
 */
export async function contractsCheckout(
  cwd: string,
  names: readonly string[],
  description: (name: string, i: number) => string = (name) => `Table ${name}.`,
): Promise<void> {
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'remote', 'add', 'origin', `git@github.com:acme/contracts.git`);
  await mkdir(path.join(cwd, 'contracts'));
  for (const [i, name] of names.entries())
    await writeFile(
      path.join(cwd, 'contracts', `${name}.yaml`),
      stringify({
        name,
        fullyQualifiedName: fqnOf(name),
        entity: { type: 'table', fullyQualifiedName: `db.s.${name}` },
        description: description(name, i),
      }),
    );
}

export function pruneSeed() {
  return seed({
    users: [PRUNER],
    assets: [...NAMES, 'd'].map((name, i) => ({
      id: tableId(i),
      entityType: 'table',
      name,
      fullyQualifiedName: `db.s.${name}`,
      columns: [{ name: 'id', dataType: 'BIGINT' }],
    })),
    dataProducts: [],
    // Table d's contract is managed from another repository, by a file of the same path.
    dataContracts: [
      {
        id: '2c000000-0000-4000-8000-000000000004',
        name: 'd',
        fullyQualifiedName: fqnOf('d'),
        entity: { id: tableId(3), type: 'table', name: 'd', fullyQualifiedName: 'db.s.d' },
        description: 'kept by another team',
        extension: { managedBy: `${OTHER}/blob/HEAD/contracts/d.yaml` },
        version: 0.1,
      },
    ],
    customProperties: [{ name: 'managedBy' }],
  });
}

export const COMMITTER = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@x',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@x',
};
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...COMMITTER },
  }).toString();
/** Commits everything in the checkout at `cwd`; its new HEAD. */
export const commitAll = (cwd: string, message = 'contracts') => {
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '--allow-empty', '-m', message);
  return git(cwd, 'rev-parse', 'HEAD').trim();
};

export async function pruneRepository(
  cleanups: (() => Promise<unknown>)[],
  profile: 'spec' | 'openmetadata',
) {
  const opened = await sandboxWithFolder(cleanups, { profile, seed: pruneSeed() });
  const { cwd } = opened;
  await contractsCheckout(cwd, NAMES, (name, i) => `Table ${name}, contract ${i + 1}.`);
  // The commit whose apply marks the contracts: a deletion is proven by it.
  const head = commitAll(cwd);
  const run = (...args: string[]) => cli(args, { cwd, env: opened.env });
  const live = async (name: string, include = 'non-deleted') =>
    (
      await opened.client.get(
        `/v1/dataContracts/name/${fqnOf(name)}?fields=extension&include=${include}`,
      )
    ).body as {
      id: string;
      version: number;
      deleted?: boolean;
      extension?: { managedBy?: string };
    };
  return { ...opened, run, live, head };
}
