// `contracts restore FQN...` over HTTP against the sandbox, under both profiles: a contract
// `apply --prune` deleted softly (its hint names the command) comes back at a version of its own;
// one managed from another repository, or by none, is refused and nothing is sent, unless
// --force; a name the catalog lacks is an error, one not deleted is said; --json gives the report;
// a catalog that serves no restore (the spec shows none) is a clear error.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forwarder } from './helpers/forwarder.js';
import {
  OTHER,
  REPOSITORY,
  commitAll,
  fqnOf,
  pruneRepository,
} from './helpers/prune-repository.js';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The writes the sandbox was sent. */
const writes = (sandbox: { requests(): { method: string }[] }) =>
  sandbox.requests().filter((request) => request.method !== 'GET').length;

describe('contracts restore', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: brings back a contract prune deleted, at a version of its own, and says its file is gone',
    async (profile) => {
      const { cwd, run, live, head } = await pruneRepository(cleanups, profile);
      expect((await run('apply', '--auto-approve')).code).toBe(0);
      await rm(path.join(cwd, 'contracts', 'b.yaml'));
      commitAll(cwd, 'drop b');
      const pruned = await run('apply', '--prune', '--auto-approve');
      expect(pruned.code, pruned.err).toBe(0);
      // The hint is the command, not a request to send by hand.
      expect(pruned.out).toContain(`restore it with: contracts restore ${fqnOf('b')})`);
      expect(pruned.out).not.toContain('PUT /v1/dataContracts/restore');
      const gone = await live('b', 'deleted');
      expect(gone.deleted).toBe(true);

      const restored = await run('restore', fqnOf('b'));
      expect(restored.err).toBe('');
      expect(restored.code).toBe(0);
      const back = await live('b');
      expect(back).toMatchObject({ id: gone.id, deleted: false });
      expect(back.version).toBe(Math.round((gone.version + 0.1) * 10) / 10);
      expect(restored.out).toContain(
        `+ ${fqnOf('b')}  restored (version ${String(gone.version)} → ${String(back.version)})  (managed by contracts/b.yaml)`,
      );
      // Its file is still gone: the next prune would delete it again, and the line says so.
      expect(restored.out).toContain(
        `its file contracts/b.yaml is not in this checkout: bring it back (git checkout ${head.slice(0, 12)} -- contracts/b.yaml) and commit it, or the next plan --prune deletes the contract again`,
      );
      expect(restored.out).toContain('Restore complete: 1 restored, 0 not deleted.');
      // The marker is kept: the contract is still this repository's.
      expect(back.extension?.managedBy).toBe(`${REPOSITORY}/blob/${head}/contracts/b.yaml`);

      // Restoring it again: not deleted, nothing sent, not an error.
      const again = await run('restore', fqnOf('b'), '--json');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.out)).toEqual({
        results: [
          {
            fullyQualifiedName: fqnOf('b'),
            outcome: 'not-deleted',
            id: gone.id,
            version: back.version,
          },
        ],
      });
    },
  );

  it("refuses another repository's contract and an unmarked one, sending nothing; --force restores them", async () => {
    const { run, live, sandbox, client, token } = await pruneRepository(cleanups, 'openmetadata');
    const softDelete = async (id: string) =>
      (
        await fetch(`${sandbox.url}/v1/dataContracts/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${await token()}` },
        })
      ).status;
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    // d is managed from another repository; e has no marker at all.
    const d = await live('d');
    expect(await softDelete(d.id)).toBe(200);
    const a = await live('a');
    expect(
      (
        await client.patch(`/v1/dataContracts/${a.id}`, [
          { op: 'remove', path: '/extension/managedBy' },
        ])
      ).status,
    ).toBe(200);
    expect(await softDelete(a.id)).toBe(200);
    const before = writes(sandbox);

    const refused = await run('restore', fqnOf('d'), fqnOf('a'));
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toBe(
      `Error: ${fqnOf('d')} is managed from ${OTHER} (contracts/d.yaml), not from this repository (${REPOSITORY}): run restore from the repository that manages it, or add --force; ${fqnOf('a')} carries no marker of this tool (extension.managedBy), so nothing says this repository manages it: run restore from the repository that manages it, or add --force. Nothing was restored.\n`,
    );
    expect(writes(sandbox)).toBe(before);
    expect((await live('d', 'deleted')).deleted).toBe(true);

    const json = await run('restore', fqnOf('d'), '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { type: 'config' } });

    const forced = await run('restore', fqnOf('d'), fqnOf('a'), '--force', '--json');
    expect(forced.code, forced.err).toBe(0);
    const report = JSON.parse(forced.out) as { results: Record<string, unknown>[] };
    expect(report.results.map((result) => result.outcome)).toEqual(['restored', 'restored']);
    expect(report.results[0]).toMatchObject({
      fullyQualifiedName: fqnOf('d'),
      id: d.id,
      file: 'contracts/d.yaml',
    });
    expect((await live('d')).deleted).toBe(false);
    expect((await live('a')).deleted).toBe(false);
  });

  it('a name the catalog lacks is a not-found error, and the other names given are not restored either', async () => {
    const { cwd, run, live, sandbox } = await pruneRepository(cleanups, 'spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    await rm(path.join(cwd, 'contracts', 'c.yaml'));
    commitAll(cwd, 'drop c');
    expect((await run('apply', '--prune', '--auto-approve')).code).toBe(0);
    const before = writes(sandbox);
    const missing = await run('restore', fqnOf('c'), 'db.s.nope.dataContract_nope', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toEqual({
      error: {
        type: 'not-found',
        message:
          'the catalog has no data contract named db.s.nope.dataContract_nope, deleted or not. Nothing was restored.',
      },
    });
    expect(writes(sandbox)).toBe(before);
    expect((await live('c', 'deleted')).deleted).toBe(true);
  });

  it('outside a git checkout, a marked contract is refused, naming why; --force restores it', async () => {
    const { cwd, run, live, env } = await pruneRepository(cleanups, 'spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    await rm(path.join(cwd, 'contracts', 'a.yaml'));
    commitAll(cwd, 'drop a');
    expect((await run('apply', '--prune', '--auto-approve')).code).toBe(0);
    const elsewhere = await tempDir();
    cleanups.push(() => elsewhere.remove());
    const outside = await cli(['restore', fqnOf('a')], { cwd: elsewhere.dir, env });
    expect(outside.code).toBe(1);
    expect(outside.err).toContain(
      `${fqnOf('a')} is managed from ${REPOSITORY} (contracts/a.yaml), and this folder is in no git checkout, so nothing says this is that repository`,
    );
    const forced = await cli(['restore', fqnOf('a'), '--force'], { cwd: elsewhere.dir, env });
    expect(forced.code, forced.err).toBe(0);
    // Outside the checkout nothing tells whether the file is there: nothing is said of it.
    expect(forced.out).not.toContain('not in this checkout');
    expect((await live('a')).deleted).toBe(false);
  });

  it('a catalog that serves no restore (the spec shows none) is a clear error, and a failed restore stops the rest', async () => {
    const { cwd, run, live, env, sandbox } = await pruneRepository(cleanups, 'spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    await rm(path.join(cwd, 'contracts', 'a.yaml'));
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    commitAll(cwd, 'drop a and b');
    expect((await run('apply', '--prune', '--auto-approve')).code).toBe(0);

    const unserved = await forwarder(sandbox.url, (method, url) =>
      method === 'PUT' && url.startsWith('/v1/dataContracts/restore')
        ? { status: 405, body: { code: 405, message: 'HTTP 405 Method Not Allowed' } }
        : undefined,
    );
    cleanups.push(() => unserved.close());
    const refused = await cli(['restore', fqnOf('a')], {
      cwd,
      env: { ...env, CATALOG_URL: unserved.url },
    });
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `Error: ${unserved.url} does not serve PUT /v1/dataContracts/restore, which restores a soft-deleted data contract: OpenMetadata serves it, the spec's interface has no restore. Restore ${fqnOf('a')} in the catalog itself. Nothing was restored.\n`,
    );
    expect((await live('a', 'deleted')).deleted).toBe(true);

    // The second restore refused (403): the first stays restored, the rest is not attempted.
    let sent = 0;
    const forbidding = await forwarder(sandbox.url, (method, url) =>
      method === 'PUT' && url.startsWith('/v1/dataContracts/restore') && ++sent === 2
        ? {
            status: 403,
            body: {
              code: 403,
              errorType: 'FORBIDDEN',
              message: 'Principal: alice operations [EditAll] not allowed',
            },
          }
        : undefined,
    );
    cleanups.push(() => forbidding.close());
    const stopped = await cli(['restore', fqnOf('a'), fqnOf('b'), fqnOf('c')], {
      cwd,
      env: { ...env, CATALOG_URL: forbidding.url },
    });
    expect(stopped.code).toBe(1);
    expect(stopped.out).toContain(`+ ${fqnOf('a')}  restored`);
    expect(stopped.out).toContain(
      `! ${fqnOf('b')}  not restored: PUT /v1/dataContracts/restore failed with status 403 FORBIDDEN`,
    );
    expect(stopped.out).toContain(`  ${fqnOf('c')}  not deleted (version`);
    expect(stopped.out).toContain('Restore stopped: 1 restored, 1 not restored.');
    expect(stopped.err).toContain(`Error: ${fqnOf('b')} was not restored: `);
    expect((await live('a')).deleted).toBe(false);
    expect((await live('b', 'deleted')).deleted).toBe(true);
  });
});
