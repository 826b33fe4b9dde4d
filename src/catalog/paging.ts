// Paging through a catalog's list by the cursors it returns, bounded: a cursor the catalog gave
// before (its paging goes round in a circle) or a list longer than any catalog holds is refused as
// the catalog's fault, so that a list never runs for ever and nothing is concluded from it.
import { createHash } from 'node:crypto';
import { CatalogError } from '../model/errors.js';
import type { Page } from './types.js';

/**
 * The most pages one list is read in: 10,000 pages is 10 million tables at coverage's 1,000 a
 * page, and 1 million contracts at prune's 100, beyond any catalog this tool manages; a list
 * that goes on past it (a catalog that makes up a fresh cursor with every page) is refused.
 */
export const MAX_LIST_PAGES = 10_000;

/**
 * The cursors of one list, page after page. `next` says where the next page starts, or undefined
 * after the last page; it throws a CatalogError when the catalog gives a cursor it gave before, or
 * a page past MAX_LIST_PAGES.
 */
export class ListCursors {
  /** A digest of each cursor given so far (a hostile cursor may be long): the page it ended. */
  private readonly seen = new Map<string, number>();
  private pages = 0;

  /** `request` names the list in errors: `GET /v1/dataContracts`. */
  constructor(
    private readonly request: string,
    private readonly maxPages = MAX_LIST_PAGES,
  ) {}

  next(page: Page<unknown>): { after: string } | undefined {
    this.pages += 1;
    const after = page.paging.after;
    if (page.data.length === 0 || after === undefined || after === null || after === '')
      return undefined;
    const digest = createHash('sha256').update(after).digest('base64');
    const before = this.seen.get(digest);
    if (before !== undefined)
      throw this.fault(
        `gave page ${this.pages} the same next-page cursor (paging.after) as page ${before}: its paging goes round in a circle, and the list would never end`,
      );
    if (this.pages >= this.maxPages)
      throw this.fault(
        `went on past ${this.maxPages.toLocaleString('en-US')} pages without an end, more than any catalog this tool manages holds`,
      );
    this.seen.set(digest, this.pages);
    return { after };
  }

  private fault(what: string): CatalogError {
    return new CatalogError(
      200,
      'UNEXPECTED_RESPONSE',
      `the catalog's list ${what}. This is the catalog's fault (or a proxy's): nothing was concluded from the list, and nothing was changed`,
      this.request,
    );
  }
}
