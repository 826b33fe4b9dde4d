// The reader (src/read/live-reads.ts): a plan reads the live contracts by the catalog's list where
// its pages cost less than reads by name, and makes the same plan either way; a catalog without
// the list is read by name, with one note.
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import { planFromFiles, type PlanRequest } from '../src/pipeline/plan-pipeline.js';
import { pullOperation } from '../src/operations/pull.js';
import { FILES_FOR_LIST, type LiveReadMode } from '../src/read/live-reads.js';
import { openMetadataWorkspace, pairArb } from './helpers/openmetadata-workspace.js';
import { openSandbox } from './helpers/sandbox.js';
import { folderOf, reads, specCatalog, type Opened } from './helpers/paged-catalog.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The plan of the files in `cwd` against `opened`'s catalog, its live contracts read by `mode`. */
async function planned(
  opened: Opened,
  cwd: string,
  mode: LiveReadMode,
  more: Partial<PlanRequest> = {},
) {
  const client = new CatalogClient({ baseUrl: opened.sandbox.url, token: await opened.token() });
  try {
    const outcome = await planFromFiles(
      {
        paths: ['contracts'],
        cwd,
        catalogUrl: opened.sandbox.url,
        gitCommit: null,
        now: () => new Date('2026-11-28T00:00:00Z'),
        liveReads: mode,
        ...more,
      },
      client,
    );
    if (!outcome.ok) throw new Error(`plan refused: ${outcome.problems[0]?.message}`);
    return outcome.plan;
  } finally {
    await client.close();
  }
}

describe('the same plan by pages and by name', () => {
  it('OpenMetadata: generated workspaces, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pairArb, { minLength: 1, maxLength: 12 }), async (pairs) => {
        const workspace = openMetadataWorkspace(pairs);
        const opened = await openSandbox({ profile: 'openmetadata', seed: workspace.seed });
        try {
          const cwd = await folderOf(workspace.desired, cleanups);
          opened.sandbox.clearRequests();
          const byName = await planned(opened, cwd, 'by-name');
          const asked = reads(opened.sandbox);
          opened.sandbox.clearRequests();
          const byPages = await planned(opened, cwd, 'by-pages');
          // The contracts the list holds were not read by name; the others were, as before.
          expect(reads(opened.sandbox)).toEqual({
            byName: asked.byName - pairs.filter((pair) => !pair.absent).length,
            list: 1,
          });
          expect(JSON.stringify(byPages, null, 2)).toBe(JSON.stringify(byName, null, 2));
        } finally {
          await opened.sandbox.close();
        }
      }),
      { numRuns: 15, seed: 20261128 },
    );
  });

  it('spec: generated workspaces, sealed, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const { opened, cwd } = await specCatalog(10, seed, cleanups);
        const byName = await planned(opened, cwd, 'by-name');
        const byPages = await planned(opened, cwd, 'by-pages');
        expect(
          byPages.changes.every((change) => change.id === null || change.liveHash !== null),
        ).toBe(true);
        expect(JSON.stringify(byPages, null, 2)).toBe(JSON.stringify(byName, null, 2));
      }),
      { numRuns: 5, seed: 20261128 },
    );
  });
});

describe('pages when they pay', () => {
  it(`reads a catalog by pages when ${FILES_FOR_LIST} files or more are planned`, async () => {
    const { opened, cwd } = await specCatalog(FILES_FOR_LIST + 5, 69, cleanups);
    const byName = await planned(opened, cwd, 'by-name');
    opened.sandbox.clearRequests();
    const auto = await planned(opened, cwd, 'auto');
    expect(reads(opened.sandbox)).toEqual({ byName: 0, list: 1 });
    expect(JSON.stringify(auto)).toBe(JSON.stringify(byName));
  });

  it('reads a few files by name, and never asks for the list', async () => {
    const { opened, cwd } = await specCatalog(FILES_FOR_LIST + 5, 70, cleanups);
    const only = new Set(['c001.yaml', 'c002.yaml'].map((f) => path.join(cwd, 'contracts', f)));
    opened.sandbox.clearRequests();
    const plan = await planned(opened, cwd, 'auto', { only });
    expect(plan.changes).toHaveLength(2);
    expect(reads(opened.sandbox)).toEqual({ byName: 2, list: 0 });
  });

  it('pull, which sends nothing, reads a whole repository by pages too', async () => {
    const { opened, cwd } = await specCatalog(FILES_FOR_LIST + 5, 73, cleanups);
    opened.sandbox.clearRequests();
    const client = new CatalogClient({ baseUrl: opened.sandbox.url, token: await opened.token() });
    try {
      const pulled = await pullOperation(
        {
          paths: ['contracts'],
          cwd,
          catalogUrl: opened.sandbox.url,
          check: true,
          repository: undefined,
        },
        client,
      );
      expect(pulled.ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(reads(opened.sandbox)).toMatchObject({ list: 1 });
    expect(reads(opened.sandbox).byName).toBeLessThan(FILES_FOR_LIST);
  });

  it('a plan that keeps its live contracts for apply reads them by pages too', async () => {
    const { opened, cwd } = await specCatalog(FILES_FOR_LIST + 5, 71, cleanups);
    opened.sandbox.clearRequests();
    await planned(opened, cwd, 'auto', { keepLive: true });
    expect(reads(opened.sandbox)).toEqual({ byName: 0, list: 1 });
  });
});

describe('a catalog without the list', () => {
  for (const status of [404, 405] as const)
    it(`answered ${status}: read by name, once asked, with one note`, async () => {
      const { opened, cwd } = await specCatalog(FILES_FOR_LIST + 5, 72, cleanups, {
        withoutList: status,
      });
      const byName = await planned(opened, cwd, 'by-name');
      opened.sandbox.clearRequests();
      const auto = await planned(opened, cwd, 'auto');
      expect(reads(opened.sandbox)).toEqual({ byName: FILES_FOR_LIST + 5, list: 1 });
      expect(auto.notes).toHaveLength(1);
      expect(auto.notes![0]).toMatch(
        new RegExp(
          `^The catalog does not serve its list of data contracts .*${status}.*read one by one, by name`,
        ),
      );
      const { notes: _, checksum: __, ...rest } = auto;
      const { notes: ___, checksum: ____, ...expected } = byName;
      expect(rest).toEqual(expected);
    });
});
