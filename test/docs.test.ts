// Every command in the README and in docs/ runs as written. The shell blocks a user types in their
// own repository run, in document order, in an empty folder where the packed tarball is installed
// as the README says, against the sandbox the README's quick start starts; the blocks of this
// repository's own set-up run what their npm scripts run; contract files shown are valid; and the
// Action's inputs a workflow shows are inputs of action.yml.
import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../src/settings/settings-file.js';
import { cliProcess } from './helpers/cli-process.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');

interface Block {
  /** `README.md`, `docs/commands.md`. */
  file: string;
  /** The line of its opening fence. */
  line: number;
  lang: string;
  text: string;
  /** The prose between the previous block (or the file's start) and this one. */
  before: string;
}

async function blocksOf(file: string): Promise<Block[]> {
  const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
  const blocks: Block[] = [];
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) {
      prose.push(lines[i]!);
      continue;
    }
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    blocks.push({
      file,
      line: i + 1,
      lang: open[1]!,
      text: lines.slice(i + 1, end).join('\n'),
      before: prose.join('\n'),
    });
    prose = [];
    i = end;
  }
  return blocks;
}

async function allBlocks(): Promise<Block[]> {
  const docs = (await readdir(path.join(root, 'docs'))).filter((f) => f.endsWith('.md')).sort();
  const files = ['README.md', ...docs.map((f) => `docs/${f}`)];
  return (await Promise.all(files.map(blocksOf))).flat();
}

const isShell = (block: Block) => ['sh', 'bash', 'shell'].includes(block.lang);

/** A command without its trailing comment. */
const command = (line: string) => line.replace(/\s+#.*$/, '').trim();

/** A block of this repository's own commands (npm ci, npm test, npm run X), not a user's. */
const isRepositoryBlock = (block: Block) =>
  block.text
    .split('\n')
    .map(command)
    .filter((line) => line !== '')
    .every((line) => /^npm (ci|test|run )/.test(line));

/**
 * Scripts too long for the suite, or the suite itself: each is checked to exist, and CI or the
 * suite runs what it stands for.
 */
const NOT_RUN_HERE: Readonly<Record<string, string>> = {
  test: 'the suite itself: CI runs it',
  'test:unit': 'one lane of the suite: npm test runs it',
  'test:integration': 'one lane of the suite, this test among it: npm test runs it',
  format: 'rewrites the files: CI checks them with prettier --check',
  check: 'typecheck, lint and the suite: CI runs each',
  build: 'run by `npm test` before this suite',
  bench: 'minutes long: run by hand, its figures in docs/performance.md and bench/RUNS.md',
  'bench:diff': 'run by hand with the bench',
  soak: 'minutes long: the suite runs the same tests at smaller sizes',
  fuzz: 'minutes long: the suite runs the same test at a smaller size',
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * One shell script of the user's blocks, line by line, each announced (`::line FILE:LINE`) so that
 * a failure names the line. A line run in the background waits for what its comment says it
 * prints; `; echo $?   # N: …` checks that the code is N.
 */
function scriptOf(blocks: readonly Block[], port: number): string {
  const out = ['set -euo pipefail', 'exec 2>&1'];
  let background = 0;
  for (const block of blocks) {
    block.text.split('\n').forEach((raw, i) => {
      const line = raw.replaceAll('8585', String(port));
      if (command(line) === '') return;
      out.push(`echo "::line ${block.file}:${block.line + 1 + i}"`);
      const prints = /#\s*prints:\s*(.+)$/.exec(line)?.[1]?.trim();
      const code = /;\s*echo \$\?\s+#\s*(\d+):/.exec(line)?.[1];
      if (command(line).endsWith('&')) {
        background += 1;
        const log = `background-${background}.log`;
        out.push(`${command(line).slice(0, -1).trim()} > ${log} 2>&1 &`);
        if (prints !== undefined)
          out.push(
            `for i in $(seq 300); do grep -qF '${prints}' ${log} && break; sleep 0.1; done`,
            `grep -qF '${prints}' ${log} || { cat ${log}; echo "never printed: ${prints}"; exit 1; }`,
          );
      } else if (code !== undefined) {
        const run = command(line).replace(/;\s*echo \$\?$/, '');
        out.push(
          `${run} && code=0 || code=$?`,
          `echo "$code"`,
          `[ "$code" = ${code} ] || { echo "exit code $code, the docs say ${code}"; exit 1; }`,
        );
      } else out.push(command(line));
    });
  }
  return `${out.join('\n')}\n`;
}

let packed: TempDir;
let tarball: string;
let blocks: Block[];

beforeAll(() => {
  return (async () => {
    blocks = await allBlocks();
    packed = await tempDir();
    execFileSync(
      'npm',
      ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed.dir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    tarball = (await readdir(packed.dir)).find((f) => f.endsWith('.tgz'))!;
  })();
}, 120_000);
afterAll(() => packed?.remove());

describe('the documentation', () => {
  it('runs every shell block a user types, in order, in an empty folder with the packed tarball, against the sandbox the quick start starts', async () => {
    const user = blocks.filter((b) => isShell(b) && !isRepositoryBlock(b));
    expect(user.map((b) => b.file)).toContain('README.md');
    // The tarball the README installs is the one `npm pack` makes.
    const install = user.find((b) => b.text.includes('npm i -D'))!;
    expect(install.text).toContain(`./${tarball}`);
    const work = await tempDir();
    try {
      await copyFile(path.join(packed.dir, tarball), path.join(work.dir, tarball));
      await writeFile(
        path.join(work.dir, 'package.json'),
        JSON.stringify({ name: 'our-contracts', private: true }),
      );
      // The first contract, saved where the README says.
      const readme = blocks.filter((b) => b.file === 'README.md');
      const first = readme.find((b) => b.lang === 'yaml' && /Save it as `[^`]+`/.test(b.before))!;
      const saveAs = /Save it as `([^`]+)`/.exec(first.before)![1]!;
      await mkdir(path.dirname(path.join(work.dir, saveAs)), { recursive: true });
      await writeFile(path.join(work.dir, saveAs), `${first.text}\n`);
      const port = await freePort();
      const script = scriptOf(user, port);
      const run = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn('bash', ['-c', script], {
          cwd: work.dir,
          // Its own process group: the sandbox the quick start leaves running is stopped with it.
          detached: true,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            NO_COLOR: '1',
            npm_config_offline: 'true',
            npm_config_audit: 'false',
            npm_config_fund: 'false',
            npm_config_update_notifier: 'false',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('error', reject);
        child.once('close', (code) => {
          try {
            process.kill(-child.pid!, 'SIGTERM');
          } catch {
            // Already gone.
          }
          resolve({ code, out });
        });
      });
      expect(run.code, run.out).toBe(0);
      // What the quick start's comments say.
      expect(run.out).toContain('Plan: 1 to create, 0 to change, 0 unchanged, 0 errors.');
      expect(run.out).toContain('Apply complete: 1 created, 0 changed, 0 unchanged.');
      // Down to the last line of the last block (set -e stops at the first that fails).
      const last = user.at(-1)!;
      expect(run.out).toContain(
        `::line ${last.file}:${last.line + last.text.trimEnd().split('\n').length}`,
      );
    } finally {
      await work.remove();
    }
  }, 240_000);

  it("runs this repository's set-up blocks as their npm scripts run them, and names only scripts that exist", async () => {
    const scripts = (
      JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const repository = blocks.filter((b) => isShell(b) && isRepositoryBlock(b));
    expect(repository.length).toBeGreaterThan(0);
    const named = new Set<string>();
    for (const block of repository)
      for (const line of block.text.split('\n').map(command))
        for (const part of line.split('&&').map((p) => p.trim()))
          if (part === 'npm test') named.add('test');
          else if (part.startsWith('npm run ')) named.add(part);
    for (const part of named) {
      const [, name, args] = /^npm run (\S+)(?: -- (.*))?$/.exec(part) ?? [undefined, part];
      expect(scripts, part).toHaveProperty(name);
      if (NOT_RUN_HERE[name] !== undefined) continue;
      // What the script runs, after the build `npm test` has just made.
      const body = scripts[name]!.replace(/^npm run build && /, '');
      const ran = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('bash', ['-c', `${body} ${args ?? ''}`], {
          cwd: root,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('close', (code) => resolve({ code, out }));
      });
      expect(ran.code, `${part}\n${ran.out}`).toBe(0);
    }
    // The demo, and the demo as OpenMetadata that the README names beside it.
    expect(named).toContain('npm run demo');
  }, 120_000);

  it('shows only contract files and settings files that validate, and Action inputs that action.yml has', async () => {
    const inputs = Object.keys(
      (load(await readFile(path.join(root, 'action.yml'), 'utf8')) as { inputs: object }).inputs,
    );
    const dir = await tempDir();
    try {
      let contracts = 0;
      let workflows = 0;
      let settings = 0;
      for (const block of blocks.filter((b) => b.lang === 'yaml')) {
        const where = `${block.file}:${block.line}`;
        const value = load(block.text) as Record<string, unknown>;
        if (
          block.text.includes('settings.schema.json') ||
          /^(policies|acknowledgedBreaks):/m.test(block.text)
        ) {
          // A settings file shown: it loads with no problem.
          const settingsDir = await tempDir({ '.contracts.yaml': `${block.text}\n` });
          const loaded = loadSettings(settingsDir.dir);
          await settingsDir.remove();
          expect(loaded.ok, `${where}: ${JSON.stringify(loaded)}`).toBe(true);
          settings += 1;
          continue;
        }
        const odcs = value.kind === 'DataContract';
        if (('entity' in value && 'fullyQualifiedName' in value) || odcs) {
          contracts += 1;
          const file = `contracts/block-${block.line}${odcs ? '.odcs' : ''}.yaml`;
          await mkdir(path.join(dir.dir, 'contracts'), { recursive: true });
          await writeFile(path.join(dir.dir, file), `${block.text}\n`);
          const profile = /OpenMetadata/.test(block.before.split('\n').slice(-3).join('\n'))
            ? ['--catalog-profile', 'openmetadata']
            : [];
          const checked = await cliProcess(['validate', file, ...profile], { cwd: dir.dir });
          expect(checked.code, `${where}\n${checked.out}${checked.err}`).toBe(0);
        }
        for (const match of block.text.matchAll(
          /uses: acme\/contracts-gitops@\S+\n\s+with:\n((?:\s+[\w-]+:.*\n?)+)/g,
        )) {
          workflows += 1;
          for (const key of match[1]!.matchAll(/^\s+([\w-]+):/gm))
            expect(inputs, `${where}: input ${key[1]!}`).toContain(key[1]);
        }
      }
      expect(contracts).toBeGreaterThanOrEqual(4);
      expect(workflows).toBeGreaterThanOrEqual(4);
      expect(settings).toBeGreaterThanOrEqual(3);
    } finally {
      await dir.remove();
    }
  }, 60_000);
});
