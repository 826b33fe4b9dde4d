// Cursors of the sandbox's list endpoints (4.6): opaque to clients, signed so that only cursors
// the server gave are accepted, each naming the row a page ended (or began) at by its sort key.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './http.js';

/** A row's place in a list: lists are sorted by name, then id. */
export interface RowKey {
  name: string;
  id: string;
}

const INVALID = 'Invalid cursor: not a cursor this service returned';

export class Cursors {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('cursor-key').digest();
  }

  private mac(row: RowKey): string {
    return createHmac('sha256', this.key)
      .update(JSON.stringify({ name: row.name, id: row.id }))
      .digest('base64url')
      .slice(0, 22);
  }

  write(row: RowKey): string {
    const body = { name: row.name, id: row.id, mac: this.mac(row) };
    return Buffer.from(JSON.stringify(body)).toString('base64url');
  }

  read(cursor: string): RowKey {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw new ApiError(400, INVALID);
    }
    const record = parsed as { name?: unknown; id?: unknown; mac?: unknown } | null;
    if (
      typeof record?.name !== 'string' ||
      typeof record.id !== 'string' ||
      typeof record.mac !== 'string'
    )
      throw new ApiError(400, INVALID);
    const row = { name: record.name, id: record.id };
    const given = Buffer.from(record.mac);
    const expected = Buffer.from(this.mac(row));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new ApiError(400, INVALID);
    return row;
  }

  /**
   * One page of `rows` (sorted by `compare`) from the query's `limit`, `after` and `before`, with
   * its paging object: `before` when rows precede the page, `after` when rows follow it.
   */
  page<T extends RowKey>(
    rows: readonly T[],
    compare: (a: RowKey, b: RowKey) => number,
    limit: number,
    query: URLSearchParams,
  ): { page: T[]; paging: Record<string, unknown> } {
    const before = query.get('before');
    const after = query.get('after');
    if (before !== null && after !== null)
      throw new ApiError(400, 'Only one of before or after may be given');
    let start = 0;
    let end = rows.length;
    if (after !== null) {
      const cursor = this.read(after);
      start = rows.findIndex((row) => compare(row, cursor) > 0);
      if (start === -1) start = rows.length;
      end = Math.min(rows.length, start + limit);
    } else if (before !== null) {
      const cursor = this.read(before);
      end = rows.findIndex((row) => compare(row, cursor) >= 0);
      if (end === -1) end = rows.length;
      start = Math.max(0, end - limit);
    } else {
      end = Math.min(rows.length, limit);
    }
    const page = rows.slice(start, end);
    const paging: Record<string, unknown> = { total: rows.length };
    if (page.length > 0 && start > 0) paging.before = this.write(page[0]!);
    if (page.length > 0 && end < rows.length) paging.after = this.write(page[page.length - 1]!);
    return { page, paging };
  }
}
