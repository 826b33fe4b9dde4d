// The little git the tool needs, through simple-git: the commit of the contract files, and the
// files changed since a ref (CLI) or between a pull request's base and head (Action).
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { loadPlain } from '../contract/fast-parse.js';
import { isContractFilePath } from '../read/load.js';
import { ConfigError } from '../model/errors.js';
import type { DeletedContractFile } from '../read/deleted-files.js';

/** A git client working in `cwd`. */
function git(cwd: string): SimpleGit {
  return simpleGit({ baseDir: cwd, maxConcurrentProcesses: 2 });
}

/** Paths of `git ... -z` output, absolute from `base`. */
function paths(output: string, base: string): string[] {
  return output
    .split('\0')
    .filter((name) => name !== '')
    .map((name) => path.resolve(base, name));
}

/** The top of the checkout around `cwd`, or null outside one. */
async function topLevel(cwd: string): Promise<string | null> {
  try {
    return (await git(cwd).revparse(['--show-toplevel'])).trim() || null;
  } catch {
    return null;
  }
}

/** Whether `ref` names a commit in this checkout. */
async function isCommit(cwd: string, ref: string): Promise<boolean> {
  try {
    await git(cwd).raw(['cat-file', '-e', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The commit being planned: GITHUB_SHA in Actions, else HEAD, else null outside a repository. */
export async function currentCommit(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  if (env.GITHUB_SHA !== undefined && /^[0-9a-f]{40}$/.test(env.GITHUB_SHA)) return env.GITHUB_SHA;
  // One git process: outside a repository (or before the first commit) rev-parse fails.
  try {
    return (await git(cwd).revparse(['HEAD'])).trim() || null;
  } catch {
    return null;
  }
}

/** Absolute paths of files added, copied, modified or renamed since `ref` (committed or not). */
export async function filesChangedSince(ref: string, cwd: string): Promise<Set<string>> {
  if (ref.startsWith('-')) throw new ConfigError(`--changed-since takes a git ref, got '${ref}'`);
  const top = await topLevel(cwd);
  if (top === null)
    throw new ConfigError('--changed-since needs a git checkout, and this directory is not in one');
  if (!(await isCommit(cwd, ref)))
    throw new ConfigError(
      `--changed-since: git does not know '${ref}'. In a shallow checkout, fetch more history (actions/checkout with fetch-depth: 0).`,
    );
  const changed = await git(cwd).raw([
    'diff',
    '--name-only',
    '--diff-filter=ACMR',
    '-z',
    ref,
    '--',
  ]);
  const untracked = await git(cwd).raw(['ls-files', '--others', '--exclude-standard', '-z']);
  return new Set([...paths(changed, top), ...paths(untracked, cwd)]);
}

/**
 * Absolute paths of files added, copied, modified or renamed on `head` since it left `base`
 * (`git diff base...head`). Both commits must be in the checkout.
 */
export async function filesChangedBetween(
  base: string,
  head: string,
  cwd: string,
): Promise<Set<string>> {
  const top = await topLevel(cwd);
  if (top === null) throw new ConfigError('changed-only needs a git checkout of the repository');
  for (const [name, ref] of [
    ['base', base],
    ['head', head],
  ] as const) {
    if (!(await isCommit(cwd, ref)))
      throw new ConfigError(
        `changed-only cannot tell which files changed: the pull request's ${name} commit ${ref.slice(0, 12)} is not in this checkout, which is too shallow. Check out with actions/checkout and fetch-depth: 0.`,
      );
  }
  try {
    const changed = await git(cwd).raw([
      'diff',
      '--name-only',
      '--diff-filter=ACMR',
      '-z',
      `${base}...${head}`,
      '--',
    ]);
    return new Set(paths(changed, top));
  } catch {
    throw new ConfigError(
      `changed-only cannot tell which files changed: git finds no common ancestor of ${base.slice(0, 12)} and ${head.slice(0, 12)} in this checkout, which is too shallow. Check out with actions/checkout and fetch-depth: 0.`,
    );
  }
}

/** The fullyQualifiedName a contract file's text gives, or null. */
function namedContract(text: string): string | null {
  try {
    const value = loadPlain(text);
    if (value === null || typeof value !== 'object') return null;
    const name = (value as { fullyQualifiedName?: unknown }).fullyQualifiedName;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * The contract files under `under` (PATH arguments, from `cwd`) that were there at `from` and are
 * gone at `to` (a commit, compared from where it left `from`'s history, as a pull request is; the
 * working tree when undefined), each with the contract its last version named; a renamed file is
 * not deleted. Undefined when git cannot tell (no checkout, a commit it lacks, a path outside the
 * checkout): the caller then says nothing of deleted files.
 */
export async function deletedContractFiles(
  cwd: string,
  from: string,
  to: string | undefined,
  under: readonly string[],
): Promise<DeletedContractFile[] | undefined> {
  const top = await topLevel(cwd);
  if (top === null) return undefined;
  const client = git(cwd);
  try {
    const before = to === undefined ? from : (await client.raw(['merge-base', from, to])).trim();
    const names = await client.raw([
      'diff',
      '--name-only',
      '--diff-filter=D',
      '-z',
      to === undefined ? from : `${from}...${to}`,
      '--',
      ...under.map((given) => `:(literal)${given}`),
    ]);
    const deleted: DeletedContractFile[] = [];
    for (const absolute of paths(names, top)) {
      const file = path.relative(cwd, absolute).split(path.sep).join('/');
      if (!isContractFilePath(file)) continue;
      const inRepository = path.relative(top, absolute).split(path.sep).join('/');
      const text = await client.show([`${before}:${inRepository}`]);
      deleted.push({ file, fullyQualifiedName: namedContract(text) });
    }
    return deleted;
  } catch {
    return undefined;
  }
}

/** The text of the file at `absolute` as it was at `ref`; undefined when it did not exist there. */
export async function fileAtRef(
  cwd: string,
  ref: string,
  absolute: string,
): Promise<string | undefined> {
  const top = await topLevel(cwd);
  if (top === null) return undefined;
  const relative = path.relative(top, absolute).split(path.sep).join('/');
  try {
    return await git(top).show([`${ref}:${relative}`]);
  } catch {
    return undefined;
  }
}
