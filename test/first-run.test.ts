// The rough edges a new user meets first: each a clear sentence and the right exit code, never an
// internal error, a hang, "no changes" for a wrong folder, or a hint that cannot work.
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { sandboxWithFolder } from './helpers/sandbox.js';
import { spawnSandboxProcess } from './helpers/sandbox-process.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function demo() {
  return sandboxWithFolder(cleanups);
}

describe('a folder without contract files', () => {
  it('plan, drift and apply exit 1 saying so, as validate does; nothing is sent', async () => {
    const { sandbox, cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'));
    await writeFile(path.join(cwd, 'contracts', 'README.md'), 'no contracts here');
    for (const args of [['plan'], ['drift'], ['apply', '--auto-approve'], ['plan', 'typo']]) {
      const run = await cli(args, { cwd, env });
      expect(run.code, `${args.join(' ')}: ${run.out}${run.err}`).toBe(1);
      expect(run.err + run.out).toMatch(
        /no contract files in contracts|typo: no such file or directory/,
      );
    }
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('apply of a saved plan', () => {
  it('with errors and no changes: refused, exit 1, never "Nothing to apply"', async () => {
    const { cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'));
    await writeFile(
      path.join(cwd, 'contracts', 'ghost.yaml'),
      'name: ghost\nfullyQualifiedName: warehouse.sales.public.ghost.dataContract_ghost\nentity: {type: table, fullyQualifiedName: warehouse.sales.public.ghost}\n',
    );
    const plan = await cli(['plan', '--out', 'plan.json'], { cwd, env });
    expect(plan.code).toBe(1);
    const apply = await cli(['apply', 'plan.json'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(1);
    expect(apply.err).toContain('the plan has 1 contract that cannot be applied');
    expect(apply.out).not.toContain('Nothing to apply');
  });

  it('given with contract paths: refused, never read as a contract file', async () => {
    const { cwd, env } = await demo();
    await writeFile(path.join(cwd, 'plan.json'), '{}');
    await mkdir(path.join(cwd, 'contracts'));
    const run = await cli(['apply', 'plan.json', 'contracts'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain('apply takes a saved plan alone, or contract files and folders');
    expect(run.out + run.err).not.toContain('unknown key');
  });
});

describe('import --out', () => {
  it('a file, a contract file name and a place no folder can be made: one sentence each, nothing written, no hang', async () => {
    const { cwd, env } = await demo();
    await writeFile(path.join(cwd, 'package.json'), '{}');
    const fqn = 'warehouse.sales.public.orders.dataContract_orders';
    const cases: [string, string][] = [
      ['package.json', '--out package.json is a file, not a folder'],
      ['customers.yaml', '--out takes a folder to write contract files into'],
      ['/proc/contracts-gitops-test', 'the folder cannot be made'],
    ];
    for (const [out, said] of cases) {
      const run = await cliProcess(['import', '--fqn', fqn, '--out', out], { cwd, env });
      expect(run.code, out).toBe(1);
      expect(run.err).toContain(said);
      expect(run.err).not.toMatch(/internal error/i);
    }
  }, 30_000);
});

describe('sandbox serve', () => {
  it('a folder or a missing folder for --data, an address not of this machine: one sentence each, never an internal error', async () => {
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    const cases: [string[], string][] = [
      [['--data', dir.dir], 'is a folder; name a file in it'],
      [['--data', path.join(dir.dir, 'nope', 'x.json')], 'its folder does not exist'],
      [['--host', '999.1.1.1'], 'is not an address of this machine'],
    ];
    for (const [args, said] of cases) {
      const run = await cliProcess(['sandbox', 'serve', '--port', '0', ...args], { cwd: dir.dir });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.err).toContain(said);
      expect(run.err).not.toMatch(/internal error/i);
    }
  }, 30_000);

  it('with --secret, its hint names the secret to mint a token with, never the secret itself', async () => {
    const sandbox = spawnSandboxProcess(['--secret', 'hush-hush-secret']);
    cleanups.push(() => sandbox.stop());
    await sandbox.url;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sandbox.stderr()).toContain(
      'mint a token with: contracts sandbox token --user alice --secret <the same --secret>',
    );
    expect(sandbox.stderr()).not.toContain('hush-hush-secret');
  });
});

describe('coverage --database', () => {
  it('a database the catalog lists no table in is an error saying so, never 0% of nothing', async () => {
    const { cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'));
    const run = await cli(['coverage', '--database', 'warehouse.typo'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain('the catalog lists no table in database warehouse.typo');
    const good = await cli(['coverage', '--database', 'warehouse.sales'], { cwd, env });
    expect(good.code, good.err).toBe(0);
  });
});

describe('a line indented out of step, and a key given twice', () => {
  it('is one plain sentence at the line that is out of step, naming both indentations', async () => {
    const dir = await tempDir({
      'contracts/a.yaml':
        'name: orders\nfullyQualifiedName: w.s.p.orders.dataContract_orders\nentity:\n  type: table\n   fullyQualifiedName: w.s.p.orders\n',
      'contracts/b.yaml': 'name: b\nentity:\n  type: table\n fullyQualifiedName: w.s.p.b\n',
      'contracts/c.yaml':
        'name: c\nname: d\nfullyQualifiedName: w.s.p.c.dataContract_c\nentity: {type: table, fullyQualifiedName: w.s.p.c}\n',
    });
    cleanups.push(() => dir.remove());
    const run = await cli(['validate'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    const tail =
      'keys of one mapping start at the same column, and a mapping as a value starts on the line after its key (the syntax errors after it follow from it, and are not listed)';
    expect(run.out).toBe(
      [
        `contracts/a.yaml:5:4 this line is indented by 3 spaces where the line 4 above it is indented by 2 spaces: ${tail}`,
        `contracts/b.yaml:4:2 this line is indented by 1 space where the line 3 above it is indented by 2 spaces: ${tail}`,
        'contracts/c.yaml:2:1 duplicate key: this key is first on line 1, and each key may appear once in a mapping; keep one of them',
        '✗ 3 problems in 3 of 3 files.',
        '',
      ].join('\n'),
    );
  });
});

describe('a tab in the indentation', () => {
  it('is one problem at its line that says what to do, not one for every line after it', async () => {
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    const lines = [
      'name: orders',
      'fullyQualifiedName: warehouse.sales.public.orders.dataContract_orders',
      'entity: {type: table, fullyQualifiedName: warehouse.sales.public.orders}',
      'schema:',
      '\t- name: order_id',
      '    dataType: BIGINT',
      ...Array.from({ length: 20 }, (_, i) => `  - name: c${i}\n    dataType: INT`),
    ];
    await mkdir(path.join(dir.dir, 'contracts'));
    await writeFile(path.join(dir.dir, 'contracts', 'orders.yaml'), `${lines.join('\n')}\n`);
    const run = await cli(['validate'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    expect(run.out).toBe(
      'contracts/orders.yaml:5:1 a tab in the indentation: YAML indents with spaces only, so replace it with spaces (the syntax errors after it follow from it, and are not listed)\n✗ 1 problem in 1 of 1 file.\n',
    );
  });
});

describe('the small things a new user trips on', () => {
  it("a Terraform habit's single dash: one error in the tool's error style, naming the two-dash option", async () => {
    const { cwd, env } = await demo();
    const run = await cli(['apply', '-auto-approve'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^Error: unknown option '-auto-approve'\n/);
    expect(run.err).toContain('Options take two dashes here: --auto-approve');
    const typo = await cli(['plan', '--bogus'], { cwd, env });
    expect(typo.err).toMatch(/^Error: unknown option '--bogus'/);
    const valued = await cli(['plan', '-out=plan.json'], { cwd, env });
    expect(valued.err).toContain('Options take two dashes here: --out=plan.json');
  });

  it('the flags the docs list are taken: drift --prune, coverage and show --format', async () => {
    const { cwd, env } = await demo();
    await cp(path.resolve(import.meta.dirname, '..', 'contracts'), path.join(cwd, 'contracts'), {
      recursive: true,
    });
    const drift = await cli(['drift', '--prune'], { cwd, env });
    expect(drift.err).not.toContain('unknown option');
    const coverage = await cli(['coverage', '--format', 'json'], { cwd, env });
    expect(coverage.code, coverage.err).toBe(0);
    expect(JSON.parse(coverage.out).totals.tables).toBeGreaterThan(0);
    const saved = await cli(['plan', '--out', 'plan.json'], { cwd, env });
    expect(saved.code, saved.err).toBe(0);
    const show = await cli(['show', 'plan.json', '--format', 'markdown'], { cwd, env });
    expect(show.code, show.err).toBe(0);
    expect(show.out).toMatch(/^#/);
    const wrong = await cli(['show', 'plan.json', '--format', 'sarif'], { cwd, env });
    expect(wrong.err).toContain("--format must be human, json or markdown, got 'sarif'");
  });

  it('a token for a user the sandbox does not know: a warning, or with --seed an error', async () => {
    const { cwd } = await demo();
    const unknown = await cli(['sandbox', 'token', '--user', 'nobody'], { cwd });
    expect(unknown.code).toBe(0);
    expect(unknown.err).toContain(
      'warning: nobody is not a user of the built-in demo catalog (alice, ci-bot, maria.garcia, bob, carol, admin)',
    );
    expect((await cli(['sandbox', 'token', '--user', 'bob'], { cwd })).err).toBe('');
    await writeFile(
      path.join(cwd, 'seed.json'),
      JSON.stringify({ users: [{ name: 'dana', permissions: [] }], assets: [], dataContracts: [] }),
    );
    const seeded = await cli(['sandbox', 'token', '--user', 'alice', '--seed', 'seed.json'], {
      cwd,
    });
    expect(seeded.code).toBe(1);
    expect(seeded.err).toContain('--user alice is not a user of seed.json (dana)');
    expect(seeded.out).toBe('');
    const known = await cli(['sandbox', 'token', '--user', 'dana', '--seed', 'seed.json'], { cwd });
    expect(known.code, known.err).toBe(0);
  });

  it('a catalog URL without its scheme is echoed whole, with the one it likely means', async () => {
    const { cwd, env } = await demo();
    const run = await cli(['plan'], { cwd, env: { ...env, CATALOG_URL: 'localhost:8600' } });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      "the catalog URL 'localhost:8600' has no http:// or https:// in front; give a base URL such as http://localhost:8600",
    );
  });

  it('run from inside the contracts folder, the missing default path says where to run from', async () => {
    const { cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'), { recursive: true });
    const run = await cli(['validate'], { cwd: path.join(cwd, 'contracts'), env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'contracts: no such file or directory here, and this folder is itself named contracts: run from the folder above it',
    );
  });

  it('drift reads as drift, never as what a command "will" do, and takes --detailed-exitcode as plan does', async () => {
    const { cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'));
    await writeFile(
      path.join(cwd, 'contracts', 'orders.yaml'),
      [
        'name: orders',
        'fullyQualifiedName: warehouse.sales.public.orders.dataContract_orders',
        'entity: { type: table, fullyQualifiedName: warehouse.sales.public.orders }',
        'entityStatus: Active',
        '',
      ].join('\n'),
    );
    const drift = await cli(['drift', '--detailed-exitcode', '--no-color'], { cwd, env });
    expect(drift.code, drift.err).toBe(2);
    expect(drift.out).toMatch(
      /^Drift: 1 data contract in http:\/\/127\.0\.0\.1:\d+ differs from the files \(apply would change it\):/,
    );
    expect(drift.out).not.toContain('will change');
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
    const none = await cli(['drift', '--no-color'], { cwd, env });
    expect(none.code).toBe(0);
    expect(none.out).toMatch(/^No drift\. The data contracts in \S+ match the files\./);
  });

  it('--json asked for: an error is JSON on stdout too (an unreachable catalog, an empty folder, a database typo), never an empty stdout', async () => {
    const { cwd, env } = await demo();
    await mkdir(path.join(cwd, 'contracts'));
    const runs = [
      await cli(['plan', '--json', 'contracts', 'missing'], { cwd, env }),
      await cli(['plan', '--format', 'json'], { cwd, env }),
      await cli(['plan', '--json'], {
        cwd,
        env: { ...env, CATALOG_URL: 'http://127.0.0.1:1' },
      }),
      await cli(['coverage', '--json', '--database', 'warehouse.typo'], { cwd, env }),
    ];
    const types: string[] = [];
    for (const run of runs) {
      expect(run.code, run.err).toBe(1);
      const answer = JSON.parse(run.out) as { error: { type: string; message: string } };
      expect(run.err).toBe(`Error: ${answer.error.message}\n`);
      types.push(answer.error.type);
    }
    // A catalog that is down is `network`, for scripts to branch on; the rest the user's to fix.
    expect(types).toEqual(['config', 'config', 'network', 'config']);
    expect(runs[2]!.out).toContain('cannot reach the catalog at http://127.0.0.1:1');
  });

  it('--json: a token the catalog refuses (401) is an `auth` error, a catalog that is down a `network` one', async () => {
    const { cwd, env } = await demo();
    const fqn = 'warehouse.sales.public.orders.dataContract_orders';
    expect((await cli(['import', '--fqn', fqn], { cwd, env })).code).toBe(0);
    const refused = await cli(['plan', '--json'], {
      cwd,
      env: { ...env, CATALOG_TOKEN: 'not-a-token' },
    });
    expect(refused.code, refused.err).toBe(1);
    const auth = JSON.parse(refused.out) as { error: { type: string; message: string } };
    expect(auth.error.type).toBe('auth');
    expect(auth.error.message).toContain('refused the token (401');
    expect(auth.error.message).not.toContain('not-a-token');
    expect(refused.err).toBe(`Error: ${auth.error.message}\n`);
    // A closed port: nothing listens there once the server that held it has closed.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const down = await cli(['plan', '--json'], {
      cwd,
      env: { ...env, CATALOG_URL: `http://127.0.0.1:${closed}` },
    });
    expect(down.code, down.err).toBe(1);
    const network = JSON.parse(down.out) as { error: { type: string; message: string } };
    expect(network.error.type).toBe('network');
    expect(network.error.message).toContain(
      `cannot reach the catalog at http://127.0.0.1:${closed}`,
    );
  });

  it('import of a contract the catalog lacks, and show of a plan file that is not there: one sentence saying what to do', async () => {
    const { cwd, env } = await demo();
    const imported = await cli(['import', '--fqn', 'warehouse.sales.public.nope'], { cwd, env });
    expect(imported.code).toBe(1);
    expect(imported.err).toContain(
      'Error: the catalog has no data contract named warehouse.sales.public.nope (',
    );
    expect(imported.err).not.toContain('GET /v1');
    const shown = await cli(['show', 'plan.json'], { cwd, env });
    expect(shown.code).toBe(1);
    expect(shown.err).toContain('there is no such file (make one with contracts plan --out FILE)');
    expect(shown.err).not.toContain('ENOENT');
  });
});

describe('help', () => {
  it("ends each command's help with its examples, which use only that command's options", async () => {
    const { EXAMPLES } = await import('../src/cli/examples.js');
    for (const [command, examples] of Object.entries(EXAMPLES)) {
      const help = await cli([command, '--help'], { cwd: process.cwd() });
      expect(help.code).toBe(0);
      for (const example of examples) {
        expect(help.out).toContain(`  $ ${example}`);
        expect(example.startsWith(`contracts ${command}`), example).toBe(true);
        for (const flag of example.replace(/#.*$/, '').match(/--[a-z-]+/g) ?? [])
          expect(help.out, `${command}: ${flag}`).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
      }
    }
  });
});
