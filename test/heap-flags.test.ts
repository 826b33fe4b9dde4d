// A V8 flag is the whole process's: the library's loadContracts never sets one, however many files
// it loads; only a program of ours (the CLI binary, the Action) bounds the heap's growth for a large
// load, having chosen it as it started (src/support/heap.ts; test/start-up.test.ts sees the CLI do it).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContracts } from '../src/index.js';
import { boundHeapOnLargeLoads } from '../src/support/heap.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';

const DIST = path.resolve(import.meta.dirname, '../dist');

/** A thousand valid contract files: a load large enough for the CLI to bound the heap. */
function thousandFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++)
    files[`contracts/c${String(i).padStart(4, '0')}.yaml`] = [
      `name: c${i}`,
      `fullyQualifiedName: db.s.t${i}.contract`,
      `entity: { type: table, fullyQualifiedName: db.s.t${i} }`,
      'schema:',
      '  - name: id',
      '    dataType: BIGINT',
      '',
    ].join('\n');
  return files;
}

let dir: TempDir;
beforeAll(async () => {
  dir = await tempDir(thousandFiles());
});
afterAll(() => dir.remove());

describe("the process's V8 flags", () => {
  it('are left alone by the built library loading a thousand files: it never loads node:v8', () => {
    const script = `const { loadContracts } = await import(${JSON.stringify(path.join(DIST, 'index.js'))});
      const loaded = await loadContracts(['contracts'], process.cwd());
      process.stdout.write(String(loaded.files.length));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir.dir,
      env: { ...process.env, NODE_DEBUG: 'module,esm' },
      encoding: 'utf8',
    });
    expect(run.stdout).toBe('1000');
    expect(run.stderr).toContain('load built-in module node:worker_threads');
    expect(run.stderr).not.toMatch(/load built-in module node:v8/);
  }, 60_000);

  it('are set by a load only once the program chose it, as the CLI binary does', async () => {
    const setFlags = vi.spyOn(v8, 'setFlagsFromString');
    try {
      const loaded = await loadContracts(['contracts'], dir.dir);
      expect(loaded.files).toHaveLength(1000);
      expect(setFlags).not.toHaveBeenCalled();
      boundHeapOnLargeLoads();
      await loadContracts(['contracts'], dir.dir);
      expect(setFlags).toHaveBeenCalledExactlyOnceWith('--heap-growing-percent=25');
    } finally {
      setFlags.mockRestore();
    }
  }, 60_000);
});
