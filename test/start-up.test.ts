// What a command loads that it may not need, read from the built CLI's own debug output (Node
// names each module as it loads it): the yaml package only for a file js-yaml cannot take or
// that has problems to locate, Node's worker_threads only for a load large enough for a second
// thread, Node's v8 (which bounds the heap's growth) only for a run that holds many contracts,
// and Node's child_process (which commander requires for subcommands this CLI never declares) never.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProcess } from './helpers/cli-process.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Runs `validate` over `files` and says which of the modules watched it loaded. */
async function loadedBy(files: Record<string, string>): Promise<{ out: string; loaded: string[] }> {
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  const run = await cliProcess(['validate', '.'], {
    cwd: dir.dir,
    env: { NODE_DEBUG: 'module,esm' },
  });
  const watched = [
    ['yaml', /load "[^"]*[\\/]yaml\.cjs"/],
    ['worker_threads', /load built-in module node:worker_threads/],
    ['v8', /load built-in module node:v8/],
    ['child_process', /load built-in module node:child_process/],
  ] as const;
  return {
    out:
      run.out +
      run.err
        .split('\n')
        .filter((line) => !/^(MODULE|ESM) \d+:/.test(line))
        .join('\n'),
    loaded: watched.filter(([, seen]) => seen.test(run.err)).map(([name]) => name),
  };
}

describe('start-up', () => {
  it('a plain valid file loads neither the yaml package, worker_threads, v8 nor child_process', async () => {
    const orders = await readFile(path.join(root, 'contracts', 'orders.yaml'), 'utf8');
    const run = await loadedBy({ 'orders.yaml': orders });
    expect(run.out).toContain('✓ 1 contract file is valid.');
    expect(run.loaded).toEqual([]);
  });

  it('a file with problems loads the yaml package, and they are said at their lines', async () => {
    const run = await loadedBy({
      'bad.yaml': 'fullyQualifiedName: a\nname: a\nentity:\n  type: table\n',
    });
    expect(run.out).toContain('bad.yaml:3:1 entity.fullyQualifiedName is required but missing');
    expect(run.loaded).toEqual(['yaml']);
  });

  it('a load of a thousand files starts the second thread and bounds the heap', async () => {
    const orders = await readFile(path.join(root, 'contracts', 'orders.yaml'), 'utf8');
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++)
      files[`c${i}.yaml`] = orders
        .replace(/^fullyQualifiedName: .*$/m, `fullyQualifiedName: c${i}`)
        .replace(
          /^ {2}fullyQualifiedName: .*$/m,
          `  fullyQualifiedName: warehouse.sales.public.t${i}`,
        );
    const run = await loadedBy(files);
    expect(run.out).toContain('✓ 1000 contract files are valid.');
    expect(run.loaded).toEqual(['worker_threads', 'v8']);
  }, 30_000);
});
