// The sandbox is a package of its own: its sources and tests import nothing outside this folder
// but Node's modules and the packages it depends on, so that it shares no code with the tool it
// is a catalog for, and a mistake in the tool is never made on both sides.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import manifest from '../package.json' with { type: 'json' };

const here = path.resolve(import.meta.dirname, '..');

function filesOf(folder: string): string[] {
  return readdirSync(path.join(here, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(?:ts|mts|mjs|json)$/.test(name))
    .map((name) => path.join(here, folder, name));
}

/** What `file` imports, by TypeScript's reading of its import declarations. */
function importsOf(file: string): string[] {
  if (file.endsWith('.json')) return [];
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(({ fileName }) => fileName);
}

const allowed = new Set([
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.devDependencies),
]);

/** The imports of `file` (at `names`) that leave the package: neither Node's nor a dependency's. */
function outside(file: string, names: readonly string[]): string[] {
  return names.filter((name) => {
    if (name.startsWith('.'))
      return !path.resolve(path.dirname(file), name).startsWith(here + path.sep);
    if (name.startsWith('node:')) return false;
    const parts = name.split('/');
    return !allowed.has(name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  });
}

describe("the sandbox's border", () => {
  it('is crossed by no import but of Node and of the dependencies', () => {
    const files = [...filesOf('src'), ...filesOf('test')];
    expect(files.length).toBeGreaterThan(30);
    const crossing = files.flatMap((file) =>
      outside(file, importsOf(file)).map((name) => `${path.relative(here, file)}: ${name}`),
    );
    expect(crossing).toEqual([]);
  });

  it('is crossed by an import of the tool or of a package the sandbox does not depend on', () => {
    const server = path.join(here, 'src', 'server.ts');
    expect(importsOf(server)).toContain('./store.js');
    expect(
      outside(server, [
        './store.js',
        '../../../src/profile/openmetadata-rules.js',
        '../test/asset-rules.test.js',
        'node:http',
        'jose',
        'commander',
        '@actions/core',
        '@types/json-logic-js',
      ]),
    ).toEqual(['../../../src/profile/openmetadata-rules.js', 'commander', '@actions/core']);
  });
});
