// The tables list of the sandbox (4.6): keyset cursor pagination over (name, id), cursors
// signed so that only cursors the server gave are accepted (cursors.ts).
import type { Cursors } from './cursors.js';
import { compareText, parseFields, queryInteger, type Json } from './http.js';
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
  /**
   * Live tables in list order by database and by schema ('' for all), as a real server's
   * indexes would hold them; rebuilt when the assets change.
   */
  private index = { version: -1, lists: new Map<string, SeedAsset[]>() };

  constructor(
    private readonly store: Store,
    private readonly cursors: Cursors,
  ) {}

  // 4.6
  listTables(_user: SeedUser, query: URLSearchParams): Json {
    const limit = queryInteger(query, 'limit', 10, 1, 1000);
    const fields = parseFields(query, TABLE_FIELDS);
    const rows = this.rows(query.get('database'), query.get('databaseSchema'));
    const { page, paging } = this.cursors.page(rows, compareRows, limit, query);
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
}
