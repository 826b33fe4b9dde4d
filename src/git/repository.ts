// Which repository manages the contracts of this run, and the marker a managed contract carries:
// the address of its file in that repository at the commit whose apply wrote it,
// `<repository>/blob/<commit>/<path>` (a page GitHub and most forges show), from which the
// repository, the commit and the path read back. Markers written before the commit was recorded
// say `blob/HEAD/`: they name a repository and a path, and prove nothing a deletion needs.
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { COMMIT_ID, isRepositoryPath } from './history.js';

/** The repository a run manages contracts from. */
export interface Repository {
  /** Its address without credentials or `.git`: `https://github.com/acme/contracts`. */
  url: string;
  /** The top of the checkout, absolute and with no link in it, that marker paths are relative to. */
  top: string;
  /** The checkout's HEAD commit, which the markers this run writes record; none before the first. */
  commit?: string;
}

/** Who manages a contract, as its marker names it. */
export interface Manager {
  repository: string;
  /** The file, relative to the repository's top, with forward slashes. */
  path: string;
  /** The commit whose apply wrote the marker; undefined for a marker that records none. */
  commit?: string;
}

const BLOB = '/blob/';

/** Why a run has no repository to mark the contracts it manages from: a sentence. */
export interface NoRepository {
  none: string;
}

/** The forms of a forge's address a remote may take, as said when a remote is none of them. */
export const FORGE_FORMS = 'https://host/owner/repo, git@host:owner/repo or ssh://host/owner/repo';

/**
 * A remote's address as people browse it on its forge: `git@github.com:acme/x.git`,
 * `ssh://git@github.com/acme/x`, `https://token@github.com/acme/x.git` all give
 * `https://github.com/acme/x` (credentials are never kept). Undefined for what names no forge's
 * repository (an owner and a name at least): a local path or a `file:` URL names a folder, which
 * no one else can browse, so it never makes a marker.
 */
export function repositoryUrl(remote: string): string | undefined {
  const text = remote.trim();
  if (text === '') return undefined;
  const tidy = (host: string, rest: string): string | undefined => {
    const trimmed = rest
      .replace(/\/+$/, '')
      .replace(/\.git$/, '')
      .replace(/^\/+/, '');
    const parts = trimmed.split('/');
    if (host === '' || parts.length < 2 || parts.some((part) => part === '' || part === '..'))
      return undefined;
    return `https://${host.toLowerCase()}/${trimmed}`;
  };
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(text);
  if (scp !== null && !/^[a-z]:[\\/]/i.test(text)) return tidy(scp[1]!, scp[2]!);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (!['http:', 'https:', 'ssh:', 'git:'].includes(url.protocol)) return undefined;
    // The port of an ssh remote is not the forge's web port.
    const host = url.protocol === 'https:' || url.protocol === 'http:' ? url.host : url.hostname;
    return tidy(host, decodeURIComponent(url.pathname));
  }
  // A local path: no forge's address.
  return undefined;
}

/** The path of `file` (absolute, links resolved) in `repository`; undefined outside it. */
export function repositoryPath(repository: Repository, file: string): string | undefined {
  const relative = path.relative(repository.top, file).split(path.sep).join('/');
  return isRepositoryPath(relative) ? relative : undefined;
}

/**
 * The folder of another checkout (a submodule, a clone) that holds `file` (absolute, links
 * resolved) inside `repository`'s, relative to its top; undefined when `file` is this checkout's.
 * `known` keeps each folder's answer, so that a run asks the disk once a folder.
 */
export function nestedCheckout(
  repository: Repository,
  file: string,
  known: Map<string, string | undefined>,
): string | undefined {
  const walked: string[] = [];
  let found: string | undefined;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (dir === repository.top || !dir.startsWith(`${repository.top}${path.sep}`)) break;
    if (known.has(dir)) {
      found = known.get(dir);
      break;
    }
    walked.push(dir);
    if (existsSync(path.join(dir, '.git'))) {
      found = path.relative(repository.top, dir).split(path.sep).join('/');
      break;
    }
  }
  for (const dir of walked) known.set(dir, found);
  return found;
}

/**
 * The marker of the contract managed by `file` (absolute, links resolved) from `repository`, at
 * `commit` (the run's HEAD by default); undefined for a file outside the repository.
 */
export function markerFor(
  repository: Repository,
  file: string,
  commit = repository.commit,
): string | undefined {
  const relative = repositoryPath(repository, file);
  if (relative === undefined) return undefined;
  return `${repository.url}${BLOB}${commit ?? 'HEAD'}/${relative}`;
}

/** Who a marker names; undefined for a value that is not a marker of this tool. */
export function managerOf(marker: unknown): Manager | undefined {
  if (typeof marker !== 'string') return undefined;
  const at = marker.indexOf(BLOB);
  if (at <= 0) return undefined;
  const repository = marker.slice(0, at);
  const rest = marker.slice(at + BLOB.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const ref = rest.slice(0, slash);
  const file = rest.slice(slash + 1);
  if (!/^(https:\/\/[^/]+\/|file:\/\/\/)./.test(repository) || file === '') return undefined;
  if (ref !== 'HEAD' && !COMMIT_ID.test(ref)) return undefined;
  return { repository, path: file, ...(ref === 'HEAD' ? {} : { commit: ref }) };
}

/** Whether two repository addresses name the same repository (forges ignore case). */
export function sameRepository(a: string, b: string): boolean {
  return a.startsWith('https://') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Whether `checkout` is a repository, not the reason there is none. */
export function isRepository(
  checkout: Repository | NoRepository | undefined,
): checkout is Repository {
  return checkout !== undefined && !('none' in checkout);
}

/**
 * The repository of a run in `cwd`: in GitHub Actions, `GITHUB_REPOSITORY` on
 * `GITHUB_SERVER_URL`; else the checkout's `origin` remote. Undefined outside a checkout, or in
 * one without an origin naming a forge's repository.
 */
export async function repositoryOf(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Repository | undefined> {
  const checkout = await checkoutOf(cwd, env);
  return isRepository(checkout) ? checkout : undefined;
}

/** As repositoryOf, with why there is none: outside a checkout, no origin, an origin no forge's. */
export async function checkoutOf(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Repository | NoRepository> {
  const git = simpleGit({ baseDir: cwd });
  const outside = { none: 'this folder is in no git checkout' };
  let top: string;
  try {
    top = (await git.revparse(['--show-toplevel'])).trim();
    // A checkout reached through a link marks the same paths as one reached directly.
    if (top !== '') top = await realpath(top);
  } catch {
    return outside;
  }
  if (top === '') return outside;
  let commit: string | undefined;
  try {
    const head = (await git.revparse(['HEAD'])).trim();
    if (COMMIT_ID.test(head)) commit = head;
  } catch {
    // Before the first commit: markers record none.
  }
  const withCommit = (url: string): Repository =>
    commit === undefined ? { url, top } : { url, top, commit };
  const named = env.GITHUB_REPOSITORY;
  if (named !== undefined && /^[\w.-]+\/[\w.-]+$/.test(named)) {
    const server = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '');
    const url = repositoryUrl(`${server}/${named}`);
    if (url !== undefined) return withCommit(url);
  }
  let remote: string;
  try {
    remote = await git.remote(['get-url', 'origin']).then((text) => (text ?? '').trim());
  } catch {
    return { none: 'the git checkout has no origin remote' };
  }
  const url = repositoryUrl(remote);
  // The remote itself is not said: it is the user's, and may hold what is not ours to print.
  return url === undefined
    ? { none: `the git checkout's origin remote is not a forge's address (${FORGE_FORMS})` }
    : withCommit(url);
}
