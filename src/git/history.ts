// What this checkout's git history says of a marker: whether the commit it names is in HEAD's
// history, and what a path held at that commit. Each answer is asked of git once a run (a prune of
// many contracts names few commits), through simple-git.
import { simpleGit, type SimpleGit } from 'simple-git';
import { MAX_FILE_BYTES } from '../contract/parse.js';

/** Whether a commit is HEAD or one of its ancestors; `absent` when git lacks the commit (shallow). */
export type Ancestry = 'ancestor' | 'not-ancestor' | 'absent';

/** A full commit id, as a marker records it (SHA-1 or SHA-256 repositories). */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A path inside the repository as a marker names it: relative, forward slashes, no `..`, not `.git`. */
export function isRepositoryPath(file: string): boolean {
  if (file === '' || file.startsWith('/') || file.includes('\\') || file.includes('\0'))
    return false;
  const parts = file.split('/');
  return parts.every((part) => part !== '' && part !== '.' && part !== '..') && parts[0] !== '.git';
}

export class GitHistory {
  private readonly git: SimpleGit;
  private readonly ancestry = new Map<string, Promise<Ancestry>>();
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private readonly deletions = new Map<string, Promise<ReadonlySet<string>>>();
  private readonly trees = new Map<string, Promise<ReadonlySet<string>>>();

  /** `top`: the top of the checkout (absolute); `head`: its HEAD commit. */
  constructor(
    readonly top: string,
    readonly head: string,
  ) {
    this.git = simpleGit({ baseDir: top, maxConcurrentProcesses: 2 });
  }

  /** The history of the checkout whose top is `top`; undefined before its first commit. */
  static async of(top: string): Promise<GitHistory | undefined> {
    try {
      const head = (await simpleGit({ baseDir: top }).revparse(['HEAD'])).trim();
      return COMMIT_ID.test(head) ? new GitHistory(top, head) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Where `commit` stands against HEAD. */
  ancestryOf(commit: string): Promise<Ancestry> {
    if (!COMMIT_ID.test(commit)) return Promise.resolve('absent');
    let known = this.ancestry.get(commit);
    if (known === undefined) {
      known = this.askAncestry(commit);
      this.ancestry.set(commit, known);
    }
    return known;
  }

  private async askAncestry(commit: string): Promise<Ancestry> {
    try {
      await this.git.raw(['cat-file', '-e', `${commit}^{commit}`]);
    } catch {
      return 'absent';
    }
    // `merge-base --is-ancestor` says it by its exit code alone, which simple-git does not
    // report without a message: the common ancestor is the commit itself when it is one.
    try {
      const base = (await this.git.raw(['merge-base', commit, this.head])).trim();
      return base === commit ? 'ancestor' : 'not-ancestor';
    } catch {
      return 'not-ancestor';
    }
  }

  /** The text of `file` (a repository path) at `commit`; undefined when it held no such file. */
  textAt(commit: string, file: string): Promise<string | undefined> {
    if (!COMMIT_ID.test(commit) || !isRepositoryPath(file)) return Promise.resolve(undefined);
    const key = `${commit}:${file}`;
    let known = this.texts.get(key);
    if (known === undefined) {
      known = this.readBlob(`${commit}:${file}`);
      this.texts.set(key, known);
    }
    return known;
  }

  private async readBlob(object: string): Promise<string | undefined> {
    try {
      // A contract file is at most MAX_FILE_BYTES: a larger blob names no contract.
      const size = Number((await this.git.raw(['cat-file', '-s', object])).trim());
      if (!Number.isSafeInteger(size) || size > MAX_FILE_BYTES) return undefined;
      return await this.git.raw(['cat-file', 'blob', object]);
    } catch {
      return undefined;
    }
  }

  /** Whether `file` (a repository path) was a file at `commit`: one listing of its tree a commit. */
  async holds(commit: string, file: string): Promise<boolean> {
    if (!COMMIT_ID.test(commit)) return false;
    let known = this.trees.get(commit);
    if (known === undefined) {
      known = this.git
        .raw(['ls-tree', '-r', '-z', '--name-only', commit])
        .then((names) => new Set(names.split('\0').filter((name) => name !== '')))
        .catch(() => new Set<string>());
      this.trees.set(commit, known);
    }
    return (await known).has(file);
  }

  /**
   * The repository paths a commit between `commit` (an ancestor of HEAD) and HEAD deleted, even
   * when a later one brought them back; asked of git once for each commit.
   */
  deletedSince(commit: string): Promise<ReadonlySet<string>> {
    let known = this.deletions.get(commit);
    if (known === undefined) {
      known = this.git
        .raw([
          'log',
          '--format=',
          '--no-renames',
          '--diff-filter=D',
          '--name-only',
          '-z',
          `${commit}..${this.head}`,
        ])
        .then((names) => new Set(names.split(/[\0\n]/).filter((name) => name !== '')))
        .catch(() => new Set<string>());
      this.deletions.set(commit, known);
    }
    return known;
  }

  /** Whether the checkout is shallow (its history cut: commits before the cut are absent). */
  async shallow(): Promise<boolean> {
    try {
      return (await this.git.revparse(['--is-shallow-repository'])).trim() === 'true';
    } catch {
      return false;
    }
  }
}
