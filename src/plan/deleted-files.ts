// What a plan says of the contract files a change deletes. The tool deletes no contract (the
// catalog interface has no delete), so a reviewer who reads a deleted file as a deleted contract
// is told that the contract stays in the catalog as it is, and that no file manages it any more.
import { printable } from '../printable.js';
import type { Plan } from './types.js';

/** A contract file a change deletes, and the contract its last version named. */
export interface DeletedContractFile {
  /** Relative to the working directory, with forward slashes, as a plan names files. */
  file: string;
  /** The fullyQualifiedName its last version gave, or null when that did not read as a contract. */
  fullyQualifiedName: string | null;
}

/**
 * The sentence for `deleted` (none: ''), deleted `where` ("in this pull request", "since main"),
 * each file and name shown through `code` (a code span in markdown).
 */
export function deletedFilesText(
  deleted: readonly DeletedContractFile[],
  where: string,
  code: (text: string) => string = (text) => text,
): string {
  if (deleted.length === 0) return '';
  const one = deleted.length === 1;
  const files = deleted
    .map(({ file, fullyQualifiedName }) =>
      fullyQualifiedName === null
        ? code(printable(file))
        : `${code(printable(file))} (contract ${code(printable(fullyQualifiedName))})`,
    )
    .join(', ');
  return `Deleted ${where}: ${files}. contracts-gitops deletes no contract: ${one ? 'it' : 'each'} stays in the catalog as it is, and no file manages ${one ? 'it' : 'them'} any more; delete ${one ? 'it' : 'them'} in the catalog if ${one ? 'it' : 'they'} should go.`;
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
