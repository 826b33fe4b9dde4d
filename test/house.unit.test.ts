// The shape of the sources: no file too long to read whole, and no modules that import each
// other in a circle (directly or through others), type imports included. Imports are read by
// TypeScript's own scanner, so what counts as one is what the compiler sees.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
/** The sources of the workspace packages (packages/<name>/src), held to the same shape. */
const packageSources = readdirSync(path.join(root, 'packages')).map((name) =>
  path.join(root, 'packages', name, 'src'),
);
const MAX_LINES = 450;

/** The folder of src a file is in (`plan`), or the file's own name for a file at the top. */
function folderOf(file: string): string {
  return path.relative(src, file).split(path.sep)[0]!;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(?:ts|mts|mjs)$/.test(name))
    .map((name) => path.join(directory, name));
}

/** The source files each one imports, by TypeScript's reading of its import declarations. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.resolve(path.dirname(file), name))
      .flatMap((target) => [
        target,
        target.replace(/\.js$/, '.ts'),
        target.replace(/\.mjs$/, '.mts'),
      ])
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(imported)]);
  }
  return graph;
}

/** Every group of two or more files that reach each other (Tarjan's strongly connected components). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, counter);
    lowest.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

describe('the sources', () => {
  const files = [src, ...packageSources].flatMap(sourceFiles);
  const shown = (file: string): string => path.relative(root, file).split(path.sep).join('/');

  it(`have no file over ${MAX_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(50);
    const long = files
      .map((file) => [shown(file), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('have no import circles', () => {
    const graph = importGraph(files);
    // The scanner does see the imports: the loader imports its per-file module, and so on.
    expect(graph.get(path.join(src, 'read', 'load.ts'))).toContain(
      path.join(src, 'read', 'load-file.ts'),
    );
    const sandbox = path.join(root, 'packages', 'sandbox', 'src');
    expect(graph.get(path.join(sandbox, 'server.ts'))).toContain(path.join(sandbox, 'store.ts'));
    expect(circles(graph).map((group) => group.map(shown))).toEqual([]);
  });

  it('have no import circles between the folders of src, type imports counted', () => {
    const graph = importGraph(files.filter((file) => file.startsWith(src + path.sep)));
    const folders = new Map<string, string[]>();
    for (const [file, imported] of graph) {
      const from = folderOf(file);
      const reached = folders.get(from) ?? [];
      for (const target of imported) {
        const to = folderOf(target);
        if (to !== from && !reached.includes(to)) reached.push(to);
      }
      folders.set(from, reached);
    }
    // The scanner sees type imports between folders too: the planner's types name the model's.
    expect(folders.get('plan')).toContain('model');
    expect(circles(folders)).toEqual([]);
  });

  it('import only from the folders docs/architecture.md lists before their own', () => {
    const page = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
    // The page's table of folders, from the bottom up: `| \`src/model/\` | …`.
    const layers = [...page.matchAll(/^\| `src\/([\w-]+)\/` *\|/gm)].map((row) => row[1]!);
    const ofSrc = files.filter((file) => file.startsWith(src + path.sep));
    const folders = [...new Set(ofSrc.map(folderOf))].filter((folder) => !folder.includes('.'));
    expect(folders.filter((folder) => !layers.includes(folder))).toEqual([]);
    // The entries at the top of src (cli.ts, index.ts) may import any folder.
    const inFolders = ofSrc.filter((file) => layers.includes(folderOf(file)));
    const upward = [...importGraph(inFolders)].flatMap(([file, imported]) =>
      imported
        .filter((target) => layers.indexOf(folderOf(target)) > layers.indexOf(folderOf(file)))
        .map((target) => `${shown(file)} -> ${shown(target)}`),
    );
    expect(upward).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
