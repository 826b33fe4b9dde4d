// The tables list of the sandbox (4.6): keyset cursor pagination over (name, id), cursors
// signed so that only cursors the server gave are accepted.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, compareText, parseFields, queryInteger, type Json } from './http.js';
import type { SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';

const TABLE_FIELDS = new Set([
  'owner',
  'owners',
  'tags',
  'columns',
  'followers',
  'tableConstraints',
  'usageSummary',
  'dataProducts',
  'extension',
]);

function databaseFqn(asset: SeedAsset): string {
  return `${asset.service?.name ?? ''}.${asset.database?.name ?? ''}`;
}

function compareRows(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return compareText(a.name, b.name) || compareText(a.id, b.id);
}

function tableView(asset: SeedAsset, fields: ReadonlySet<string>): Json {
  const view: Json = {
    id: asset.id,
    name: asset.name,
    fullyQualifiedName: asset.fullyQualifiedName,
    description: asset.description,
    serviceType: asset.serviceType,
    service:
      asset.service === undefined
        ? undefined
        : { type: 'databaseService', name: asset.service.name },
    database:
      asset.database === undefined
        ? undefined
        : { type: 'database', name: asset.database.name, fullyQualifiedName: databaseFqn(asset) },
    databaseSchema:
      asset.databaseSchema === undefined
        ? undefined
        : {
            type: 'databaseSchema',
            name: asset.databaseSchema.name,
            fullyQualifiedName: `${databaseFqn(asset)}.${asset.databaseSchema.name}`,
          },
    deleted: false,
  };
  for (const field of fields) {
    const source = field === 'owner' ? 'owners' : field;
    if (asset[source] !== undefined) view[source] = asset[source];
  }
  for (const key of Object.keys(view)) if (view[key] === undefined) delete view[key];
  return view;
}

export class Tables {
  private readonly cursorKey: Buffer;
  /**
   * Live tables in list order by database and by schema ('' for all), as a real server's
   * indexes would hold them; rebuilt when the assets change.
   */
  private index = { version: -1, lists: new Map<string, SeedAsset[]>() };

  constructor(
    private readonly store: Store,
    secret: string,
  ) {
    this.cursorKey = createHmac('sha256', secret).update('cursor-key').digest();
  }

  // 4.6
  listTables(_user: SeedUser, query: URLSearchParams): Json {
    const limit = queryInteger(query, 'limit', 10, 1, 1000);
    const before = query.get('before');
    const after = query.get('after');
    if (before !== null && after !== null)
      throw new ApiError(400, 'Only one of before or after may be given');
    const fields = parseFields(query, TABLE_FIELDS);
    const rows = this.rows(query.get('database'), query.get('databaseSchema'));
    let start = 0;
    let end = rows.length;
    if (after !== null) {
      const cursor = this.readCursor(after);
      start = rows.findIndex((row) => compareRows(row, cursor) > 0);
      if (start === -1) start = rows.length;
      end = Math.min(rows.length, start + limit);
    } else if (before !== null) {
      const cursor = this.readCursor(before);
      end = rows.findIndex((row) => compareRows(row, cursor) >= 0);
      if (end === -1) end = rows.length;
      start = Math.max(0, end - limit);
    } else {
      end = Math.min(rows.length, limit);
    }
    const page = rows.slice(start, end);
    const paging: Json = { total: rows.length };
    if (page.length > 0 && start > 0) paging.before = this.writeCursor(page[0]!);
    if (page.length > 0 && end < rows.length)
      paging.after = this.writeCursor(page[page.length - 1]!);
    return { data: page.map((asset) => tableView(asset, fields)), paging };
  }

  /** The live tables of a database, of a schema, or of the catalog, in list order. */
  private rows(database: string | null, databaseSchema: string | null): readonly SeedAsset[] {
    if (this.index.version !== this.store.assets.version) {
      const lists = new Map<string, SeedAsset[]>();
      const add = (key: string, asset: SeedAsset): void => {
        const list = lists.get(key);
        if (list === undefined) lists.set(key, [asset]);
        else list.push(asset);
      };
      for (const asset of this.store.assets.values()) {
        if (asset.entityType !== 'table' || asset.deleted === true) continue;
        const databaseName = databaseFqn(asset);
        add('', asset);
        add(`database\u0000${databaseName}`, asset);
        add(`schema\u0000${databaseName}.${asset.databaseSchema?.name ?? ''}`, asset);
      }
      for (const list of lists.values()) list.sort(compareRows);
      this.index = { version: this.store.assets.version, lists };
    }
    const all = this.index.lists.get('') ?? [];
    const byDatabase =
      database === null ? all : (this.index.lists.get(`database\u0000${database}`) ?? []);
    if (databaseSchema === null) return byDatabase;
    const bySchema = this.index.lists.get(`schema\u0000${databaseSchema}`) ?? [];
    // Both given: the schema's tables, if the schema is in that database.
    return database === null
      ? bySchema
      : bySchema.filter((asset) => databaseFqn(asset) === database);
  }

  private writeCursor(row: { name: string; id: string }): string {
    const body = JSON.stringify({ name: row.name, id: row.id });
    const mac = createHmac('sha256', this.cursorKey).update(body).digest('base64url').slice(0, 22);
    return Buffer.from(JSON.stringify({ name: row.name, id: row.id, mac })).toString('base64url');
  }

  private readCursor(cursor: string): { name: string; id: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    const record = parsed as { name?: unknown; id?: unknown; mac?: unknown };
    if (
      typeof record.name !== 'string' ||
      typeof record.id !== 'string' ||
      typeof record.mac !== 'string'
    ) {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    const expected = createHmac('sha256', this.cursorKey)
      .update(JSON.stringify({ name: record.name, id: record.id }))
      .digest('base64url')
      .slice(0, 22);
    const given = Buffer.from(record.mac);
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new ApiError(400, 'Invalid cursor: not a cursor this service returned');
    }
    return { name: record.name, id: record.id };
  }
}
