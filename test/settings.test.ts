// The repository's settings file, .contracts.yaml: its problems at their lines (a token in it
// refused), and flag > environment > file > default for what it sets; --fail-on.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { openSandbox, sandboxWithFolder } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A repository (a .git folder) with the example contracts under `sub/contracts`, and a sandbox. */
async function repository(settings: string) {
  const opened = await openSandbox({});
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir({ '.contracts.yaml': settings });
  cleanups.push(() => dir.remove());
  await mkdir(path.join(dir.dir, '.git'));
  await cp(path.join(root, 'contracts'), path.join(dir.dir, 'sub', 'contracts'), {
    recursive: true,
  });
  await mkdir(path.join(dir.dir, 'sub', 'deeper'));
  return { ...opened, dir: dir.dir, token: await opened.token() };
}

describe('.contracts.yaml', () => {
  it("is validated at its lines, by validate and before any command's request; a token, anywhere in it, is refused", async () => {
    const repo = await repository(
      [
        'paths: [sub/contracts]',
        'catalog:',
        '  url: http://127.0.0.1:1',
        '  token: eyJhbGciOi',
        'concurrency: 999',
        'failOn: sometimes',
        'bogus: 1',
        '',
      ].join('\n'),
    );
    const validate = await cli(['validate', '--json'], { cwd: repo.dir });
    expect(validate.code).toBe(1);
    const problems = (
      JSON.parse(validate.out) as {
        problems: { file: string; line: number; column: number; message: string }[];
      }
    ).problems.filter((p) => p.file === '.contracts.yaml');
    expect(problems.map((p) => [p.line, p.column])).toEqual([
      [4, 3],
      [5, 14],
      [6, 9],
      [7, 1],
    ]);
    expect(problems[0]!.message).toContain(
      'a token or secret does not belong in .contracts.yaml, which is committed; set CATALOG_TOKEN',
    );
    expect(validate.out + validate.err).not.toContain('eyJhbGciOi');
    const plan = await cli(['plan'], {
      cwd: repo.dir,
      env: { CATALOG_URL: repo.sandbox.url, CATALOG_TOKEN: repo.token },
    });
    expect(plan.code).toBe(1);
    expect(plan.err).toContain('.contracts.yaml:4:3 token: a token or secret');
    expect(plan.err).toContain('Error: .contracts.yaml has 4 problems (above); fix them first.');
    expect(repo.sandbox.requests()).toEqual([]);
  });

  it('flag > environment > file > default, for the catalog URL, the paths (relative to the file) and fail-on', async () => {
    const repo = await repository(
      'paths: [sub/contracts]\ncatalog:\n  url: PLACEHOLDER\nfailOn: breaking\n',
    );
    await writeFile(
      path.join(repo.dir, '.contracts.yaml'),
      `paths: [sub/contracts]\ncatalog:\n  url: ${repo.sandbox.url}\nfailOn: breaking\n`,
    );
    const cwd = path.join(repo.dir, 'sub', 'deeper');
    const token = { CATALOG_TOKEN: repo.token };
    // The file's URL, its paths (from a folder below it) and its fail-on: the plan has a break.
    const fromFile = await cli(['plan', '--no-color'], { cwd, env: token });
    expect(fromFile.code, fromFile.out + fromFile.err).toBe(1);
    expect(fromFile.out).toContain('sub/contracts/orders.yaml');
    expect(fromFile.err).toContain(
      'Error: the plan has 1 breaking change, and fail-on is breaking.',
    );
    // The environment beats the file; a flag beats the environment.
    const env = await cli(['plan'], { cwd, env: { ...token, CONTRACTS_FAIL_ON: 'never' } });
    expect(env.code).toBe(0);
    const flag = await cli(['plan', '--fail-on', 'change'], {
      cwd,
      env: { ...token, CONTRACTS_FAIL_ON: 'never' },
    });
    expect(flag.code).toBe(1);
    expect(flag.err).toContain('the plan has 4 changes, and fail-on is change');
    const url = await cli(['plan'], { cwd, env: { ...token, CATALOG_URL: 'http://127.0.0.1:1' } });
    expect(url.err).toContain('cannot reach the catalog at http://127.0.0.1:1');
    const urlFlag = await cli(['plan', '--catalog-url', 'http://127.0.0.1:2'], {
      cwd,
      env: { ...token, CATALOG_URL: 'http://127.0.0.1:1' },
    });
    expect(urlFlag.err).toContain('cannot reach the catalog at http://127.0.0.1:2');
    // Paths given on the command line beat the file's.
    const given = await cli(['validate', '../contracts/orders.yaml'], { cwd });
    expect(given.out).toContain('✓ 1 contract file is valid.');
  });

  it('its reader is loaded only when there is a file, and the policy engine only for policies in it', async () => {
    // The built CLI, as a user runs it; Node's own debug output names every module it loads. The
    // reader and the policy engine are files of their own, named after their modules.
    const loaded = async (settings: string | undefined): Promise<string[]> => {
      const dir = await tempDir({
        ...(settings === undefined ? {} : { '.contracts.yaml': settings }),
        'contracts/orders.yaml': await readFile(
          path.join(root, 'contracts', 'orders.yaml'),
          'utf8',
        ),
      });
      cleanups.push(() => dir.remove());
      await mkdir(path.join(dir.dir, '.git'));
      const run = await cliProcess(['validate'], { cwd: dir.dir, env: { NODE_DEBUG: 'module' } });
      expect(run.out).toContain('✓ 1 contract file is valid.');
      return [...new Set(run.err.match(/\b(settings-file|policies)\.cjs\b/g) ?? [])]
        .map((file) => (file === 'policies.cjs' ? 'policies' : 'settings'))
        .sort();
    };
    expect(await loaded(undefined)).toEqual([]);
    expect(await loaded('failOn: never\n')).toEqual(['settings']);
    expect(await loaded('policies:\n  - use: owner-required\n')).toEqual(['policies', 'settings']);
  });

  it('without a file, the defaults: contracts/ and never failing on what the plan finds', async () => {
    const { cwd, env } = await sandboxWithFolder(cleanups);
    await cp(path.join(root, 'contracts'), path.join(cwd, 'contracts'), { recursive: true });
    expect((await cli(['plan'], { cwd: cwd, env })).code).toBe(0);
    const bad = await cli(['plan', '--fail-on', 'sometimes'], { cwd: cwd, env });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(
      "--fail-on must be never, breaking, breaking-with-consumers or change, got 'sometimes'",
    );
  });
});
