// What a plan says of the contract files a change deletes whose contracts it does not delete: a
// reviewer who reads a deleted file as a deleted contract is told that the contract stays in the
// catalog as it is, that no file manages it any more, and how --prune would delete it.
import { printable } from '../support/printable.js';
import type { Plan } from '../plan/types.js';

/** A contract file a change deletes, and the contract its last version named. */
export interface DeletedContractFile {
  /** Relative to the working directory, with forward slashes, as a plan names files. */
  file: string;
  /** The fullyQualifiedName its last version gave, or null when that did not read as a contract. */
  fullyQualifiedName: string | null;
}

/** What a plan made with or without `--prune` says of the contracts deleted files named. */
export interface DeletedSaying {
  /** The plan was made with --prune: the deleted files left are not this repository's to prune. */
  pruning?: boolean;
  /**
   * Those of them another repository manages, and this repository's contracts whose files are
   * gone but whose deletion is not proven, each said (prune/plan-deletions.ts).
   */
  keptForOthers?: readonly string[];
  /**
   * A plain plan's: the contracts this repository manages whose files are gone (each with the
   * file its marker names), or why the catalog could not be asked (prune/orphans.ts).
   */
  orphans?: { orphans: readonly ManagedOrphan[] } | { unknown: string };
}

/** A contract this repository manages whose file is gone, and that file. */
export interface ManagedOrphan {
  fullyQualifiedName: string;
  file: string;
}

/** What a plain plan says of the contracts this repository manages whose files are gone. */
function orphansText(
  orphans: DeletedSaying['orphans'],
  code: (text: string) => string,
  words: (text: string) => string,
): string {
  if (orphans === undefined) return '';
  if ('unknown' in orphans)
    return `Could not look for the contracts this repository manages whose files are gone: ${words(printable(orphans.unknown))}.`;
  const found = orphans.orphans;
  if (found.length === 0) return '';
  const one = found.length === 1;
  const named = found
    .map(
      ({ fullyQualifiedName, file }) =>
        `${code(printable(fullyQualifiedName))} (${code(printable(file))})`,
    )
    .join(', ');
  return one
    ? `Managed from this repository, but its file is gone: ${named}. It stays in the catalog as it is: plan with --prune to delete it (or to see why --prune keeps it), or bring its file back.`
    : `Managed from this repository, but their files are gone: ${named}. They stay in the catalog as they are: plan with --prune to delete them (or to see why --prune keeps any), or bring their files back.`;
}

/**
 * The sentence for `deleted` (none: ''), deleted `where` ("in this pull request", "since main"),
 * each file and name shown through `code` (a code span in markdown).
 */
export function deletedFilesText(
  deleted: readonly DeletedContractFile[],
  where: string,
  code: (text: string) => string = (text) => text,
  saying: DeletedSaying = {},
  /** How the catalog's words (repository names, reasons) are written: plain text by default. */
  words: (text: string) => string = (text) => text,
): string {
  if (deleted.length === 0)
    return saying.pruning === true && (saying.keptForOthers ?? []).length > 0
      ? `Not deleted by --prune: ${(saying.keptForOthers ?? []).map((kept) => words(printable(kept))).join('; ')}.`
      : orphansText(saying.orphans, code, words);
  const one = deleted.length === 1;
  const files = deleted
    .map(({ file, fullyQualifiedName }) =>
      fullyQualifiedName === null
        ? code(printable(file))
        : `${code(printable(file))} (contract ${code(printable(fullyQualifiedName))})`,
    )
    .join(', ');
  const others = (saying.keptForOthers ?? []).map((kept) => words(printable(kept)));
  const why =
    saying.pruning === true
      ? `${one ? 'Its contract is' : 'Their contracts are'} not deleted: --prune deletes only contracts marked as managed from this repository${others.length > 0 ? `, and ${others.join('; ')}` : ''}. ${one ? 'It stays' : 'They stay'} in the catalog as ${one ? 'it is' : 'they are'}, managed by no file here.`
      : `${one ? 'Its contract stays' : 'Their contracts stay'} in the catalog as ${one ? 'it is' : 'they are'}, and no file manages ${one ? 'it' : 'them'} any more: plan and apply with --prune to delete ${one ? 'it' : 'them'} (contracts managed from this repository only), or delete ${one ? 'it' : 'them'} in the catalog.`;
  return `Deleted ${where}: ${files}. ${why}`;
}

/**
 * `deleted` less the files whose contract a file of `plan` names: such a file was moved (or its
 * contract given to another file), and its contract is still managed.
 */
export function leftUnmanaged(
  deleted: readonly DeletedContractFile[],
  plan: Plan,
): DeletedContractFile[] {
  const planned = new Set(plan.changes.map((change) => change.fullyQualifiedName));
  return deleted.filter(
    ({ fullyQualifiedName }) => fullyQualifiedName === null || !planned.has(fullyQualifiedName),
  );
}
