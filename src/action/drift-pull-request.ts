// The scheduled drift job's one pull request: the contract files `contracts pull` rewrote to hold
// the catalog's values, committed on one branch (drift-branch.ts) and proposed by one pull request
// that later runs update in place (found by its head branch, never a second one), and close, with
// a comment, once git and the catalog agree again.
import { callGitHub } from './github-api.js';
import { fitSummary } from './summary-limit.js';
import { pushDriftBranch } from './drift-branch.js';
import { ConfigError } from '../model/errors.js';

/** GitHub's limit on a pull request's description, in characters. */
export const MAX_BODY_CHARS = 65_536;

export interface DriftPullRequest {
  /** The checkout (actions/checkout's workspace). */
  cwd: string;
  /** Absolute paths of the files pull rewrote (inside cwd; any other is refused). */
  files: string[];
  /** The pull request's title, and the commit's subject. */
  title: string;
  /** Markdown, its catalog text already escaped; cut to GitHub's limit here. */
  body: string;
  /** The branch the pull request comes from (pull-request-branch). */
  branch: string;
  /** owner/name (GITHUB_REPOSITORY). */
  repository: string;
  /** GITHUB_API_URL. */
  apiUrl: string;
  /** The github-token input. */
  token: string;
  /** The event payload's repository.default_branch; else asked of the API. */
  defaultBranch?: string;
}

export type DriftPullRequestResult =
  { url: string; number: number; created: boolean; pushed: boolean } | { none: string };

/** Where to find the open drift pull request: the repository, the API and the branch. */
export type DriftPullRequestPlace = Pick<
  DriftPullRequest,
  'branch' | 'repository' | 'apiUrl' | 'token'
>;

interface PullRequest {
  number: number;
  html_url: string;
}

/** `body` as GitHub takes it: whole when it fits, else cut with a sentence that says so. */
export function fitBody(body: string): string {
  if (body.length <= MAX_BODY_CHARS) return body;
  // Cut to as many bytes of UTF-8 as GitHub takes characters: never more characters than that.
  return fitSummary(
    body,
    (omitted) =>
      `_This description is cut here: GitHub keeps at most 65,536 characters of a pull request's description. ${omitted} more line${omitted === 1 ? ' is' : 's are'} left out; the drift job's summary lists every change._`,
    MAX_BODY_CHARS,
  );
}

function ownerOf(repository: string): string {
  const owner = repository.split('/')[0] ?? '';
  if (owner === '' || repository.split('/').length !== 2)
    throw new ConfigError(`GITHUB_REPOSITORY must be owner/name, got '${repository}'`);
  return owner;
}

/** The open pull request whose head is the drift branch of this repository, or null. */
export async function findDriftPullRequest(
  place: DriftPullRequestPlace,
): Promise<PullRequest | null> {
  const head = encodeURIComponent(`${ownerOf(place.repository)}:${place.branch}`);
  const open = (await callGitHub(
    place.apiUrl,
    place.token,
    'GET',
    `/repos/${place.repository}/pulls?head=${head}&state=open&per_page=100`,
  )) as PullRequest[];
  return open[0] ?? null;
}

async function defaultBranchOf(request: DriftPullRequest): Promise<string> {
  if (request.defaultBranch !== undefined && request.defaultBranch !== '')
    return request.defaultBranch;
  const repository = (await callGitHub(
    request.apiUrl,
    request.token,
    'GET',
    `/repos/${request.repository}`,
  )) as { default_branch?: unknown };
  if (typeof repository.default_branch !== 'string' || repository.default_branch === '')
    throw new Error(`GitHub did not say which branch of ${request.repository} is the default`);
  return repository.default_branch;
}

/**
 * Pushes the files on the drift branch and opens its pull request, or updates the open one (its
 * title and body; the branch is force-pushed only when its contents change). `{ none }` when the
 * files hold what the default branch holds: nothing to propose (an open pull request is left to
 * closeDriftPullRequest).
 */
export async function openDriftPullRequest(
  request: DriftPullRequest,
): Promise<DriftPullRequestResult> {
  ownerOf(request.repository);
  const defaultBranch = await defaultBranchOf(request);
  if (defaultBranch === request.branch)
    throw new ConfigError(
      `input pull-request-branch names the default branch (${defaultBranch}); name a branch of its own`,
    );
  const pushed = await pushDriftBranch({
    cwd: request.cwd,
    files: request.files,
    message: request.title,
    branch: request.branch,
    defaultBranch,
    token: request.token,
  });
  if ('unchanged' in pushed)
    return { none: `the files pull wrote hold what ${defaultBranch} holds; nothing to propose` };
  const body = fitBody(request.body);
  const open = await findDriftPullRequest(request);
  if (open !== null) {
    await callGitHub(
      request.apiUrl,
      request.token,
      'PATCH',
      `/repos/${request.repository}/pulls/${open.number}`,
      { title: request.title, body },
    );
    return { url: open.html_url, number: open.number, created: false, pushed: pushed.pushed };
  }
  const created = (await callGitHub(
    request.apiUrl,
    request.token,
    'POST',
    `/repos/${request.repository}/pulls`,
    { title: request.title, head: request.branch, base: defaultBranch, body },
  )) as PullRequest;
  return { url: created.html_url, number: created.number, created: true, pushed: pushed.pushed };
}

/** The comment left on the drift pull request as it is closed. */
export const CLOSING_COMMENT =
  'Git and the catalog agree again: the latest drift check found no contract whose catalog state differs from its file, so the edits this pull request proposes are no longer in the catalog. Merging it now would make git differ from the catalog, so it is closed. The next drift found opens a new one from this branch.';

/**
 * Closes the open drift pull request, with a comment saying why (git and the catalog agree again),
 * when there is one; `{ none }` when there is none. The branch stays: the next drift run
 * force-pushes it.
 */
export async function closeDriftPullRequest(
  place: DriftPullRequestPlace,
): Promise<{ url: string; number: number } | { none: string }> {
  const open = await findDriftPullRequest(place);
  if (open === null) return { none: `no open pull request comes from ${place.branch}` };
  await callGitHub(
    place.apiUrl,
    place.token,
    'POST',
    `/repos/${place.repository}/issues/${open.number}/comments`,
    { body: CLOSING_COMMENT },
  );
  await callGitHub(
    place.apiUrl,
    place.token,
    'PATCH',
    `/repos/${place.repository}/pulls/${open.number}`,
    {
      state: 'closed',
    },
  );
  return { url: open.html_url, number: open.number };
}
