// `--prune`: the contracts this repository manages whose files are gone, planned as deletions.
// A contract is one when its marker names this repository and a file under the folders planned,
// no file planned names its fullyQualifiedName any more (a file moved or renamed keeps its
// contract), and this repository's history proves the marker (proof.ts): checked on the listed
// item and again on the contract read for the plan, and no file anywhere in the checkout names it.
// Contracts managed from another repository, or from none, are never planned for deletion; those
// a deleted file named, and this repository's whose deletion is not proven, are said, so that a
// reviewer knows why they stay.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { LiveContract } from '../catalog/client.js';
import { CatalogError, ConfigError, NotFoundError } from '../model/errors.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { CONTRACT_FIELDS } from '../read/read-plan-inputs.js';
import { hashContract } from '../plan/seal.js';
import { plannedChange, type PlannedChange } from '../plan/types.js';
import { contractsNamedInCheckout } from './declared.js';
import { GitHistory } from '../git/history.js';
import { managerOfContract } from '../read/marker.js';
import { proveDeletion, type MarkedContract } from './proof.js';
import { sameRepository, type Repository } from '../git/repository.js';

/** Contracts listed a page at a time. */
const PAGE = 100;

export interface PruneScope {
  repository: Repository;
  /** The working directory plan file names are relative to. */
  cwd: string;
  /** The folders and files planned (absolute): a managed file gone from elsewhere is not pruned. */
  roots: readonly string[];
  /** The fullyQualifiedName of every contract file read in the run. */
  declared: ReadonlySet<string>;
  /** Those files (absolute paths): none names a contract to delete, so none is read again. */
  read?: ReadonlySet<string>;
  /**
   * With --changed-since (or a pull request): the files the change deleted or changed (absolute);
   * only contracts managed by one of them are pruned.
   */
  within?: ReadonlySet<string>;
}

export interface PlannedDeletions {
  changes: PlannedChange[];
  /** The asset of each contract deleted, by the contract's fullyQualifiedName. */
  assets: Map<string, { type: string; fullyQualifiedName: string }>;
  /**
   * Contracts kept, each as a sentence: those a deleted file named that another repository
   * manages, and this repository's whose files are gone but whose deletion is not proven.
   */
  keptForOthers: string[];
}

/** Whether `file` (absolute) is one of `roots` or under one of them. */
function underRoots(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => file === root || file.startsWith(`${root}${path.sep}`));
}

/** The breaking change a deletion is. */
export const DELETED =
  'the contract is deleted: every consumer of it loses what it promised (restorable while the delete is soft)';

function deletion(contract: LiveContract, file: string, repository: string): PlannedChange {
  return plannedChange({
    file,
    fullyQualifiedName: contract.fullyQualifiedName,
    id: contract.id,
    action: 'delete',
    liveVersion: contract.version,
    liveHash: hashContract(contract),
    patch: [],
    breaking: [DELETED],
    // The file is gone: the finding is at its first line, as a place it had.
    findings: [
      {
        code: 'breaking.contract-deleted',
        severity: 'warning',
        message: DELETED,
        file,
        line: 1,
        column: 1,
        pointer: '',
      },
    ],
    diff: [],
    warnings: [],
    notes: [
      `managed from ${repository} by ${file}, which is gone and whose contract no file planned names`,
    ],
    error: null,
  });
}

/**
 * The deletions `--prune` plans, read from the catalog's list of data contracts. A catalog that
 * lists none (the spec shows no list) cannot be pruned: said, nothing planned.
 */
export async function planDeletions(
  reader: CatalogReader,
  scope: PruneScope,
  deletedNames: ReadonlySet<string> = new Set(),
  listed?: readonly MarkedContract[],
): Promise<PlannedDeletions> {
  if (listed === undefined && reader.listAll === undefined)
    throw new ConfigError('--prune needs the catalog’s list of data contracts');
  // A checkout before its first commit proves no deletion: each candidate is kept, and said.
  const history = await GitHistory.of(scope.repository.top);
  const prove = (contract: MarkedContract) =>
    history === undefined
      ? Promise.resolve({
          proven: false as const,
          reason: 'this checkout has no commit, so nothing proves which file managed it',
        })
      : proveDeletion(contract, scope.repository, history);
  // Paths as git names them: a working folder reached through a link names the same files.
  const cwd = await realpath(scope.cwd).catch(() => scope.cwd);
  const roots = await Promise.all(
    scope.roots.map((root) => realpath(root).catch(() => path.resolve(cwd, root))),
  );
  const targets = new Map<string, string>();
  const keptForOthers: string[] = [];
  const kept = (fqn: string, reason: string) => keptForOthers.push(`${fqn} is kept: ${reason}`);
  try {
    // The contracts the plan's reader listed, when it read the whole list; else listed here.
    const contracts =
      listed ??
      reader.listAll!<LiveContract>('/dataContracts', {
        fields: 'extension',
        limit: String(PAGE),
      });
    for await (const contract of contracts) {
      const manager = managerOfContract(contract as unknown as Record<string, unknown>);
      const fqn = contract.fullyQualifiedName;
      if (manager === undefined) {
        // Adopted and never changed since: its marker comes with its first change (marker.ts).
        if (deletedNames.has(fqn))
          kept(
            fqn,
            'it carries no marker of this tool (one is written with the first change applied to it, and it has had none since it was imported), so nothing proves this repository manages it: delete it by hand, or restore its file and apply a change to it first',
          );
        continue;
      }
      if (!sameRepository(manager.repository, scope.repository.url)) {
        if (deletedNames.has(fqn))
          keptForOthers.push(`${fqn} is managed from ${manager.repository} (${manager.path})`);
        continue;
      }
      // A contract listed twice is one contract.
      if (scope.declared.has(fqn) || targets.has(fqn)) continue;
      const absolute = path.resolve(scope.repository.top, ...manager.path.split('/'));
      const inScope =
        scope.within === undefined ? underRoots(absolute, roots) : scope.within.has(absolute);
      if (!inScope) continue;
      const proof = await prove(contract);
      if (!proof.proven) {
        kept(fqn, proof.reason);
        continue;
      }
      targets.set(fqn, path.relative(cwd, absolute).split(path.sep).join('/'));
    }
  } catch (error) {
    if (error instanceof CatalogError && (error.status === 404 || error.status === 405))
      throw new ConfigError(
        `--prune needs the catalog's list of data contracts (GET /v1/dataContracts), which this catalog does not serve (${error.status}); nothing was planned`,
      );
    throw error;
  }
  // A file anywhere in the checkout that names the contract keeps it (moved out of the folders
  // planned, or back under another name).
  const named = await contractsNamedInCheckout(
    scope.repository.top,
    new Set(targets.keys()),
    scope.read,
  );
  for (const [fqn, file] of named) {
    kept(fqn, `${file} names it`);
    targets.delete(fqn);
  }
  // Each read again as apply reads it, so that the plan's version and hash are what apply checks,
  // and proven again on what was read: a marker changed since the list (another repository took
  // the contract over) keeps it.
  const changes: PlannedChange[] = [];
  const assets = new Map<string, { type: string; fullyQualifiedName: string }>();
  const ordered = [...targets].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [fqn, file] of ordered) {
    let contract: LiveContract;
    try {
      contract = await reader.getContractByName(fqn, CONTRACT_FIELDS);
    } catch (error) {
      // Deleted by someone else since it was listed: nothing left to delete.
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    const proof = await prove(contract);
    if (!proof.proven) {
      kept(fqn, proof.reason);
      continue;
    }
    changes.push(deletion(contract, file, scope.repository.url));
    assets.set(contract.fullyQualifiedName, {
      type: contract.entity.type,
      fullyQualifiedName: contract.entity.fullyQualifiedName,
    });
  }
  return { changes, assets, keptForOthers };
}
