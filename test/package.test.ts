// Installing the tool where its users work: the packed tarball (the built CLI, the schemas and the
// Action's bundle, nothing built on install and nothing else fetched) in an empty folder, then a
// first contract from nothing: new, plan, apply, and a plan with no changes; an ODCS file validated.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
let packed: TempDir;
let tarball: string;

beforeAll(() => {
  return (async () => {
    packed = await tempDir();
    // The build of `npm test` is what is packed; --ignore-scripts packs it as it is.
    execFileSync(
      'npm',
      ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed.dir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    tarball = path.join(
      packed.dir,
      readdirSync(packed.dir).find((f) => f.endsWith('.tgz'))!,
    );
  })();
}, 120_000);
afterAll(() => packed?.remove());

/** Runs `command` without blocking this process: its exit status and output. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env?: Record<string, string>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, ...(env === undefined ? {} : { env }) },
      (error, stdout, stderr) =>
        resolve({
          status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        }),
    );
  });
}

describe('the packed tarball in an empty folder', () => {
  it('carries no source maps (they tripled its size; stack traces of --debug name bundle lines)', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listed.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(listed).toContain('package/dist/cli.cjs');
  });

  it('installs with nothing to fetch or build, and takes a new user from nothing to a converged contract: new, plan, apply, plan', async () => {
    const opened = await openSandbox({});
    const work = await tempDir();
    try {
      await writeFile(
        path.join(work.dir, 'package.json'),
        JSON.stringify({ name: 'our-contracts', private: true }),
      );
      // --offline: the package must need nothing from the registry.
      const install = await run(
        'npm',
        ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', tarball],
        work.dir,
      );
      expect(install.status, install.stdout + install.stderr).toBe(0);
      for (const shipped of [
        'dist/cli.cjs',
        'schemas/data-contract.schema.json',
        'schemas/odcs/odcs-json-schema-v3.1.0.validator.cjs',
        'action/index.js',
        'docs/commands.md',
      ])
        expect(
          existsSync(path.join(work.dir, 'node_modules', 'contracts-gitops', shipped)),
          shipped,
        ).toBe(true);
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NO_COLOR: '1',
        CATALOG_URL: opened.sandbox.url,
        CATALOG_TOKEN: await opened.token(),
      };
      // Asynchronously: the sandbox answers from this process.
      const npx = (...args: string[]) =>
        run('npx', ['--no-install', 'contracts', ...args], work.dir, env);
      const made = await npx('new', '--entity', 'table:warehouse.sales.public.order_items');
      expect(made.status, made.stdout + made.stderr).toBe(0);
      // The schema comments the docs give resolve here, from a contract file in contracts/ and
      // from .contracts.yaml at the top (editors follow them), as `new` writes its own.
      for (const [page, from] of [
        ['contract-file.md', 'contracts'],
        ['settings.md', '.'],
      ] as const) {
        const text = readFileSync(path.join(root, 'docs', page), 'utf8');
        const target = /\$schema=(\S+)/.exec(text)![1]!;
        expect(existsSync(path.join(work.dir, from, target)), `${page}: ${target}`).toBe(true);
      }
      const written = readdirSync(path.join(work.dir, 'contracts'))[0]!;
      const comment = /\$schema=(\S+)/.exec(
        readFileSync(path.join(work.dir, 'contracts', written), 'utf8'),
      )![1]!;
      expect(existsSync(path.join(work.dir, 'contracts', comment)), comment).toBe(true);
      const plan = await npx('plan');
      expect(plan.status, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
      const apply = await npx('apply', '--auto-approve');
      expect(apply.status, apply.stdout + apply.stderr).toBe(0);
      const again = await npx('plan', '--detailed-exitcode');
      expect(again.status, again.stdout + again.stderr).toBe(0);
      expect(
        opened.sandbox.store.contractByFqn(
          'warehouse.sales.public.order_items.dataContract_order_items',
        ),
      ).toMatchObject({ version: 0.1, entityStatus: 'Draft' });
      // An ODCS document is checked with the validator the package ships beside the schema.
      await cp(
        path.join(root, 'test/fixtures/odcs-3.1.0/table-column.odcs.yaml'),
        path.join(work.dir, 'odcs/table-column.odcs.yaml'),
        { recursive: true },
      );
      const odcs = await npx('validate', 'odcs');
      expect(odcs.status, odcs.stdout + odcs.stderr).toBe(0);
      expect(odcs.stdout).toContain('1 contract file is valid.');
    } finally {
      await opened.sandbox.close();
      await work.remove();
    }
  }, 120_000);
});
