// The reader's rule and its walk of the list, over a catalog kept in memory: pages taken by the
// cursors given, files waiting for the page that holds theirs, the rule that picks pages or
// names, and a list that fails half-way.
import { describe, expect, it } from 'vitest';
import type { CatalogReader } from '../src/catalog/catalog-reader.js';
import type { Page } from '../src/catalog/types.js';
import type { ContractFile } from '../src/contract/parse.js';
import { CatalogError, NotFoundError } from '../src/model/errors.js';
import {
  FILES_FOR_LIST,
  LIST_PAGE_SIZE,
  LIST_SHARE,
  MAX_HELD,
  liveReads,
} from '../src/read/live-reads.js';

const fqn = (i: number) => `db.s.t${String(i).padStart(5, '0')}.dataContract_c`;

/** A catalog of `count` contracts; `failAt`: the page (from 1) whose request fails. */
function catalog(count: number, failAt?: { page: number; error: Error }) {
  const asked = { pages: [] as (string | undefined)[], byName: [] as string[] };
  const reader = {
    redact: (text: string) => text,
    getContractByName: (name: string) => {
      asked.byName.push(name);
      const i = Number(/t(\d+)/.exec(name)![1]);
      if (i >= count)
        return Promise.reject(new NotFoundError(404, 'NOT_FOUND', `${name} not found`, 'GET'));
      return Promise.resolve({ fullyQualifiedName: name, version: 0.1 });
    },
    listPage: (_path: string, params: Record<string, string>, cursor?: { after: string }) => {
      asked.pages.push(cursor?.after);
      if (failAt !== undefined && asked.pages.length === failAt.page)
        return Promise.reject(failAt.error);
      const limit = Number(params.limit);
      const start = Number(cursor?.after ?? 0);
      const end = Math.min(count, start + limit);
      const data = Array.from({ length: end - start }, (_, k) => ({
        fullyQualifiedName: fqn(start + k),
        version: 0.1,
      }));
      return Promise.resolve({
        data,
        paging: { total: count, ...(end < count ? { after: String(end) } : {}) },
      } as Page<never>);
    },
  } as unknown as CatalogReader;
  return { reader, asked };
}

const fileOf = (name: string) => ({ identity: { fullyQualifiedName: name } }) as ContractFile;

describe('the reader', () => {
  it('walks every page by its cursors when the files are enough of the catalog', async () => {
    const total = 2 * LIST_PAGE_SIZE + 10;
    const { reader, asked } = catalog(total);
    const reads = liveReads(reader, Promise.resolve(FILES_FOR_LIST), 'auto');
    // Every file is known: only their contracts are kept of the pages.
    reads.onlyFor?.(new Set([fqn(total - 1), fqn(total + 1)]));
    // The last contract's file waits for the last page; one the list lacks is read by name.
    const [last, absent] = await Promise.all([
      reads.read(fileOf(fqn(total - 1)), undefined),
      reads.read(fileOf(fqn(total + 1)), undefined),
    ]);
    expect(last).toEqual({
      kind: 'found',
      contract: { fullyQualifiedName: fqn(total - 1), version: 0.1 },
    });
    expect(absent).toEqual({ kind: 'missing' });
    expect(asked.pages).toEqual([undefined, String(LIST_PAGE_SIZE), String(2 * LIST_PAGE_SIZE)]);
    expect(asked.byName).toEqual([fqn(total + 1)]);
    expect(reads.notes).toEqual([]);
  });

  it(`holds at most ${MAX_HELD} listed contracts: the walk waits, a file meanwhile reads by name`, async () => {
    const total = MAX_HELD + 2 * LIST_PAGE_SIZE;
    const { reader, asked } = catalog(total);
    const reads = liveReads(reader, Promise.resolve(total), 'auto');
    /** The cursors of the first `count` pages, as the walk asks them. */
    const pages = (count: number) =>
      Array.from({ length: count }, (_, i) => (i === 0 ? undefined : String(i * LIST_PAGE_SIZE)));
    // Nothing read yet, nothing let go: the walk stops once it holds MAX_HELD contracts.
    const last = await reads.read(fileOf(fqn(total - 1)), undefined);
    expect(last).toMatchObject({ kind: 'found' });
    expect(asked.byName).toEqual([fqn(total - 1)]);
    expect(asked.pages).toEqual(pages(MAX_HELD / LIST_PAGE_SIZE));
    // The files read what it holds: the walk goes on, and keeps none read by name already.
    for (let i = 0; i < MAX_HELD; i++) await reads.read(fileOf(fqn(i)), undefined);
    await new Promise((resume) => setTimeout(resume, 10));
    expect(asked.pages).toEqual(pages(total / LIST_PAGE_SIZE));
    expect(asked.byName).toEqual([fqn(total - 1)]);
  });

  it('stops after the first page when the files are too few of the catalog', async () => {
    const total = 20 * LIST_PAGE_SIZE;
    const { reader, asked } = catalog(total);
    // One file short of LIST_SHARE of the catalog.
    const reads = liveReads(reader, Promise.resolve(Math.ceil(total * LIST_SHARE) - 1), 'auto');
    await reads.read(fileOf(fqn(5)), undefined);
    await reads.read(fileOf(fqn(total - 1)), undefined);
    // The first page's contracts are taken from it; the rest by name.
    expect(asked.pages).toEqual([undefined]);
    expect(asked.byName).toEqual([fqn(total - 1)]);
  });

  it(`asks nothing of the list below ${FILES_FOR_LIST} files`, async () => {
    const { reader, asked } = catalog(10);
    const reads = liveReads(reader, Promise.resolve(FILES_FOR_LIST - 1), 'auto');
    await reads.read(fileOf(fqn(1)), undefined);
    expect(asked.pages).toEqual([]);
    expect(asked.byName).toEqual([fqn(1)]);
  });

  it('a list that fails half-way: what it gave is used, the rest read by name, one note', async () => {
    const total = 3 * LIST_PAGE_SIZE;
    const failure = new CatalogError(503, 'UNAVAILABLE', 'the catalog is away', 'GET');
    const { reader, asked } = catalog(total, { page: 2, error: failure });
    const reads = liveReads(reader, Promise.resolve(total), 'auto');
    const results = await Promise.all(
      [0, LIST_PAGE_SIZE + 1, total - 1].map((i) => reads.read(fileOf(fqn(i)), undefined)),
    );
    expect(results.every((result) => result.kind === 'found')).toBe(true);
    expect(asked.byName).toEqual([fqn(LIST_PAGE_SIZE + 1), fqn(total - 1)]);
    expect(reads.notes).toHaveLength(1);
    expect(reads.notes[0]).toMatch(/failed while its list of data contracts was read/);
  });

  it('keeps of the list only the contracts of the files planned, once they are known', async () => {
    const total = 2 * LIST_PAGE_SIZE;
    const { reader, asked } = catalog(total);
    const reads = liveReads(reader, Promise.resolve(total), 'auto');
    reads.onlyFor?.(new Set([fqn(1), fqn(total - 1)]));
    const kept = await reads.read(fileOf(fqn(total - 1)), undefined);
    expect(kept.kind).toBe('found');
    // A contract let go (no planned file names it) is no longer served from the list.
    await reads.read(fileOf(fqn(2)), undefined);
    expect(asked.byName).toEqual([fqn(2)]);
  });
});
