// The catalog's list of data contracts read page after page (`GET /v1/dataContracts?fields=…&limit=1000`,
// by the cursors it gives) while the contracts it holds are taken, one by one, by name: the
// machinery behind a plan's reads by pages (live-reads.ts) and apply's check of a saved plan
// (apply/check-plan.ts). The walk holds at most MAX_HELD contracts not taken yet; a contract the
// list does not hold (or not yet, while the walk waits), or every one after the list failed, is
// for the caller to read by name. A list item carries no ETag: the one a GET by name would give,
// as far as If-Match needs it, is put on it (`etagOf`).
import type { LiveContract } from '../catalog/client.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { withEtag } from '../catalog/etag.js';
import { ListCursors } from '../catalog/paging.js';
import { refusesExtension } from '../catalog/openmetadata-answers.js';
import type { Page } from '../catalog/types.js';
import { AuthError, CatalogError, errorMessage, NotFoundError } from '../model/errors.js';
import { CONTRACT_FIELDS } from './contract-inputs.js';

/** How live contracts are read: as the rule decides, or one way (tests, benchmarks). */
export type LiveReadMode = 'auto' | 'by-name' | 'by-pages';

/**
 * Contracts asked for a page of the list: a page of 250 is about 1.75 MB of JSON at the bench's
 * contracts (10 to 60 columns), parsed whole as it arrives. Pages of 1,000 took the same time and
 * CPU to plan 10,000 files at +20 ms, and 30–35 MiB more at the peak (issue #69's measures).
 */
export const LIST_PAGE_SIZE = 250;
/** Below this many files the list is not asked at all (a pull request's changed files). */
export const FILES_FOR_LIST = 100;
/**
 * The share of the catalog's contracts the files must be for the whole list to be read: reading
 * it costs about what reads by name of 4.5% of its contracts do against a catalog 20 ms away, and
 * of 38% on the same machine (issue #69's measures, N = 10,000, 8 connections); at a tenth the
 * pages cost less from a few milliseconds of distance on, and at most a few hundred milliseconds
 * more next to the catalog.
 */
export const LIST_SHARE = 0.1;
/**
 * Listed contracts held at most before they are taken: the walk waits beyond this, and a contract
 * not listed yet meanwhile is read by name, so that a run holds a few thousand contracts of the
 * list, not the whole catalog's (70 MB of JSON at 10,000). They are held as parsed: as JSON text
 * they took as much of the heap, and writing and parsing them again cost CPU.
 */
export const MAX_HELD = 2000;

/** What the walk keeps of every contract it lists, when asked to: its name and its marker. */
export interface ListedName {
  fullyQualifiedName: string;
  extension?: unknown;
}

export interface ListedContracts {
  /**
   * The contract listed under `fqn`, once (with its ETag put on); undefined when
   * the list does not hold it, or not yet while the walk waits for room, or the list failed: the
   * caller reads it by name then, and the list's copy, if it comes later, is not kept. Rejects
   * with the AuthError the list met.
   */
  take(fqn: string): Promise<LiveContract | undefined>;
  /** Every contract to be taken is known: the rest are let go, and none is kept from pages to come. */
  onlyFor(names: ReadonlySet<string>): void;
  /** What the run says of its reading, once (a catalog read by name for want of its list). */
  readonly notes: readonly string[];
  /** Whether the list holds `fqn`'s contract now, not taken yet. */
  holds(fqn: string): boolean;
  /** Whether the walk waits for what it holds to be taken before it reads on. */
  holding(): boolean;
  /** Whether the walk is still to end (it may bring more contracts). */
  walking(): boolean;
  /** `listener` is told the names of the contracts each page brings that are held. */
  onListed(listener: (fqns: readonly string[]) => void): void;
  /** Resolves at the walk's next change: a page held, the walk waiting for room, or its end. */
  changed(): Promise<void>;
  /**
   * With `names`: every contract of the catalog's list, by its name and marker, once the walk
   * has read every page with `extension`; undefined when it did not (the rule stopped it, the
   * list failed, or the catalog refused `extension`).
   */
  everyListed(): Promise<ListedName[] | undefined>;
}

/** Whether the list's refusal means the catalog does not serve it (or not with these fields). */
function listRefused(error: unknown): boolean {
  if (error instanceof NotFoundError) return true;
  return error instanceof CatalogError && [400, 405, 501].includes(error.status);
}

function without(fields: readonly string[]): string[] {
  return fields.filter((field) => field !== 'extension');
}

/**
 * Starts walking the catalog's list at once, unless the reader cannot list or `mode` is by-name
 * (undefined then). Under `auto`, only when `wanted` (how many contracts will be taken, told as
 * soon as known) is FILES_FOR_LIST or more, and past the first page only when it is LIST_SHARE of
 * the catalog's total or more.
 */
export function walkList(
  reader: CatalogReader,
  wanted: Promise<number>,
  mode: LiveReadMode,
  etagOf?: (contract: LiveContract) => string | undefined,
  options: { names?: boolean } = {},
): ListedContracts | undefined {
  const listPage = reader.listPage?.bind(reader);
  if (mode === 'by-name' || listPage === undefined) return undefined;
  const notes: string[] = [];
  const listed = new Map<string, LiveContract>();
  const waiting = new Map<string, (() => void)[]>();
  /** Contracts already read by name: not kept when the list brings them later. */
  const claimed = new Set<string>();
  let walked = false;
  let only: ReadonlySet<string> | undefined;
  let fellBack = false;
  /** Set while the walk waits for what it holds to be taken. */
  let held: (() => void) | undefined;
  /** With `names`: every contract listed, and whether the walk read every page. */
  const names: ListedName[] | undefined = options.names === true ? [] : undefined;
  let whole = false;
  /** Whether the list was read with `extension`, which holds the markers `names` are for. */
  let markers = true;
  const wake = (fqn: string) => {
    for (const resume of waiting.get(fqn) ?? []) resume();
    waiting.delete(fqn);
  };
  const listeners: ((fqns: readonly string[]) => void)[] = [];
  let signal!: () => void;
  let change = new Promise<void>((resolve) => (signal = resolve));
  /** Tells whoever waits on `changed` that the walk changed. */
  const changedNow = () => {
    const resolve = signal;
    change = new Promise<void>((next) => (signal = next));
    resolve();
  };
  const keep = (page: Page<LiveContract>) => {
    const kept: string[] = [];
    for (const item of page.data) {
      const fqn = item.fullyQualifiedName;
      if (names !== undefined && typeof fqn === 'string')
        names.push({
          fullyQualifiedName: fqn,
          ...(item.extension === undefined ? {} : { extension: item.extension }),
        });
      if (typeof fqn !== 'string' || only?.has(fqn) === false || claimed.has(fqn)) continue;
      listed.set(fqn, item);
      kept.push(fqn);
      wake(fqn);
    }
    for (const listener of listeners) listener(kept);
    changedNow();
  };
  /** The walk goes on once enough of what it holds was taken. */
  const release = () => {
    if (held !== undefined && listed.size < MAX_HELD) {
      const resume = held;
      held = undefined;
      resume();
    }
  };
  /** Waits while the walk holds MAX_HELD contracts; the takers waiting meanwhile read by name. */
  const roomForMore = async () => {
    while (listed.size >= MAX_HELD) {
      await new Promise<void>((resume) => {
        held = resume;
        for (const fqn of [...waiting.keys()]) wake(fqn);
        changedNow();
      });
    }
  };
  const walk = (async () => {
    const count = await wanted;
    if (mode === 'auto' && count < FILES_FOR_LIST) return;
    const cursors = new ListCursors('GET /v1/dataContracts');
    let fields = reader.refusedExtension === true ? without(CONTRACT_FIELDS) : CONTRACT_FIELDS;
    markers = fields.includes('extension');
    const params = () => ({ fields: fields.join(','), limit: String(LIST_PAGE_SIZE) });
    let page: Page<LiveContract>;
    try {
      page = await listPage<LiveContract>('/dataContracts', params());
    } catch (error) {
      if (!refusesExtension(error)) throw error;
      fields = without(CONTRACT_FIELDS);
      markers = false;
      page = await listPage<LiveContract>('/dataContracts', params());
    }
    keep(page);
    const total = typeof page.paging.total === 'number' ? page.paging.total : Infinity;
    // The first page is used whatever the rule says; the rest only where pages pay.
    if (mode === 'auto' && total > LIST_PAGE_SIZE && count < total * LIST_SHARE) return;
    for (let after = cursors.next(page); after !== undefined; after = cursors.next(page)) {
      await roomForMore();
      page = await listPage<LiveContract>('/dataContracts', params(), after);
      keep(page);
    }
    whole = true;
  })();
  const settled = walk.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof AuthError) throw error;
      fellBack = true;
      const why = listRefused(error)
        ? `does not serve its list of data contracts with the fields this tool reads (${errorMessage(error, reader.redact.bind(reader))})`
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
      changedNow();
    })
    .catch(() => undefined);
  const fromList = (fqn: string): LiveContract | undefined => {
    const contract = listed.get(fqn);
    if (contract === undefined) return undefined;
    listed.delete(fqn);
    release();
    return etagOf === undefined ? contract : withEtag(contract, etagOf(contract));
  };
  return {
    notes,
    holds: (fqn) => listed.has(fqn),
    holding: () => held !== undefined,
    walking: () => !walked,
    onListed: (listener) => {
      listeners.push(listener);
    },
    changed: () => change,
    everyListed: async () => {
      await settled;
      return whole && !fellBack && markers ? names : undefined;
    },
    onlyFor: (wanted) => {
      only = wanted;
      for (const fqn of [...listed.keys()]) if (!wanted.has(fqn)) listed.delete(fqn);
      release();
    },
    take: async (fqn) => {
      let live = fromList(fqn);
      // While the walk waits for room, a taker does not wait on the walk.
      while (live === undefined && !walked && held === undefined) {
        await new Promise<void>((resume) => {
          waiting.set(fqn, [...(waiting.get(fqn) ?? []), resume]);
        });
        live = fromList(fqn);
      }
      // A token refused on the list stops the run, as it would by name.
      if (live === undefined && walked && !fellBack) await settled;
      if (live === undefined) claimed.add(fqn);
      return live;
    },
  };
}
