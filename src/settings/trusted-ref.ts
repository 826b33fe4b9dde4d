// Where the catalog token may go. The settings that route or authenticate — catalog.url and
// catalog.profile of .contracts.yaml — decide which server gets `Authorization: Bearer
// <CATALOG_TOKEN>`, so a pull request must not decide them: the Action reads them from the pull
// request's base commit, and the command line uses the file's only where it says what a ref the
// pull request cannot change (the base commit in a GitHub Actions pull-request run, else the
// remote's default branch, origin/HEAD) says. The command line loads this at start-up, so git's
// module (child_process) is loaded only when git is asked something.
import type * as ChildProcess from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigError } from '../model/errors.js';
import { SETTINGS_FILE } from './name.js';

/** The settings that route the token or choose how it is used. */
export interface Routing {
  url?: string | undefined;
  profile?: string | undefined;
}

/** A commit whose settings are trusted, and how a sentence names it. */
export interface TrustedRef {
  commit: string;
  shown: string;
}

/** Reads a settings file's text (found at `absolute` in the trusted commit) into its routing. */
export type RoutingReader = (text: string, absolute: string) => Routing;

const COMMIT = /^[0-9a-f]{40}$/;
/** How long fetching a pull request's base commit may take. */
const FETCH_TIMEOUT_MS = 120_000;

let childProcess: typeof ChildProcess | undefined;

/** git's output, or undefined when git fails (or is not there). */
function git(cwd: string, args: readonly string[], timeout?: number): string | undefined {
  childProcess ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
  try {
    return childProcess.execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 8 * 1024 * 1024,
      // A fetch never waits for a password nobody can type.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      ...(timeout === undefined ? {} : { timeout }),
    });
  } catch {
    return undefined;
  }
}

function isCommit(cwd: string, ref: string): boolean {
  return git(cwd, ['cat-file', '-e', `${ref}^{commit}`]) !== undefined;
}

/** GitHub's pull-request events: their checkout holds what the pull request proposes. */
export function isPullRequestEvent(eventName: string | undefined): boolean {
  return eventName?.startsWith('pull_request') === true;
}

/** The pull request's base commit, from the event's payload; a ConfigError when it names none. */
export function pullRequestBase(eventPath: string | undefined): string {
  let sha: unknown;
  try {
    const event = JSON.parse(readFileSync(eventPath ?? '', 'utf8')) as {
      pull_request?: { base?: { sha?: unknown } };
    };
    sha = event.pull_request?.base?.sha;
  } catch {
    sha = undefined;
  }
  if (typeof sha !== 'string' || !COMMIT.test(sha))
    throw new ConfigError(
      'this is a pull request run, but its event (GITHUB_EVENT_PATH) names no base commit; the catalog URL and profile are read from the base commit, never from the pull request, so give them as the catalog-url and catalog-profile inputs (or CATALOG_URL and CATALOG_PROFILE). Nothing was sent.',
    );
  return sha;
}

/**
 * Makes sure the pull request's base commit is in the checkout (a shallow checkout lacks it):
 * fetches it from origin when it is not; a ConfigError when that fails.
 */
function withBaseCommit(cwd: string, base: string): void {
  if (isCommit(cwd, base)) return;
  const shallow = git(cwd, ['rev-parse', '--is-shallow-repository'])?.trim() === 'true';
  git(
    cwd,
    ['fetch', '--no-tags', '--quiet', ...(shallow ? ['--depth=1'] : []), 'origin', base],
    FETCH_TIMEOUT_MS,
  );
  if (!isCommit(cwd, base))
    throw new ConfigError(
      `the pull request's base commit ${base.slice(0, 12)} is not in this checkout and could not be fetched from origin; the catalog URL and profile are read from it, never from the pull request. Check out with actions/checkout and fetch-depth: 0, or give the catalog-url and catalog-profile inputs (or CATALOG_URL and CATALOG_PROFILE). Nothing was sent.`,
    );
}

/** The base commit of this pull-request run, in the checkout (fetched when it is not). */
export function baseRef(cwd: string, eventPath: string | undefined): TrustedRef {
  const base = pullRequestBase(eventPath);
  withBaseCommit(cwd, base);
  return { commit: base, shown: `the pull request's base commit ${base.slice(0, 12)}` };
}

/**
 * The ref whose settings the command line trusts: the base commit in a GitHub Actions
 * pull-request run, else origin/HEAD when the checkout has it; undefined when there is none
 * (no checkout, no remote default branch): the settings file is then the person's own.
 */
export function trustedRef(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): TrustedRef | undefined {
  if (isPullRequestEvent(env.GITHUB_EVENT_NAME)) return baseRef(cwd, env.GITHUB_EVENT_PATH);
  const commit = git(cwd, ['rev-parse', '--verify', '--quiet', 'origin/HEAD^{commit}'])?.trim();
  if (commit === undefined || !COMMIT.test(commit)) return undefined;
  return { commit, shown: "origin/HEAD (the remote's default branch)" };
}

/**
 * The settings file's text at `commit`: the nearest `.contracts.yaml` from `cwd` up to the
 * repository's top, as the working tree's is found; undefined when that commit has none.
 */
export function settingsAtCommit(
  cwd: string,
  commit: string,
): { text: string; absolute: string } | undefined {
  const top = git(cwd, ['rev-parse', '--show-toplevel'])?.trim();
  if (top === undefined || top === '') return undefined;
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return undefined;
  }
  for (; ; dir = path.dirname(dir)) {
    const relative = path.relative(top, path.join(dir, SETTINGS_FILE));
    if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    const inTree = relative.split(path.sep).join('/');
    if (git(top, ['cat-file', '-e', `${commit}:${inTree}`]) !== undefined) {
      const text = git(top, ['show', `${commit}:${inTree}`]);
      return text === undefined ? undefined : { text, absolute: path.join(dir, SETTINGS_FILE) };
    }
    if (dir === top || path.dirname(dir) === dir) return undefined;
  }
}

/** The routing the settings file at `ref` gives (none when it has no file). */
export function routingAt(cwd: string, ref: TrustedRef, read: RoutingReader): Routing {
  const at = settingsAtCommit(cwd, ref.commit);
  return at === undefined ? {} : read(at.text, at.absolute);
}

const SETTING_NAMES = { url: 'catalog.url', profile: 'catalog.profile' } as const;
const CONFIRMED_BY = {
  url: '--catalog-url (or set CATALOG_URL)',
  profile: '--catalog-profile (or set CATALOG_PROFILE)',
} as const;

/** A value from a file, as a sentence shows it: quoted, control characters escaped. */
function shownValue(value: string | undefined): string {
  return value === undefined ? 'not set' : JSON.stringify(value);
}

/**
 * The command line's rule: `used`, the routing taken from the working tree's settings file (what
 * no flag or environment variable gave), must be what the trusted ref's file says; else a
 * ConfigError naming both values and how to confirm the file's, before anything is sent.
 */
export function confirmFileRouting(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  used: Routing,
  read: RoutingReader,
): void {
  if (used.url === undefined && used.profile === undefined) return;
  const ref = trustedRef(cwd, env);
  if (ref === undefined) return;
  const there = routingAt(cwd, ref, read);
  for (const key of ['url', 'profile'] as const) {
    const here = used[key];
    if (here === undefined || here === there[key]) continue;
    throw new ConfigError(
      `${SETTING_NAMES[key]} in ${SETTINGS_FILE} is ${shownValue(here)}, but at ${ref.shown} it is ${shownValue(there[key])}: a setting changed from there does not decide where the catalog token is sent. To use this one, give it as ${CONFIRMED_BY[key]}. Nothing was sent.`,
    );
  }
}
