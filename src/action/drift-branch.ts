// The git half of the drift pull request: the files pull rewrote, committed on top of the default
// branch's tip without touching the checkout (a commit built from a separate index, so HEAD, the
// branch checked out, the index and the working tree stay as they were found), then force-pushed
// to one branch on origin with the credentials actions/checkout configured.
import { lstat, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { redactorFor } from '../catalog/redact.js';
import { ConfigError } from '../model/errors.js';

/** The author (and committer) of the commit: GitHub's own account for workflow runs. */
export const BOT_NAME = 'github-actions[bot]';
export const BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';

export interface BranchRequest {
  /** The checkout. */
  cwd: string;
  /** Absolute paths of the files to commit, inside `cwd`. */
  files: string[];
  /** The commit message's subject. */
  message: string;
  branch: string;
  defaultBranch: string;
  /** Masked in any git error that is passed on. */
  token: string;
}

export type BranchResult =
  | { pushed: boolean; commit: string }
  /** The files hold what the default branch holds: nothing to propose. */
  | { unchanged: true };

function git(cwd: string, env?: Record<string, string>): SimpleGit {
  const client = simpleGit({ baseDir: cwd, maxConcurrentProcesses: 1 });
  if (env === undefined) return client;
  // Only local steps take an environment of their own (an index, an author): the path to git and
  // the home folder that holds its configuration, no more.
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'SystemRoot'])
    if (process.env[name] !== undefined) base[name] = process.env[name];
  return client.env({ ...base, ...env });
}

/** Whether `relative` (from path.relative) leads out of its folder, or is the folder itself. */
function outside(relative: string): boolean {
  return (
    relative === '' ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    path.isAbsolute(relative)
  );
}

/** The files as paths from the checkout's top, each checked to be a regular file inside `cwd`. */
async function checkoutPaths(cwd: string, top: string, files: string[]): Promise<string[]> {
  const root = await realpath(cwd);
  const topReal = await realpath(top);
  const relative: string[] = [];
  for (const file of files) {
    const refuse = (why: string): never => {
      throw new ConfigError(`Refusing to commit ${file}: ${why}.`);
    };
    if (!path.isAbsolute(file)) refuse('it is not an absolute path');
    if (outside(path.relative(path.resolve(cwd), path.resolve(file))))
      refuse('it is outside the checkout');
    const stat = await lstat(file).catch(() => refuse('it does not exist'));
    if (!stat.isFile()) refuse('it is not a regular file (a folder or a symbolic link)');
    // Through symbolic links of the folders above it, it must still be inside the checkout.
    const real = await realpath(file);
    if (outside(path.relative(root, real))) refuse('it is outside the checkout');
    const fromTop = path.relative(topReal, real);
    if (outside(fromTop)) refuse('it is outside the checkout');
    if (fromTop.split(path.sep)[0] === '.git') refuse("it is inside the checkout's .git folder");
    relative.push(fromTop.split(path.sep).join('/'));
  }
  return [...new Set(relative)];
}

/** The commit the branch starts from: origin's default branch as fetched, else HEAD. */
async function baseCommit(client: SimpleGit, defaultBranch: string): Promise<string> {
  let fetched = '';
  try {
    fetched = (
      await client.revparse([
        '--verify',
        '--quiet',
        `refs/remotes/origin/${defaultBranch}^{commit}`,
      ])
    ).trim();
  } catch {
    fetched = '';
  }
  // --quiet answers nothing, without failing, for a ref the checkout lacks.
  return fetched !== '' ? fetched : (await client.revparse(['--verify', 'HEAD^{commit}'])).trim();
}

/** The tree of `base` with `paths` as the working tree holds them, built in a separate index. */
async function treeWith(cwd: string, base: string, paths: string[]): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'contracts-drift-index-'));
  try {
    const indexed = git(cwd, { GIT_INDEX_FILE: path.join(folder, 'index') });
    await indexed.raw(['read-tree', base]);
    await indexed.raw(['update-index', '--add', '--', ...paths]);
    return (await indexed.raw(['write-tree'])).trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The commit origin's `branch` points at, fetched into the checkout, or null when it has none. */
async function remoteTip(client: SimpleGit, branch: string): Promise<string | null> {
  const listed = (
    await client.raw(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`])
  ).trim();
  if (listed === '') return null;
  await client.raw([
    'fetch',
    '--quiet',
    '--no-tags',
    'origin',
    `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
  ]);
  return (await client.revparse([`refs/remotes/origin/${branch}^{commit}`])).trim();
}

/** Whether `commit` is one commit on top of `base` whose tree is `tree`. */
async function holds(
  client: SimpleGit,
  commit: string,
  base: string,
  tree: string,
): Promise<boolean> {
  const parents = (await client.raw(['rev-list', '--parents', '-n', '1', commit]))
    .trim()
    .split(' ');
  const commitTree = (await client.revparse([`${commit}^{tree}`])).trim();
  return parents.length === 2 && parents[1] === base && commitTree === tree;
}

/**
 * Commits exactly `files` on top of the default branch's tip and force-pushes that commit to
 * origin's `branch`; pushes nothing when origin's branch already holds these contents there.
 * Git's errors are passed on with the token masked.
 */
export async function pushDriftBranch(request: BranchRequest): Promise<BranchResult> {
  const redact = redactorFor(request.token);
  try {
    const client = git(request.cwd);
    const top = (await client.revparse(['--show-toplevel'])).trim();
    const remotes = await client.getRemotes();
    if (!remotes.some((remote) => remote.name === 'origin'))
      throw new ConfigError(
        `the checkout has no remote origin to push the branch ${request.branch} to (actions/checkout sets it)`,
      );
    const paths = await checkoutPaths(request.cwd, top, request.files);
    if (paths.length === 0) return { unchanged: true };
    const base = await baseCommit(client, request.defaultBranch);
    const tree = await treeWith(top, base, paths);
    if (tree === (await client.revparse([`${base}^{tree}`])).trim()) return { unchanged: true };
    const tip = await remoteTip(client, request.branch);
    if (tip !== null && (await holds(client, tip, base, tree)))
      return { pushed: false, commit: tip };
    const commit = (
      await git(top, {
        GIT_AUTHOR_NAME: BOT_NAME,
        GIT_AUTHOR_EMAIL: BOT_EMAIL,
        GIT_COMMITTER_NAME: BOT_NAME,
        GIT_COMMITTER_EMAIL: BOT_EMAIL,
      }).raw(['commit-tree', '--no-gpg-sign', tree, '-p', base, '-m', request.message])
    ).trim();
    await client.raw([
      'push',
      '--quiet',
      '--force',
      'origin',
      `${commit}:refs/heads/${request.branch}`,
    ]);
    return { pushed: true, commit };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`git could not push the branch ${request.branch}: ${redact(message)}`);
  }
}
