// The reader: where a plan's live contracts come from. By name (one GET a file), or by the
// catalog's list (`GET /v1/dataContracts?fields=…&limit=1000`, page after page by the cursors it
// gives) when the files planned are enough of the catalog's contracts for the pages to cost less
// (docs/performance.md, "How plan reads the files and the catalog"). A list item is the document
// a GET by name gives with the same fields, less the ETag: only a plan that applies nothing reads
// by pages (apply's reads keep their ETags). A catalog that does not serve the list, or whose list
// does not take the fields, is read by name, and the plan says so once.
import type { LiveContract } from '../catalog/client.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { ListCursors } from '../catalog/paging.js';
import { refusesExtension } from '../catalog/openmetadata-answers.js';
import type { Page } from '../catalog/types.js';
import type { ContractFile } from '../contract/parse.js';
import { AuthError, CatalogError, errorMessage, NotFoundError } from '../model/errors.js';
import type { LiveResult } from '../plan/create-plan.js';
import { track, type ProgressHooks } from '../support/progress.js';
import { CONTRACT_FIELDS, readLiveContract } from './contract-inputs.js';

/** How a plan reads live contracts: as the rule decides, or one way (tests, benchmarks). */
export type LiveReadMode = 'auto' | 'by-name' | 'by-pages';

/** Contracts asked for a page of the list. */
export const LIST_PAGE_SIZE = 1000;
/**
 * Files planned for each page of the catalog's list from which the pages are read: a page of
 * 1,000 costs about 45 reads by name at 8 connections against a catalog 20 ms away, and about
 * 380 on the same machine (issue #69's measures): at one file in ten the pages cost less from a
 * few milliseconds of distance on, and at most a few hundred milliseconds more next to the
 * catalog. Below one page's worth of files the list is not asked at all.
 */
export const FILES_PER_PAGE = 100;
/**
 * Listed contracts held at most before the files read them: the walk waits beyond this, and a
 * file whose contract is not listed yet meanwhile is read by name, so that a plan holds about two
 * pages of the list (a few megabytes of text), not the whole catalog's (70 MB at 10,000).
 */
export const MAX_HELD = 2 * LIST_PAGE_SIZE;

/** Where each file's live contract comes from. */
export interface LiveReads {
  read(file: ContractFile, progress: ProgressHooks | undefined): Promise<LiveResult>;
  /** What the run says of its reading, once (a catalog read by name for want of its list). */
  readonly notes: readonly string[];
  /**
   * Every file is known, by its contract's name: the contracts listed for no file are let go,
   * and none is kept from the pages still to come, so that what is held is the files' own.
   */
  onlyFor?(names: ReadonlySet<string>): void;
}

/** Every live contract read by name. */
export function byName(reader: CatalogReader): LiveReads {
  return { read: (file, progress) => readLiveContract(file, reader, progress), notes: [] };
}

/** Whether the list's refusal means the catalog does not serve it (or not with these fields). */
function listRefused(error: unknown): boolean {
  if (error instanceof NotFoundError) return true;
  return error instanceof CatalogError && [400, 405, 501].includes(error.status);
}

/**
 * The reader of a plan: by pages where the rule says they cost less than the reads by name of
 * the `planned` files (told as soon as the files are found), by name otherwise. Reading starts at
 * once; a file whose contract the list does not hold (a create, a contract only inherited) is
 * read by name, as are all after the list failed.
 */
export function liveReads(
  reader: CatalogReader,
  planned: Promise<number>,
  mode: LiveReadMode,
): LiveReads {
  const listPage = reader.listPage?.bind(reader);
  if (mode === 'by-name' || listPage === undefined) return byName(reader);
  const notes: string[] = [];
  const listed = new Map<string, string>();
  const waiting = new Map<string, (() => void)[]>();
  /** Contracts already read by name: not kept when the list brings them later. */
  const claimed = new Set<string>();
  let walked = false;
  let wanted: ReadonlySet<string> | undefined;
  let fellBack = false;
  /** Set while the walk waits for the files to read what it holds. */
  let held: (() => void) | undefined;
  const wake = (fqn: string) => {
    for (const resume of waiting.get(fqn) ?? []) resume();
    waiting.delete(fqn);
  };
  const take = (page: Page<LiveContract>) => {
    for (const item of page.data) {
      const fqn = item.fullyQualifiedName;
      if (typeof fqn !== 'string' || wanted?.has(fqn) === false || claimed.has(fqn)) continue;
      listed.set(fqn, JSON.stringify(item));
      wake(fqn);
    }
  };
  /** The walk goes on once the files have read enough of what it holds. */
  const release = () => {
    if (held !== undefined && listed.size < MAX_HELD) {
      const resume = held;
      held = undefined;
      resume();
    }
  };
  /** Waits while the walk holds MAX_HELD contracts; the files waiting meanwhile read by name. */
  const roomForMore = async () => {
    while (listed.size >= MAX_HELD) {
      await new Promise<void>((resume) => {
        held = resume;
        for (const fqn of [...waiting.keys()]) wake(fqn);
      });
    }
  };
  const walk = (async () => {
    const count = await planned;
    if (mode === 'auto' && count < FILES_PER_PAGE) return;
    const request = 'GET /v1/dataContracts';
    const cursors = new ListCursors(request);
    let fields = reader.refusedExtension === true ? without(CONTRACT_FIELDS) : CONTRACT_FIELDS;
    const params = () => ({ fields: fields.join(','), limit: String(LIST_PAGE_SIZE) });
    let page: Page<LiveContract>;
    try {
      page = await listPage<LiveContract>('/dataContracts', params());
    } catch (error) {
      if (!refusesExtension(error)) throw error;
      fields = without(CONTRACT_FIELDS);
      page = await listPage<LiveContract>('/dataContracts', params());
    }
    take(page);
    const total = page.paging.total;
    const pages = Math.ceil((typeof total === 'number' ? total : Infinity) / LIST_PAGE_SIZE);
    // The first page is used whatever the rule says; the rest only where pages pay.
    if (mode === 'auto' && pages > 1 && count < pages * FILES_PER_PAGE) return;
    for (let after = cursors.next(page); after !== undefined; after = cursors.next(page)) {
      await roomForMore();
      page = await listPage<LiveContract>('/dataContracts', params(), after);
      take(page);
    }
  })();
  const settled = walk.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof AuthError) throw error;
      fellBack = true;
      const why = listRefused(error)
        ? `does not serve its list of data contracts with the fields a plan reads (${errorMessage(error, reader.redact.bind(reader))})`
        : `failed while its list of data contracts was read (${errorMessage(error, reader.redact.bind(reader))})`;
      notes.push(
        `The catalog ${why}: the live contracts were read one by one, by name, which takes longer for many files.`,
      );
    },
  );
  settled
    .finally(() => {
      walked = true;
      for (const fqn of [...waiting.keys()]) wake(fqn);
    })
    .catch(() => undefined);
  const fromList = (fqn: string): LiveResult | undefined => {
    const text = listed.get(fqn);
    if (text === undefined) return undefined;
    listed.delete(fqn);
    release();
    return { kind: 'found', contract: JSON.parse(text) as LiveContract };
  };
  return {
    notes,
    onlyFor: (names) => {
      wanted = names;
      for (const fqn of [...listed.keys()]) if (!names.has(fqn)) listed.delete(fqn);
      release();
    },
    read: async (file, progress) => {
      const fqn = file.identity.fullyQualifiedName;
      let live = fromList(fqn);
      // While the walk waits on the files, a file does not wait on the walk.
      while (live === undefined && !walked && held === undefined) {
        await new Promise<void>((resume) => {
          waiting.set(fqn, [...(waiting.get(fqn) ?? []), resume]);
        });
        live = fromList(fqn);
      }
      // A token refused on the list stops the plan, as it would by name.
      if (live === undefined && walked && !fellBack) await settled;
      if (live === undefined) {
        claimed.add(fqn);
        return readLiveContract(file, reader, progress);
      }
      const found = live;
      return track(progress, fqn, () => Promise.resolve(found));
    },
  };
}

function without(fields: readonly string[]): string[] {
  return fields.filter((field) => field !== 'extension');
}
