// How much of the catalog has contracts: walks the tables list page by page (only cursors the
// server returned), asks each table's effective contract, and matches it with the files in git.
import type { LiveContract, Page } from '../catalog/client.js';
import type { ContractFile } from '../contract/parse.js';
import { AuthError, CatalogError, NotFoundError } from '../model/errors.js';
import { track, type ProgressHooks } from '../support/progress.js';
import { managerOfContract } from '../read/marker.js';
import { sameRepository, type Manager, type Repository } from '../git/repository.js';
import {
  ownContractsOfTables,
  type OwnContract,
  type OwnContractsReader,
} from './own-contracts.js';

export interface CoverageReader extends OwnContractsReader {
  getEffectiveContract(
    entityId: string,
    entityType: string,
    fields?: readonly string[],
  ): Promise<LiveContract>;
}

/** A row of the tables list: the client has checked its id and fullyQualifiedName are strings. */
interface TableRow {
  id: string;
  name: string;
  fullyQualifiedName: string;
  dataProducts?: unknown[];
}

export interface CoverageRow {
  table: string;
  id: string;
  /** own: the table has its own contract; inherited: from its data product; none. */
  status: 'own' | 'inherited' | 'none';
  /** FQN of the contract in force (the product's, when inherited). */
  contract: string | null;
  /** Data product the contract is inherited from, when the catalog names it. */
  dataProduct: string | null;
  /** The contract file in git that manages the table's own contract. */
  file: string | null;
  /** A contract file in git for this table whose contract the catalog does not have yet. */
  toCreate: string | null;
  /**
   * Who manages the table's own contract, by its marker (read/marker.ts): this repository,
   * another one, or none; null for a table without its own contract.
   */
  managed: 'here' | 'elsewhere' | 'none' | null;
  /** The repository and file that manage it, as its marker names them. */
  managedBy: string | null;
}

export interface CoverageReport {
  rows: CoverageRow[];
  /** What the run says of its reading, once (each table asked for want of the contracts' list). */
  notes: string[];
  totals: {
    tables: number;
    own: number;
    ownInGit: number;
    inherited: number;
    none: number;
    /** Tables without their own contract that a file in git will create. */
    toCreate: number;
    /** Own contracts marked as managed from this repository, from another, and from none. */
    managedHere: number;
    managedElsewhere: number;
    managedByNone: number;
    withContract: number;
    percentWithContract: number;
    percentInGit: number;
  };
}

export interface CoverageOptions {
  database?: string;
  /** Rows per page (1 to 1000). */
  pageSize?: number;
  /** Told as each table's check starts and ends, and the number of tables once a page says it. */
  progress?: ProgressHooks;
  /** Called after each page arrives (tests change the catalog between pages with it). */
  onPage?: (page: Page<TableRow>) => void;
  /** The repository of the files, whose marked contracts are "managed here". */
  repository?: Repository;
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

function productName(row: TableRow): string | null {
  const products = row.dataProducts ?? [];
  if (products.length !== 1) return null;
  const product = products[0];
  if (typeof product === 'string') return product;
  const name = (product as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
}

export async function collectCoverage(
  reader: CoverageReader,
  files: readonly ContractFile[],
  options: CoverageOptions = {},
): Promise<CoverageReport> {
  const byContract = new Map(files.map((file) => [file.identity.fullyQualifiedName, file.file]));
  const byTable = new Map(
    files
      .filter((file) => file.identity.entity.type === 'table')
      .map((file) => [file.identity.entity.fullyQualifiedName, file.file]),
  );
  const params: Record<string, string> = {
    limit: String(options.pageSize ?? 1000),
    fields: 'dataProducts',
  };
  if (options.database !== undefined) params.database = options.database;
  const seen = new Set<string>();
  const rows: CoverageRow[] = [];
  let pending: Promise<void>[] = [];
  const notes: string[] = [];
  /** The tables' own contracts from the contracts' list, once the tables' first page says how many. */
  let owned: Promise<Map<string, OwnContract> | undefined> | undefined;
  /** What the list says of a table, where it says enough: its own contract, or none to inherit. */
  const fromList = async (table: TableRow): Promise<OwnContract | 'none' | undefined> => {
    const own = await owned;
    if (own === undefined) return undefined;
    const listed = own.get(table.id);
    if (listed !== undefined) return listed;
    // Inherited only from the one data product the table belongs to: with none, nothing.
    return Array.isArray(table.dataProducts) && table.dataProducts.length === 0
      ? 'none'
      : undefined;
  };
  const classify = async (table: TableRow): Promise<void> => {
    let status: CoverageRow['status'] = 'none';
    let contract: string | null = null;
    let manager: Manager | undefined;
    const listed = await fromList(table);
    if (listed !== undefined) {
      await track(options.progress, table.fullyQualifiedName, () => Promise.resolve());
      if (listed !== 'none') {
        status = 'own';
        contract = listed.fullyQualifiedName;
        manager = managerOfContract({ extension: listed.extension });
      }
    } else {
      try {
        const effective = await track(options.progress, table.fullyQualifiedName, () =>
          reader.getEffectiveContract(table.id, 'table', ['extension']),
        );
        status = effective.inherited === true ? 'inherited' : 'own';
        contract = effective.fullyQualifiedName;
        manager = managerOfContract(effective);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    rows.push({
      table: table.fullyQualifiedName,
      id: table.id,
      status,
      contract,
      dataProduct: status === 'inherited' ? productName(table) : null,
      file: status === 'own' && contract !== null ? (byContract.get(contract) ?? null) : null,
      toCreate: status === 'own' ? null : (byTable.get(table.fullyQualifiedName) ?? null),
      managed:
        status !== 'own'
          ? null
          : manager === undefined
            ? 'none'
            : options.repository !== undefined &&
                sameRepository(manager.repository, options.repository.url)
              ? 'here'
              : 'elsewhere',
      managedBy:
        status === 'own' && manager !== undefined
          ? `${manager.repository} (${manager.path})`
          : null,
    });
  };
  const onPage = (page: Page<TableRow>): void => {
    if (page.paging.total !== undefined) options.progress?.total?.(page.paging.total);
    owned ??= ownContractsOfTables(reader, page.paging.total ?? page.data.length, notes);
    owned.catch(() => undefined);
    options.onPage?.(page);
  };
  let tables: AsyncGenerator<TableRow>;
  try {
    tables = reader.listAll<TableRow>('/tables', params, onPage);
    const first = await tables.next();
    if (first.done !== true) {
      seen.add(first.value.id);
      pending.push(classify(first.value));
    }
  } catch (error) {
    // Servers that do not know the dataProducts field of tables: list without it.
    if (!(error instanceof CatalogError) || error instanceof AuthError || error.status !== 400)
      throw error;
    delete params.fields;
    tables = reader.listAll<TableRow>('/tables', params, onPage);
  }
  for await (const table of tables) {
    if (seen.has(table.id)) continue;
    seen.add(table.id);
    pending.push(classify(table));
    // Bound the work in flight to about a page, so memory stays flat on large catalogs.
    if (pending.length >= 1000) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  rows.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : a.id < b.id ? -1 : 1));
  const count = (status: CoverageRow['status']) =>
    rows.filter((row) => row.status === status).length;
  const own = count('own');
  const inherited = count('inherited');
  const ownInGit = rows.filter((row) => row.file !== null).length;
  return {
    rows,
    notes,
    totals: {
      tables: rows.length,
      own,
      ownInGit,
      inherited,
      none: count('none'),
      toCreate: rows.filter((row) => row.toCreate !== null).length,
      managedHere: rows.filter((row) => row.managed === 'here').length,
      managedElsewhere: rows.filter((row) => row.managed === 'elsewhere').length,
      managedByNone: rows.filter((row) => row.managed === 'none').length,
      withContract: own + inherited,
      percentWithContract: percent(own + inherited, rows.length),
      percentInGit: percent(ownInGit, rows.length),
    },
  };
}
