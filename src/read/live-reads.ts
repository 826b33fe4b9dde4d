// The reader: where a plan's live contracts come from. By name (one GET a file), or by the
// catalog's list (listed-contracts.ts) when the files planned are enough of the catalog's
// contracts for the pages to cost less (docs/performance.md, "How plan reads the files and the
// catalog"). A list item is the document a GET by name gives with the same fields, less the ETag,
// which apply's If-Match is made from: a run that applies (`etagOf`) puts on each item the one a
// GET by name would have given. A catalog that does not serve the list, or whose list does not
// take the fields, is read by name, and the run says so once.
import type { LiveContract } from '../catalog/client.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { ContractFile } from '../contract/parse.js';
import type { LiveResult } from '../plan/create-plan.js';
import { track, type ProgressHooks } from '../support/progress.js';
import { readLiveContract } from './contract-inputs.js';
import { walkList, type ListedContracts, type LiveReadMode } from './listed-contracts.js';

export {
  FILES_FOR_LIST,
  LIST_PAGE_SIZE,
  LIST_SHARE,
  MAX_HELD,
  type LiveReadMode,
} from './listed-contracts.js';

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
  /**
   * Reading by pages, the walk of the list (listed-contracts.ts): whether it holds `fqn`'s
   * contract now, whether it waits for what it holds to be read, the names each page brings, its
   * next change (a file the list holds is best read first: reading-order.ts); and, with `names`,
   * every contract it listed, when it read the whole list (what `--prune` would list again).
   */
  readonly listed?: Pick<
    ListedContracts,
    'holds' | 'holding' | 'walking' | 'onListed' | 'changed' | 'everyListed'
  >;
}

/** Every live contract read by name. */
export function byName(reader: CatalogReader): LiveReads {
  return { read: (file, progress) => readLiveContract(file, reader, progress), notes: [] };
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
  etagOf?: (contract: LiveContract) => string | undefined,
  options: { names?: boolean } = {},
): LiveReads {
  const listed = walkList(reader, planned, mode, etagOf, options);
  if (listed === undefined) return byName(reader);
  return {
    notes: listed.notes,
    listed,
    onlyFor: (names) => listed.onlyFor(names),
    read: async (file, progress) => {
      const fqn = file.identity.fullyQualifiedName;
      const live = await listed.take(fqn);
      if (live === undefined) return readLiveContract(file, reader, progress);
      return track(progress, fqn, () =>
        Promise.resolve<LiveResult>({ kind: 'found', contract: live }),
      );
    },
  };
}
