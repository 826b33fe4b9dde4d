// `--prune` over HTTP against the sandbox, under both profiles: a repository of three files is
// applied (each contract marked as managed by its file); one file is deleted; plan --prune plans
// its deletion; a saved plan's deletion is refused without --prune at apply time, sent with it (a
// soft delete, restorable); re-planning finds nothing. A contract managed from another repository
// is never deleted; a deletion whose target moved since the plan is stale, and nothing is sent.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli } from './helpers/cli.js';
import { captureIo } from './helpers/capture-io.js';
import { runCli } from '../src/cli/program.js';
import { sandboxWithFolder } from './helpers/sandbox.js';
import {
  OTHER,
  NAMES,
  REPOSITORY,
  commitAll,
  fqnOf,
  git,
  pruneRepository,
  pruneSeed,
} from './helpers/prune-repository.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});
const repository = (profile: 'spec' | 'openmetadata') => pruneRepository(cleanups, profile);

describe('deleting a file deletes its contract (--prune)', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: applied with markers; one file deleted; plan --prune; apply refuses without --prune, deletes softly with it; restorable; re-plan clean',
    async (profile) => {
      const { cwd, run, live, sandbox, head } = await repository(profile);
      const applied = await run('apply', '--auto-approve');
      expect(applied.err).toBe('');
      expect(applied.code).toBe(0);
      for (const name of NAMES)
        expect((await live(name)).extension?.managedBy).toBe(
          `${REPOSITORY}/blob/${head}/contracts/${name}.yaml`,
        );
      expect((await run('plan', '--prune', '--detailed-exitcode')).code).toBe(0);
      // Coverage tells this repository's contracts from another's.
      const coverage = JSON.parse((await run('coverage', '--json')).out);
      const managed = Object.fromEntries(
        coverage.rows.map((row: { table: string; managed: string }) => [row.table, row.managed]),
      );
      expect(managed).toEqual({
        'db.s.a': 'here',
        'db.s.b': 'here',
        'db.s.c': 'here',
        'db.s.d': 'elsewhere',
      });
      expect(coverage.totals).toMatchObject({
        managedHere: 3,
        managedElsewhere: 1,
        managedByNone: 0,
      });
      expect((await run('coverage')).out).toContain(
        `own: ${fqnOf('d')} · managed from ${OTHER} (contracts/d.yaml)`,
      );

      await rm(path.join(cwd, 'contracts', 'b.yaml'));
      const human = await run('plan', '--prune');
      expect(human.code).toBe(0);
      expect(human.out).toContain(`- ${fqnOf('b')}`);
      expect(human.out).toContain('contracts/b.yaml · file gone');
      expect(human.out).toContain('! breaking: the contract is deleted');
      expect(human.out).toContain('Plan: 0 to change, 1 to delete, 2 unchanged, 0 errors.');
      // Never the other repository's contract, whose file would be at contracts/d.yaml here.
      expect(human.out).not.toContain(fqnOf('d'));
      // Without --prune, no deletion is planned.
      expect((await run('plan', '--detailed-exitcode')).code).toBe(0);

      const json = JSON.parse((await run('plan', '--prune', '--json')).out);
      expect(json.summary).toMatchObject({ delete: 1, update: 0, noop: 2 });
      const [deletion] = json.changes.filter((c: { action: string }) => c.action === 'delete');
      expect(deletion).toMatchObject({
        file: 'contracts/b.yaml',
        fullyQualifiedName: fqnOf('b'),
        id: (await live('b')).id,
        patch: [],
      });
      expect(deletion.breaking).toHaveLength(1);
      const markdown = (await run('plan', '--prune', '--format', 'markdown')).out;
      expect(markdown).toContain(`| \`${fqnOf('b')}\` | \`contracts/b.yaml\` | - delete |`);

      expect((await run('plan', '--prune', '--out', 'plan.json')).code).toBe(0);
      const refused = await run('apply', 'plan.json', '--auto-approve');
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('apply deletes only with --prune');
      expect((await live('b')).deleted).not.toBe(true);

      const pruned = await run('apply', 'plan.json', '--auto-approve', '--prune');
      expect(pruned.err).toBe('');
      expect(pruned.code).toBe(0);
      expect(pruned.out).toContain(`- ${fqnOf('b')}  deleted (soft`);
      expect(pruned.out).toContain(`restore it with: contracts restore ${fqnOf('b')})`);
      expect(pruned.out).toContain('Apply complete: 0 changed, 1 deleted, 2 unchanged.');
      const gone = await live('b', 'deleted');
      expect(gone.deleted).toBe(true);
      expect(sandbox.store.contracts.get(gone.id)).toBeDefined();
      expect((await live('d')).deleted).not.toBe(true);

      const again = await run('plan', '--prune', '--detailed-exitcode');
      expect(again.out).toContain('No changes.');
      expect(again.code).toBe(0);

      // Soft: restorable, with the command the hint names.
      const restored = await run('restore', fqnOf('b'));
      expect(restored.code, restored.err).toBe(0);
      expect((await live('b')).deleted).toBe(false);
    },
  );

  it('a saved deletion whose contract moved since the plan deletes nothing and is reported stale; --hard-delete deletes for good', async () => {
    const { cwd, run, live, client, sandbox } = await repository('spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    await rm(path.join(cwd, 'contracts', 'c.yaml'));
    expect((await run('plan', '--prune', '--out', 'plan.json')).code).toBe(0);
    const before = await live('c');
    const moved = await client.patch(`/v1/dataContracts/${before.id}`, [
      { op: 'replace', path: '/description', value: 'changed by someone else' },
    ]);
    expect(moved.status).toBe(200);
    const stale = await run('apply', 'plan.json', '--auto-approve', '--prune');
    expect(stale.code).toBe(1);
    expect(stale.err).toContain('plan is stale');
    expect(stale.err).toContain(fqnOf('c'));
    expect((await live('c')).deleted).not.toBe(true);

    // Planned again, and deleted for good.
    expect((await run('plan', '--prune', '--out', 'plan.json')).code).toBe(0);
    const hard = await run('apply', 'plan.json', '--auto-approve', '--prune', '--hard-delete');
    expect(hard.code).toBe(0);
    expect(hard.out).toContain(`- ${fqnOf('c')}  deleted for good`);
    expect(sandbox.store.contracts.has(before.id)).toBe(false);
  });

  it('at a terminal, the deletions are listed apart and asked for on their own: declined, the rest is applied and the contract stays', async () => {
    const { cwd, env, live } = await repository('spec');
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
    await rm(path.join(cwd, 'contracts', 'a.yaml'));
    // A change beside the deletion.
    await writeFile(
      path.join(cwd, 'contracts', 'b.yaml'),
      stringify({
        name: 'b',
        fullyQualifiedName: fqnOf('b'),
        entity: { type: 'table', fullyQualifiedName: 'db.s.b' },
        description: 'Table b, described again.',
      }),
    );
    const asked: string[] = [];
    const answering = (...answers: string[]) =>
      Object.assign(captureIo(cwd, env), {
        stdinIsTTY: true,
        prompt: (question: string) => {
          asked.push(question);
          return Promise.resolve(answers.shift() ?? '');
        },
      });
    const declined = answering('yes', 'no');
    expect(await runCli(['apply', '--prune'], declined)).toBe(0);
    expect(asked[0]).toContain('Do you want to apply these changes');
    expect(declined.out()).toContain(`The plan deletes 1 contract softly`);
    expect(declined.out()).toContain(`- ${fqnOf('a')}  (contracts/a.yaml)`);
    expect(asked[1]).toContain('Do you want to delete this contract?');
    expect(declined.err()).toContain(`Deletions declined: ${fqnOf('a')} stays in the catalog.`);
    expect(declined.out()).toContain(`unchanged: its deletion was declined`);
    expect((await live('a')).deleted).not.toBe(true);
    expect((await live('b')).version).toBeGreaterThan(0.1);

    // Deletions alone: one question, theirs.
    asked.length = 0;
    const agreed = answering('yes');
    expect(await runCli(['apply', '--prune'], agreed)).toBe(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Do you want to delete this contract?');
    expect(agreed.out()).toContain('Apply complete: 0 changed, 1 deleted, 2 unchanged.');
    expect((await live('a', 'deleted')).deleted).toBe(true);
  });

  it('with --changed-since, a deleted file whose contract another repository manages is named, and its contract kept', async () => {
    const { cwd, run, live } = await repository('spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    // A file for the other repository's contract, committed, then deleted with one of ours.
    await writeFile(
      path.join(cwd, 'contracts', 'd.yaml'),
      stringify({
        name: 'd',
        fullyQualifiedName: fqnOf('d'),
        entity: { type: 'table', fullyQualifiedName: 'db.s.d' },
      }),
    );
    commitAll(cwd, 'base');
    await rm(path.join(cwd, 'contracts', 'd.yaml'));
    await rm(path.join(cwd, 'contracts', 'a.yaml'));
    const plan = await run('plan', '--prune', '--changed-since', 'HEAD');
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toContain(`- ${fqnOf('a')}`);
    expect(plan.out).toContain('Plan: 0 to change, 1 to delete, 0 unchanged, 0 errors.');
    expect(plan.out).toContain(
      `Deleted since HEAD: contracts/d.yaml (contract ${fqnOf('d')}). Its contract is not deleted: --prune deletes only contracts marked as managed from this repository, and ${fqnOf('d')} is managed from ${OTHER} (contracts/d.yaml). It stays in the catalog as it is, managed by no file here.`,
    );
    expect((await run('apply', '--prune', '--changed-since', 'HEAD', '--auto-approve')).code).toBe(
      0,
    );
    expect((await live('a', 'deleted')).deleted).toBe(true);
    expect((await live('d')).deleted).not.toBe(true);
  });

  it('on an OpenMetadata without the managedBy custom property, contracts are applied unmarked and --prune says why it cannot run, sending nothing', async () => {
    const unmarked = { ...pruneSeed(), customProperties: [], dataContracts: [] };
    const opened = await sandboxWithFolder(cleanups, { profile: 'openmetadata', seed: unmarked });
    git(opened.cwd, 'init', '-q', '-b', 'main');
    git(opened.cwd, 'remote', 'add', 'origin', 'https://github.com/acme/contracts');
    await mkdir(path.join(opened.cwd, 'contracts'));
    await writeFile(
      path.join(opened.cwd, 'contracts', 'a.yaml'),
      stringify({
        name: 'a',
        fullyQualifiedName: fqnOf('a'),
        entity: { type: 'table', fullyQualifiedName: 'db.s.a' },
      }),
    );
    const run = (...args: string[]) => cli(args, { cwd: opened.cwd, env: opened.env });
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    const created = opened.sandbox.store.contractByFqn(fqnOf('a'));
    expect(created?.extension ?? {}).toEqual({});
    const before = opened.sandbox.requests().filter((r) => r.method !== 'GET').length;
    const pruned = await run('plan', '--prune');
    expect(pruned.code).toBe(1);
    expect(pruned.err).toContain(
      "--prune cannot tell which contracts this repository manages: the catalog defines no custom property managedBy on data contracts: run `contracts doctor --fix` with an admin's token to define it (a string property, through PUT /v1/metadata/types/{id}); nothing was planned",
    );
    expect(opened.sandbox.requests().filter((r) => r.method !== 'GET').length).toBe(before);
  });
});
