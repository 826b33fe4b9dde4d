// What a deletion needs: proof from this repository's own history. A contract is deleted only when
// its marker names this repository, a commit in HEAD's history, and a path that held, at that
// commit, a file naming this very contract, and that file is gone from the checkout since. Checked
// on the listed item, on the contract read again for the plan, on a saved plan's deletions before
// anything is sent, and once more on the contract read just before its DELETE. A marker anyone
// could write (the catalog is edited by many) proves nothing without the commit and the file
// behind it; an older checkout, another branch or a shallow clone lacks the commit, and keeps.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { loadPlain } from '../contract/fast-parse.js';
import { parseContract } from '../contract/parse.js';
import type { PlannedChange } from '../plan/types.js';
import { GitHistory, isRepositoryPath } from '../git/history.js';
import { managerOfContract } from '../read/marker.js';
import { sameRepository, type Repository } from '../git/repository.js';

/** What proof needs of a contract: its name and its marker. */
export interface MarkedContract {
  id?: string;
  fullyQualifiedName: string;
  extension?: unknown;
}

export type Proof = { proven: true; path: string } | { proven: false; reason: string };

/** The contract a file's text names: as the tool reads the file, else its plain `fullyQualifiedName`. */
export function contractNamedIn(text: string, file: string): string | undefined {
  const parsed = parseContract(text, file);
  if (parsed.ok && parsed.value.identity.fullyQualifiedName !== '')
    return parsed.value.identity.fullyQualifiedName;
  try {
    const value = loadPlain(text) as { fullyQualifiedName?: unknown } | null;
    const named = value?.fullyQualifiedName;
    return typeof named === 'string' ? named : undefined;
  } catch {
    return undefined;
  }
}

/** Whether anything (a file, a link, a folder) is at `absolute`. */
export async function present(absolute: string): Promise<boolean> {
  try {
    await lstat(absolute);
    return true;
  } catch {
    return false;
  }
}

/** Whether `contract` may be deleted by a run of `repository`, whose history is `history`. */
export async function proveDeletion(
  contract: MarkedContract,
  repository: Repository,
  history: GitHistory,
): Promise<Proof> {
  const no = (reason: string): Proof => ({ proven: false, reason });
  const manager = managerOfContract(contract as unknown as Record<string, unknown>);
  if (manager === undefined) return no('it carries no marker of this tool');
  if (!sameRepository(manager.repository, repository.url))
    return no(`it is managed from ${manager.repository} (${manager.path})`);
  if (!isRepositoryPath(manager.path))
    return no(`its marker names a path that is not in a repository (${manager.path})`);
  if (manager.commit === undefined)
    return no(
      `its marker records no commit (it was written by a version of the tool before markers did), so nothing proves ${manager.path} managed it: restore the file and apply it once to record one, or delete the contract by hand`,
    );
  const short = manager.commit.slice(0, 12);
  const ancestry = await history.ancestryOf(manager.commit);
  if (ancestry === 'absent')
    return no(
      `its marker's commit ${short} is not in this checkout${(await history.shallow()) ? ', which is shallow (check out with fetch-depth: 0)' : ''}`,
    );
  if (ancestry === 'not-ancestor')
    return no(
      `its marker's commit ${short} is not in the history of this checkout's HEAD (an older checkout or another branch): only a checkout that holds the commit that applied it deletes it`,
    );
  const text = await history.textAt(manager.commit, manager.path);
  if (text === undefined) return no(`commit ${short} held no file ${manager.path}`);
  const named = contractNamedIn(text, manager.path);
  if (named !== contract.fullyQualifiedName)
    return no(
      `${manager.path} at commit ${short} names ${named === undefined ? 'no contract' : `another contract (${named})`}`,
    );
  if (await present(path.join(repository.top, ...manager.path.split('/'))))
    return no(`its file ${manager.path} is in the checkout`);
  return { proven: true, path: manager.path };
}

/** What apply asks before each deletion it sends, of the contract read just before. */
export interface DeletionGuard {
  /** Why `contract` may not be deleted as `change` says; undefined when it may. */
  refusal(contract: MarkedContract, change: PlannedChange): Promise<string | undefined>;
}

/**
 * The guard of a run in `cwd` whose repository is `repository`: a deletion stands only with proof
 * (proveDeletion), for the contract the change names (its id) and the file the change names (the
 * marker's path, from `cwd`).
 */
export function deletionGuard(
  cwd: string,
  repository: Promise<Repository | undefined>,
): DeletionGuard {
  let context: Promise<{ repository: Repository; history: GitHistory; cwd: string } | string>;
  const contextOf = async () => {
    const known = await repository;
    if (known === undefined)
      return 'this directory is in no git checkout whose origin remote names a forge’s repository, so nothing proves which repository manages the contract';
    const history = await GitHistory.of(known.top);
    if (history === undefined) return 'this checkout has no commit';
    return { repository: known, history, cwd: await realpath(cwd).catch(() => cwd) };
  };
  return {
    refusal: async (contract, change) => {
      context ??= contextOf();
      const known = await context;
      if (typeof known === 'string') return known;
      if (change.id !== null && contract.id !== undefined && contract.id !== change.id)
        return `the plan names contract id ${change.id}, the catalog's contract has id ${contract.id}`;
      const proof = await proveDeletion(contract, known.repository, known.history);
      if (!proof.proven) return proof.reason;
      const named = path.resolve(known.cwd, change.file);
      const marked = path.join(known.repository.top, ...proof.path.split('/'));
      return named === marked
        ? undefined
        : `the plan names ${change.file}, but its marker names ${path.relative(known.cwd, marked).split(path.sep).join('/')}`;
    },
  };
}
