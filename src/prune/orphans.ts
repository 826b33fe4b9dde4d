// What a plain plan (no --prune, no --changed-since) says of the contracts this repository
// manages whose files are gone: their names, and that --prune is what deletes them. The plan
// deletes nothing, so no proof from history is asked (`plan --prune` says which it would delete
// and why it keeps the others). Not read from the catalog's whole list, which cost a plan of
// 10,000 contracts a fifth more CPU, the CLI's and the sandbox's (measured): git says which
// contract files under the folders planned were ever deleted (in HEAD's history, or from the
// working tree), the contract each last named is read by name, and it is an orphan when its
// marker names this repository and a file that is gone, and no file of the checkout names it.
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import type { LiveContract } from '../catalog/client.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { AuthError, NotFoundError, errorMessage } from '../model/errors.js';
import { sameRepository, type Repository } from '../git/repository.js';
import { deletedFilesInHistory } from '../git/deleted-history.js';
import { isContractFilePath } from '../read/load.js';
import { managerOfContract } from '../read/marker.js';
import { contractsNamedInCheckout } from './declared.js';
import { contractNamedIn, present } from './proof.js';

/** A contract this repository manages whose file is gone. */
export interface Orphan {
  fullyQualifiedName: string;
  /** Its file as the marker names it, relative to the working directory, as a plan names files. */
  file: string;
}

/** What the look for orphans found: them, or why it could not look. */
export type Orphans = { orphans: Orphan[] } | { unknown: string };

export interface OrphanScope {
  cwd: string;
  /** The folders and files planned (absolute). */
  roots: readonly string[];
  /** The fullyQualifiedName of every contract file read in the run. */
  declared: ReadonlySet<string>;
  /** Those files (absolute paths): none names an orphan, so none is read again. */
  read?: ReadonlySet<string>;
}

/** Whether `absolute` is one of `roots` or under one of them. */
function under(absolute: string, roots: readonly string[]): boolean {
  return roots.some((root) => absolute === root || absolute.startsWith(`${root}${path.sep}`));
}

/** The contracts `repository` manages whose files under `scope.roots` are gone. */
export async function findOrphans(
  reader: CatalogReader,
  repository: Repository,
  scope: OrphanScope,
): Promise<Orphans> {
  const folder = await realpath(scope.cwd).catch(() => scope.cwd);
  const roots = await Promise.all(
    scope.roots.map((root) => realpath(root).catch(() => path.resolve(folder, root))),
  );
  const pathspecs = roots.flatMap((root) => {
    const relative = path.relative(repository.top, root).split(path.sep).join('/');
    return relative.startsWith('..') || path.isAbsolute(relative) ? [] : [relative || '.'];
  });
  const deleted = await deletedFilesInHistory(repository.top, pathspecs, isContractFilePath);
  // The contracts the deleted files last named that no file read now declares.
  const names = new Set<string>();
  for (const { file, text } of deleted) {
    if (await present(path.join(repository.top, ...file.split('/')))) continue;
    const named = contractNamedIn(text, file);
    if (named !== undefined && !scope.declared.has(named)) names.add(named);
  }
  const gone = new Map<string, string>();
  try {
    const read = await Promise.all(
      [...names].map(async (fqn) => {
        try {
          return await reader.getContractByName(fqn, ['extension']);
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      }),
    );
    for (const contract of read.filter((c): c is LiveContract => c !== undefined)) {
      const manager = managerOfContract(contract);
      if (manager === undefined || !sameRepository(manager.repository, repository.url)) continue;
      const absolute = path.join(repository.top, ...manager.path.split('/'));
      if (!under(absolute, roots) || (await present(absolute))) continue;
      gone.set(
        contract.fullyQualifiedName,
        path.relative(folder, absolute).split(path.sep).join('/'),
      );
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    return { unknown: errorMessage(error, reader.redact.bind(reader)) };
  }
  // A file anywhere in the checkout that names the contract still manages it (moved away).
  for (const fqn of (
    await contractsNamedInCheckout(repository.top, new Set(gone.keys()), scope.read)
  ).keys())
    gone.delete(fqn);
  return {
    orphans: [...gone]
      .map(([fullyQualifiedName, file]) => ({ fullyQualifiedName, file }))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
  };
}
