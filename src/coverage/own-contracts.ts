// Which tables have a contract of their own, from the catalog's list of data contracts
// (`GET /v1/dataContracts?fields=extension`, page after page) rather than one effective-contract
// read per table: where the tables checked are enough of the catalog's contracts for the pages to
// cost less (the reader's rule, read/listed-contracts.ts). A table the list gives a contract of
// its own is `own`, with that contract's marker; a table with no data product inherits nothing
// (a contract is inherited only from the one data product an asset belongs to) and is `none`;
// every other table is asked for its effective contract, as before.
import type { LiveContract, Page } from '../catalog/client.js';
import { AuthError, errorMessage } from '../model/errors.js';
import { FILES_FOR_LIST, LIST_PAGE_SIZE, LIST_SHARE } from '../read/listed-contracts.js';

/** A table's own contract, as the list gives it: its name, and what its marker is read from. */
export interface OwnContract {
  fullyQualifiedName: string;
  extension?: unknown;
}

export interface OwnContractsReader {
  listAll<T>(
    path: string,
    params: Record<string, string>,
    onPage?: (page: Page<T>) => void,
  ): AsyncGenerator<T>;
  redact(text: string): string;
}

/**
 * The own contracts of tables by the table's id, when the list pays for `tables` tables
 * checked; undefined when it does not (or the catalog does not serve it: `notes` says so once).
 * A token refused on the list stops the run.
 */
export async function ownContractsOfTables(
  reader: OwnContractsReader,
  tables: number,
  notes: string[],
): Promise<Map<string, OwnContract> | undefined> {
  if (tables < FILES_FOR_LIST) return undefined;
  const own = new Map<string, OwnContract>();
  let total = Infinity;
  try {
    const contracts = reader.listAll<LiveContract>(
      '/dataContracts',
      { fields: 'extension', limit: String(LIST_PAGE_SIZE) },
      (page) => {
        if (typeof page.paging.total === 'number') total = page.paging.total;
      },
    );
    let first = true;
    for await (const contract of contracts) {
      // The first page says the catalog's total: the rest is read only where it pays.
      if (first && tables < total * LIST_SHARE) return undefined;
      first = false;
      const entity = contract.entity as { id?: unknown; type?: unknown } | undefined;
      if (entity?.type !== 'table' || typeof entity.id !== 'string') continue;
      if (typeof contract.fullyQualifiedName !== 'string') continue;
      own.set(entity.id, {
        fullyQualifiedName: contract.fullyQualifiedName,
        ...(contract.extension === undefined ? {} : { extension: contract.extension }),
      });
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    notes.push(
      `The catalog's list of data contracts could not be read (${errorMessage(error, reader.redact.bind(reader))}): each table's contract was asked for one by one, which takes longer for many tables.`,
    );
    return undefined;
  }
  return own;
}
