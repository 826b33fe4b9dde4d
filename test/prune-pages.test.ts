// `--prune` lists every contract for its marker; when the plan's reader reads the whole list by
// pages (read/listed-contracts.ts), that walk serves it, and the list is not read again: the same
// deletions, one walk of the list.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FILES_FOR_LIST } from '../src/read/live-reads.js';
import { cli } from './helpers/cli.js';
import { commitAll, contractsCheckout, fqnOf, PRUNER } from './helpers/prune-repository.js';
import { interfacePath, sandboxWithFolder, seed } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const COUNT = FILES_FOR_LIST + 10;
const nameOf = (i: number) => `t${String(i).padStart(3, '0')}`;

describe('--prune on the reader’s walk of the list', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: the deletions planned, and the list read once',
    async (profile) => {
      const names = Array.from({ length: COUNT }, (_, i) => nameOf(i));
      const opened = await sandboxWithFolder(cleanups, {
        profile,
        seed: seed({
          users: [PRUNER],
          assets: names.map((name, i) => ({
            id: `2a000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            entityType: 'table',
            name,
            fullyQualifiedName: `db.s.${name}`,
            columns: [{ name: 'id', dataType: 'BIGINT' }],
          })),
          dataProducts: [],
          dataContracts: [],
          customProperties: [{ name: 'managedBy' }],
        }),
      });
      const { cwd, env, sandbox } = opened;
      await contractsCheckout(cwd, names);
      commitAll(cwd);
      const applied = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(applied.code, applied.err).toBe(0);
      const gone = [nameOf(3), nameOf(50), nameOf(COUNT - 1)];
      for (const name of gone) await rm(path.join(cwd, 'contracts', `${name}.yaml`));
      sandbox.clearRequests();
      const planned = await cli(['plan', '--prune', '--json'], { cwd, env });
      expect(planned.code, planned.err).toBe(0);
      const plan = JSON.parse(planned.out) as {
        changes: { action: string; fullyQualifiedName: string }[];
      };
      expect(
        plan.changes
          .filter((change) => change.action === 'delete')
          .map((change) => change.fullyQualifiedName)
          .sort(),
      ).toEqual(gone.map(fqnOf).sort());
      // One walk of the list, the reader's: no second walk for the markers.
      const lists = sandbox
        .requests()
        .filter((r) => r.method === 'GET' && interfacePath(r.path) === '/v1/dataContracts');
      expect(lists.length).toBe(1);
      expect(lists[0]!.query).toMatch(/fields=owners%2Creviewers%2Cextension/);
    },
  );
});
