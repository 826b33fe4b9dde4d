// Catalogs of generated contracts and the files of their desired ones, for the tests of reading
// by pages (test/live-reads.test.ts, test/apply-pages.test.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { Sandbox } from '@contracts-gitops/sandbox';
import type { DesiredContract } from '../../src/model/contract.js';
import { arbitraryContract, withoutNulls } from './arbitraries.js';
import { catalogFromPairs } from './generated-catalog.js';
import { editorSeed, interfacePath, openSandbox } from './sandbox.js';
import { tempDir } from './temp-dir.js';

export type Opened = Awaited<ReturnType<typeof openSandbox>>;

/** `contracts` written as contracts/c000.yaml, c001.yaml, … in a folder `cleanups` removes. */
export async function folderOf(
  contracts: readonly DesiredContract[],
  cleanups: (() => Promise<unknown>)[],
): Promise<string> {
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  await mkdir(path.join(dir.dir, 'contracts'));
  for (const [i, contract] of contracts.entries())
    await writeFile(
      path.join(dir.dir, 'contracts', `c${String(i).padStart(3, '0')}.yaml`),
      stringify(contract),
    );
  return dir.dir;
}

/** The GETs the sandbox logged: of one contract by name, and of the list. */
export function reads(sandbox: Sandbox): { byName: number; list: number } {
  const gets = sandbox
    .requests()
    .filter((r) => r.method === 'GET')
    .map((r) => interfacePath(r.path.split('?')[0]!));
  return {
    byName: gets.filter((p) => p.startsWith('/v1/dataContracts/name/')).length,
    list: gets.filter((p) => p === '/v1/dataContracts').length,
  };
}

/**
 * A spec catalog of `count` generated contracts (every third as its file holds it), and the
 * files of their desired ones; both removed by `cleanups`.
 */
export async function specCatalog(
  count: number,
  seed: number,
  cleanups: (() => Promise<unknown>)[],
  options: { withoutList?: 404 | 405 } = {},
) {
  const pairs = fc
    .sample(fc.tuple(arbitraryContract(), arbitraryContract()), { seed, numRuns: count })
    .map(([live, wanted], i) =>
      i % 3 === 0 ? ([withoutNulls(live), withoutNulls(live)] as const) : ([live, wanted] as const),
    );
  const { assets, contracts, desired } = catalogFromPairs(pairs, 'db.s');
  const opened = await openSandbox({
    seed: editorSeed(assets, contracts),
    ...(options.withoutList === undefined ? {} : { withoutContractList: options.withoutList }),
  });
  cleanups.push(() => opened.sandbox.close());
  return { opened, cwd: await folderOf(desired, cleanups) };
}
