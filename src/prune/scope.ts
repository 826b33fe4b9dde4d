// What `--prune` may delete in a run: with only some files planned (--changed-since, the Action's
// changed-only), the contracts managed by the files the change deleted or changed; otherwise every
// managed contract whose file is gone from the folders planned (see plan-deletions.ts).
import path from 'node:path';
import type { DeletedContractFile } from '../read/deleted-files.js';

/** The files a prune is limited to (absolute), and the contracts the deleted ones named. */
export interface PruneWithin {
  within?: ReadonlySet<string>;
  deletedNames?: ReadonlySet<string>;
}

/**
 * The prune scope of a run that plans `changed` (absolute paths; undefined: every file), where
 * `deleted` are the contract files the change deleted (relative to `cwd`; undefined when git
 * could not tell).
 */
export function pruneWithin(
  changed: ReadonlySet<string> | undefined,
  deleted: readonly DeletedContractFile[] | undefined,
  cwd: string,
): PruneWithin {
  if (changed === undefined) return {};
  return {
    within: new Set([...changed, ...(deleted ?? []).map((file) => path.resolve(cwd, file.file))]),
    deletedNames: new Set((deleted ?? []).flatMap((file) => file.fullyQualifiedName ?? [])),
  };
}
