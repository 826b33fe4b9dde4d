// A plain `contracts plan` (no --prune, no --changed-since) over HTTP against the sandbox, under
// both profiles: the contracts this repository manages whose files are gone are named, pointing
// to --prune, in every format, and nothing is said when there are none. Another repository's
// contract, a contract whose file moved, and one whose file lies outside the paths planned are
// never named. The exit code is as before. The catalog's whole list is never read: git says which
// files were deleted, and only their contracts are read.
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { interfacePath } from './helpers/sandbox.js';
import { commitAll, fqnOf, pruneRepository } from './helpers/prune-repository.js';
import { tempDir } from './helpers/temp-dir.js';
import { cp } from 'node:fs/promises';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const NAMED = (fqn: string, file: string) =>
  `Managed from this repository, but its file is gone: ${fqn} (${file}). It stays in the catalog as it is: plan with --prune to delete it (or to see why --prune keeps it), or bring its file back.`;

describe('a plain plan names the orphans', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: a managed file deleted: its contract named, with --prune; not another repository’s; exit code unchanged',
    async (profile) => {
      const { cwd, run, sandbox } = await pruneRepository(cleanups, profile);
      expect((await run('apply', '--auto-approve')).code).toBe(0);
      // Every file there: nothing said.
      const clean = await run('plan');
      expect(clean.code).toBe(0);
      expect(clean.out).not.toContain('Managed from this repository');

      await rm(path.join(cwd, 'contracts', 'b.yaml'));
      const before = sandbox.requests().length;
      const plain = await run('plan', '--detailed-exitcode');
      expect(plain.err).toBe('');
      expect(plain.code).toBe(0);
      expect(plain.out).toContain('No changes.');
      expect(plain.out).toContain(NAMED(fqnOf('b'), 'contracts/b.yaml'));
      // The other repository's contract, whose file would be contracts/d.yaml here, is not ours.
      expect(plain.out).not.toContain(fqnOf('d'));
      // Not from the catalog's whole list: git names the file deleted, and its contract is read
      // by name.
      const sent = sandbox
        .requests()
        .slice(before)
        .map((request) => interfacePath(request.path));
      expect(sent).not.toContain('/v1/dataContracts');
      expect(sent.filter((p) => p === `/v1/dataContracts/name/${fqnOf('b')}`)).toHaveLength(1);

      // JSON stays the plan alone on stdout; the note goes to stderr.
      const json = await run('plan', '--json');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.out).summary).toMatchObject({ noop: 2 });
      expect(json.err).toBe(`Note: ${NAMED(fqnOf('b'), 'contracts/b.yaml')}\n`);
      const markdown = await run('plan', '--markdown');
      expect(markdown.out).toContain(
        `⚠️ Managed from this repository, but its file is gone: \`${fqnOf('b')}\` (\`contracts/b.yaml\`).`,
      );

      // Committed, the deletion is still told, from the history.
      commitAll(cwd, 'drop b');
      expect((await run('plan')).out).toContain(NAMED(fqnOf('b'), 'contracts/b.yaml'));

      // --prune plans the deletion instead, and says no more of it.
      const pruning = await run('plan', '--prune');
      expect(pruning.out).toContain(`- ${fqnOf('b')}`);
      expect(pruning.out).not.toContain('Managed from this repository');
      // --changed-since says it its own way (the files deleted since the ref).
      const since = await run('plan', '--changed-since', 'HEAD~1');
      expect(since.out).not.toContain('Managed from this repository');
      expect(since.out).toContain('Deleted since HEAD~1: contracts/b.yaml');
    },
  );

  it('a file moved keeps its contract; a file outside the paths planned is not looked for; two are named together', async () => {
    const { cwd, run } = await pruneRepository(cleanups, 'spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    await mkdir(path.join(cwd, 'contracts', 'moved'));
    await rename(
      path.join(cwd, 'contracts', 'a.yaml'),
      path.join(cwd, 'contracts', 'moved', 'a2.yaml'),
    );
    // Moved outside the folder planned: still named by a file of the checkout.
    await mkdir(path.join(cwd, 'elsewhere'));
    await rename(path.join(cwd, 'contracts', 'c.yaml'), path.join(cwd, 'elsewhere', 'c.yaml'));
    const moved = await run('plan', 'contracts');
    expect(moved.code, moved.err).toBe(0);
    expect(moved.out).not.toContain('Managed from this repository');

    await rm(path.join(cwd, 'elsewhere', 'c.yaml'));
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    const two = await run('plan');
    expect(two.out).toContain(
      `Managed from this repository, but their files are gone: ${fqnOf('b')} (contracts/b.yaml), ${fqnOf('c')} (contracts/c.yaml). They stay in the catalog as they are: plan with --prune to delete them (or to see why --prune keeps any), or bring their files back.`,
    );
    // Planning one folder: only the files under it are looked for.
    const narrow = await run('plan', 'contracts/moved');
    expect(narrow.code, narrow.err).toBe(0);
    expect(narrow.out).not.toContain('Managed from this repository');
  });

  it('outside a git checkout nothing tells which contracts are this repository’s: nothing is said, no list read', async () => {
    const { cwd, run, sandbox, env } = await pruneRepository(cleanups, 'spec');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    const outside = await tempDir();
    cleanups.push(() => outside.remove());
    await cp(path.join(cwd, 'contracts', 'a.yaml'), path.join(outside.dir, 'a.yaml'));
    const before = sandbox.requests().length;
    const plain = await cli(['plan', 'a.yaml'], { cwd: outside.dir, env });
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).not.toContain('Managed from this repository');
    expect(
      sandbox
        .requests()
        .slice(before)
        .some((request) => interfacePath(request.path) === '/v1/dataContracts'),
    ).toBe(false);
  });
});
