// The unit lane stays a unit lane: a `*.unit.test.ts` file, and every test helper it reaches,
// imports nothing that starts a process, opens a socket, reads a git repository or needs the build
// (docs/development.md, "Two test lanes"). Such a test belongs in a plain `*.test.ts` file, which
// the integration lane runs. Imports are read by TypeScript's own scanner.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Modules a unit test may not import, directly or through a helper, and why. */
const FORBIDDEN: readonly (readonly [RegExp, string])[] = [
  [/^(node:)?child_process$/, 'starts a process'],
  [/^(node:)?worker_threads$/, 'starts a thread'],
  [/^(node:)?(http|https|http2|net|tls|dgram)$/, 'opens a socket'],
  [/^undici$/, 'opens a socket'],
  [/^simple-git$/, 'reads a git repository'],
  [/(^|\/)sandbox\/server(\.js)?$/, 'starts the sandbox'],
  [
    /(^|\/)helpers\/(sandbox|sandbox-process|cli-process|action-process)(\.js)?$/,
    'starts the sandbox or a process',
  ],
  [/(^|\/)dist\//, 'needs the build'],
];

/** Functions a unit test may not call, and why. */
const FORBIDDEN_CALLS: Readonly<Record<string, string>> = { fetch: 'opens a socket' };

function unitFiles(): string[] {
  const folders = [path.join(root, 'test')];
  const packages = path.join(root, 'packages');
  if (existsSync(packages))
    for (const name of readdirSync(packages)) folders.push(path.join(packages, name, 'test'));
  return folders
    .filter((folder) => existsSync(folder))
    .flatMap((folder) =>
      readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.unit.test.ts'))
        .map((name) => path.join(folder, name)),
    );
}

/** What `file` imports, as written. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => fileName);
}

/** The names of the functions `text` calls by a bare name, as TypeScript parses it. */
function callsOf(text: string): Set<string> {
  const calls = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
      calls.add(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest));
  return calls;
}

/** The test helper a relative import names, if it is one (src/ is what is tested, not followed). */
function helperOf(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
  return /^(test|packages\/[^/]+\/test)\//.test(shown(target)) ? target : undefined;
}

const shown = (file: string): string => path.relative(root, file).split(path.sep).join('/');

/**
 * Why each file, or a helper it reaches, does not belong in the unit lane: `file: reason (what)`.
 * `read` gives a file's text, or undefined where there is no such file.
 */
function offences(files: readonly string[], read: (file: string) => string | undefined): string[] {
  const found: string[] = [];
  for (const file of files) {
    const seen = new Set<string>();
    const walk = (current: string, via: string): void => {
      if (seen.has(current)) return;
      seen.add(current);
      const text = read(current);
      if (text === undefined) return;
      for (const specifier of importsOf(text)) {
        for (const [pattern, reason] of FORBIDDEN)
          if (pattern.test(specifier)) found.push(`${via}: ${reason} (${specifier})`);
        const helper = helperOf(current, specifier);
        if (helper !== undefined) walk(helper, `${via} → ${shown(helper)}`);
      }
      for (const call of callsOf(text))
        if (Object.hasOwn(FORBIDDEN_CALLS, call))
          found.push(`${via}: ${FORBIDDEN_CALLS[call]} (${call}())`);
    };
    walk(file, shown(file));
  }
  return found;
}

describe('the unit lane', () => {
  it('imports nothing that starts a process or the sandbox, opens a socket, reads git or needs the build', () => {
    const files = unitFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain(path.join(root, 'test', 'lanes.unit.test.ts'));
    const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    expect(offences(files, read)).toEqual([]);
  });

  it('finds a unit test that starts the sandbox or a process, directly or through a helper, or fetches', () => {
    const at = (name: string) => path.join(root, 'test', name);
    const texts: Record<string, string> = {
      [at('a.unit.test.ts')]:
        "import { openSandbox } from './helpers/sandbox.js';\nimport { start } from './helpers/starts.js';\n",
      [at('helpers/starts.ts')]:
        "import { tempDir } from './temp-dir.js';\nimport { fork } from 'node:child_process';\n",
      [at('helpers/temp-dir.ts')]: "import { mkdtemp } from 'node:fs/promises';\n",
      [at('b.unit.test.ts')]: "import { request } from 'node:http';\nawait fetch('http://x');\n",
      [at('c.unit.test.ts')]:
        "import { tempDir } from './helpers/temp-dir.js';\nimport { diff } from '../src/diff/index.js';\n",
    };
    const files = ['a', 'b', 'c'].map((name) => at(`${name}.unit.test.ts`));
    expect(offences(files, (file) => texts[file])).toEqual([
      'test/a.unit.test.ts: starts the sandbox or a process (./helpers/sandbox.js)',
      'test/a.unit.test.ts → test/helpers/starts.ts: starts a process (node:child_process)',
      'test/b.unit.test.ts: opens a socket (node:http)',
      'test/b.unit.test.ts: opens a socket (fetch())',
    ]);
  });
});
