// Hostile contract files against a catalog: a set of files with one invalid file among valid ones
// writes nothing. How the loader takes each hostile file: fuzz.unit.test.ts.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../src/contract/parse.js';
import { cli } from './helpers/cli.js';
import { inputArb } from './helpers/hostile-contract-files.js';
import { openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');

describe('hostile contract files', () => {
  it('writes nothing for a set of files with one invalid file among valid ones', async () => {
    const opened = await openSandbox();
    try {
      const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token('alice') };
      const samples = fc.sample(
        inputArb.filter((bytes) => !parseContract(bytes, 'x.yaml').ok),
        { numRuns: 8, seed: 7 },
      );
      for (const bytes of samples) {
        const files: Record<string, string | Uint8Array> = { 'contracts/zz-fuzzed.yaml': bytes };
        for (const name of readdirSync(path.join(root, 'contracts')))
          files[`contracts/${name}`] = readFileSync(path.join(root, 'contracts', name));
        const dir = await tempDir(files);
        try {
          for (const args of [['plan'], ['apply', '--auto-approve']]) {
            const run = await cli(args, { cwd: dir.dir, env });
            expect(run.code).toBe(1);
            expect(run.out).toMatch(/^contracts\/zz-fuzzed\.yaml:\d+:\d+ /m);
          }
        } finally {
          await dir.remove();
        }
      }
      expect(writesAmong(opened.sandbox.requests())).toEqual([]);
    } finally {
      await opened.sandbox.close();
    }
  });
});
