// Many contract files load in two threads (from 1,000 files on), taking chunks of the files from a
// shared counter: the result must be what one thread reading every file in path order finds, and
// stay so when the second thread cannot start.
import { cp, readFile, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crossFileProblems, loadContracts } from '../src/read/load.js';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { codecFor } from '../src/profile/codec.js';
import type { Problem } from '../src/model/problem.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';

const DIST = path.resolve(import.meta.dirname, '../dist');

/**
 * `n` contract files under contracts/: every 97th has a column whose type is a number (a nested
 * problem), every 50th a status OpenMetadata cannot store, and the last repeats the first's FQN.
 */
function manyFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const fqn = i === n - 1 ? 'db.s.t0.contract' : `db.s.t${i}.contract`;
    files[`contracts/c${String(i).padStart(5, '0')}.yaml`] = [
      `name: c${i}`,
      `fullyQualifiedName: ${fqn}`,
      `entity: { type: table, fullyQualifiedName: db.s.t${i} }`,
      ...(i % 50 === 7 ? ['entityStatus: Active'] : []),
      'schema:',
      '  - name: id',
      '    dataType: BIGINT',
      '  - name: amount',
      `    dataType: ${i % 97 === 3 ? '5' : 'DECIMAL'}`,
      '',
    ].join('\n');
  }
  return files;
}

/** What one thread finds, file by file in path order: the reference for the loader. */
async function oneByOne(dir: string, names: string[]) {
  const files: ContractFile[] = [];
  const problems: Problem[] = [];
  const openmetadata = new Set<string>();
  for (const name of names) {
    const parsed = parseContract(await readFile(path.join(dir, name)), name);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    files.push(parsed.value);
    if (codecFor('openmetadata').unstorable(parsed.value.contract).length > 0)
      openmetadata.add(name);
  }
  problems.push(...crossFileProblems(files));
  return { files, problems, openmetadata };
}

async function withFiles(n: number, check: (dir: TempDir) => Promise<void>): Promise<void> {
  const dir = await tempDir(manyFiles(n));
  try {
    await check(dir);
  } finally {
    await dir.remove();
  }
}

describe('loading many files in two threads', () => {
  it('finds the same files, problems and unstorable contracts as one thread, in path order', () =>
    withFiles(4000, async (dir) => {
      const names = Object.keys(manyFiles(4000)).sort();
      const loaded = await loadContracts(['contracts'], dir.dir, {
        unstorableIn: ['spec', 'openmetadata'],
      });
      const expected = await oneByOne(dir.dir, names);
      expect(loaded.fileCount).toBe(4000);
      expect(loaded.problems).toEqual(expected.problems);
      expect(loaded.problems.filter((p) => p.path === 'schema[1].dataType')).toHaveLength(42);
      expect(loaded.problems.at(-1)?.message).toMatch(/is also used by contracts\/c00000\.yaml/);
      expect(loaded.files.map((file) => [file.file, file.identity])).toEqual(
        expected.files.map((file) => [
          file.file,
          {
            fullyQualifiedName: file.contract.fullyQualifiedName,
            entity: {
              type: file.contract.entity.type,
              fullyQualifiedName: file.contract.entity.fullyQualifiedName,
            },
          },
        ]),
      );
      for (const index of [0, 1999, expected.files.length - 1])
        expect(loaded.files[index]!.contract).toEqual(expected.files[index]!.contract);
      expect(loaded.unstorable.get('openmetadata')).toEqual(expected.openmetadata);
      expect(loaded.unstorable.get('spec')).toEqual(new Set());
    }));

  it('shares the files between the two threads in a build', () =>
    withFiles(6000, async (dir) => {
      // The build's thread starts in a fraction of the time the sources' does (through tsx).
      const built = (await import(path.join(DIST, 'index.js'))) as {
        loadContracts: typeof loadContracts;
      };
      const loaded = await built.loadContracts(['contracts'], dir.dir);
      const reference = await loadContracts(['contracts'], dir.dir);
      expect(loaded.loadedBySecondThread).toBeGreaterThan(0);
      expect(loaded.loadedBySecondThread).toBeLessThan(6000);
      expect(loaded.problems).toEqual(reference.problems);
      expect(loaded.files.map((file) => file.identity)).toEqual(
        reference.files.map((file) => file.identity),
      );
    }));

  it('leaves the files to the second thread where this one has other work (a plan)', () =>
    withFiles(3000, async (dir) => {
      const reference = await loadContracts(['contracts'], dir.dir);
      const broken = path.join(dir.dir, 'dist');
      await cp(DIST, broken, { recursive: true });
      await rm(path.join(broken, 'load-thread.mjs'));
      for (const [build, second] of [
        [DIST, 3000],
        [broken, 0],
      ] as const) {
        const built = (await import(path.join(build, 'index.js'))) as {
          loadContracts: typeof loadContracts;
        };
        const told: number[] = [];
        const loaded = await built.loadContracts(['contracts'], dir.dir, {
          onValid: (_file, place) => told.push(place),
        });
        // Every file by the second thread; by this one alone when that thread cannot start.
        expect(loaded.loadedBySecondThread).toBe(second);
        expect(loaded.problems).toEqual(reference.problems);
        expect(loaded.files.map((file) => file.identity)).toEqual(
          reference.files.map((file) => file.identity),
        );
        expect(told.sort((a, b) => a - b)).toEqual(
          reference.files.map((file) => Number(/c(\d{5})/.exec(file.file)![1])),
        );
      }
    }));

  it('reports the same when the second thread cannot start (a build without load-thread.mjs)', () =>
    withFiles(3000, async (dir) => {
      const broken = path.join(dir.dir, 'dist');
      await cp(DIST, broken, { recursive: true });
      await rm(path.join(broken, 'load-thread.mjs'));
      const validate = (cli: string) =>
        spawnSync(process.execPath, [cli, 'validate', 'contracts'], {
          cwd: dir.dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
        });
      const whole = validate(path.join(DIST, 'cli.cjs'));
      const alone = validate(path.join(broken, 'cli.cjs'));
      expect(whole.status).toBe(1);
      expect(alone.status).toBe(1);
      expect(alone.stdout).toBe(whole.stdout);
      expect(alone.stderr).toBe(whole.stderr);
      const located = `${whole.stdout}${whole.stderr}`.match(/^contracts\/c\d{5}\.yaml:\d+:\d+/gm);
      // 31 numbers for types (3, 100, …, 2913) and the repeated FQN, in path order.
      expect(located).toHaveLength(32);
      expect(located).toEqual([...located!].sort());
      expect(located![0]).toBe('contracts/c00003.yaml:8:15');
    }));
});
