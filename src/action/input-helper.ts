// The only module of the Action that reads inputs or the environment. Everything else takes
// these settings as a plain object.
import { getBooleanInput, getInput } from '@actions/core';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Problem } from '../model/problem.js';
import { ConfigError } from '../model/errors.js';
import {
  loadSettings,
  type Acknowledgement,
  type SettingsLoad,
} from '../settings/settings-file.js';
import { FAIL_ON, type FailOn } from '../settings/settled.js';
import { branchNameProblem } from './branch-name.js';
import { baseRef, isPullRequestEvent, routingAt, type Routing } from '../settings/trusted-ref.js';
import type { Mentions } from '../settings/mentions.js';
import type { PolicySetting } from '../policy/policies.js';

export type ActionCommand = 'plan' | 'apply' | 'validate' | 'drift';

export interface ActionSettings {
  /** What to do: plan (pull requests), apply (main), validate (no catalog) or drift (scheduled). */
  command: ActionCommand;
  /** Contract files or directories, relative to the workspace. */
  paths: string[];
  /**
   * Catalog base URL (`catalog-url`, else CATALOG_URL, else catalog.url of .contracts.yaml: on a
   * pull request, of its base commit's, never the pull request's).
   */
  catalogUrl: string | undefined;
  /** Catalog profile (`catalog-profile`, else CATALOG_PROFILE, else the file's as for the URL). */
  catalogProfile: string | undefined;
  /** What the step's log says about where the catalog settings came from. */
  notes: string[];
  /** Catalog token (`catalog-token`, else CATALOG_TOKEN); masked before anything is logged. */
  catalogToken: string | undefined;
  /** Token for the issue-comments API (`github-token`, default the workflow token). */
  githubToken: string | undefined;
  /** Plan only the contract files the pull request changes. */
  changedOnly: boolean;
  /** Post one sticky comment on the pull request. */
  comment: boolean;
  /** Plan (and apply) the deletion of managed contracts whose files are gone. */
  prune: boolean;
  /** After apply, run each contract stored on its data in the catalog. */
  verify: boolean;
  /** Levels of lineage read for the consumers of a breaking change (impact.depth of the file). */
  impactDepth: number | undefined;
  /** GitHub handles of catalog owners, mentioned in the comment (impact.mentions of the file). */
  mentions: Mentions | undefined;
  /** When the plan fails the step beside its errors: never, breaking changes, or any change. */
  failOn: FailOn;
  /** Requests at once (CATALOG_CONCURRENCY, else the settings file); the default when absent. */
  concurrency: number | undefined;
  /** The problems of the repository's settings file (.contracts.yaml): the step reports them. */
  settingsProblems: Problem[];
  /** Breaking changes let through the version gate (acknowledgedBreaks of .contracts.yaml). */
  acknowledgements: Acknowledgement[];
  /** Where to write the findings as SARIF 2.1.0 (for github/codeql-action/upload-sarif). */
  sarifFile: string | undefined;
  /** The team's policies (policies of .contracts.yaml). */
  policies: PolicySetting[];
  /** The checkout (GITHUB_WORKSPACE). */
  workspace: string;
  /** GITHUB_EVENT_NAME, e.g. pull_request or push. */
  eventName: string;
  /** GITHUB_EVENT_PATH: the webhook payload of the event. */
  eventPath: string | undefined;
  /** owner/name (GITHUB_REPOSITORY). */
  repository: string | undefined;
  /** GITHUB_API_URL. */
  apiUrl: string;
  /** GITHUB_SERVER_URL, for links to the run. */
  serverUrl: string;
  /** GITHUB_RUN_ID, for links to the job summary. */
  runId: string | undefined;
  /** Where the plan file is written (RUNNER_TEMP). */
  tempDir: string;
  /** The commit being planned (GITHUB_SHA). */
  sha: string | undefined;
  /** With drift: propose the catalog's edits as one pull request (`open-pull-request`). */
  openPullRequest: boolean;
  /** The branch that pull request comes from (`pull-request-branch`). */
  pullRequestBranch: string;
}

const COMMANDS: readonly ActionCommand[] = ['plan', 'apply', 'validate', 'drift'];

/** The `path` input's paths, else the settings file's (relative to its folder), else contracts. */
function pathsOf(input: string, loaded: SettingsLoad, workspace: string): string[] {
  const given = input
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (given.length > 0) return given;
  if (!loaded.ok || loaded.settings.paths === undefined) return ['contracts'];
  const directory = loaded.directory ?? workspace;
  return loaded.settings.paths.map(
    (p) => path.relative(workspace, path.resolve(directory, p)) || '.',
  );
}

function failOnOf(value: string | undefined): FailOn {
  const failOn = value ?? 'never';
  if (!FAIL_ON.includes(failOn as FailOn))
    throw new ConfigError(
      `input fail-on must be never, breaking, breaking-with-consumers or change, got '${failOn}'`,
    );
  return failOn as FailOn;
}

function concurrencyOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new ConfigError(
      `CATALOG_CONCURRENCY must be a whole number from 1 to 256, got '${value}'`,
    );
  return n;
}

/** The `pull-request-branch` input: a name git takes for a branch, else an error saying why not. */
function pullRequestBranchOf(value: string | undefined): string {
  const branch = value ?? 'contracts/drift';
  const problem = branchNameProblem(branch);
  if (problem !== null)
    throw new ConfigError(
      `input pull-request-branch must be a git branch name, got '${branch}': ${problem}`,
    );
  return branch;
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The catalog's URL and profile: an input, else the environment, else the settings file's. On a
 * pull request the file is the base commit's (settings/trusted-ref.ts): what the pull request
 * proposes never decides where the catalog token goes. `notes` gets what the step's log says.
 */
function routingOf(
  command: ActionCommand,
  loaded: SettingsLoad,
  workspace: string,
  env: NodeJS.ProcessEnv,
  notes: string[],
): Routing {
  const given: Routing = {
    url: optional(getInput('catalog-url')) ?? optional(env.CATALOG_URL),
    profile: optional(getInput('catalog-profile')) ?? optional(env.CATALOG_PROFILE),
  };
  const head = loaded.ok ? (loaded.settings.catalog ?? {}) : {};
  // validate sends nothing; a broken file is reported before anything is sent.
  const fromFile =
    command === 'validate' ||
    !loaded.ok ||
    !isPullRequestEvent(env.GITHUB_EVENT_NAME) ||
    (given.url !== undefined && given.profile !== undefined)
      ? head
      : baseRouting(workspace, env, given, head, notes);
  return { url: given.url ?? fromFile.url, profile: given.profile ?? fromFile.profile };
}

/**
 * The routing of the pull request's base commit's settings file (none when it has no file). A
 * base commit the checkout lacks and origin cannot give is an error when the URL would come from
 * it; when an input gives the URL, the profile is then asked of the catalog (auto), never taken
 * from the pull request.
 */
function baseRouting(
  workspace: string,
  env: NodeJS.ProcessEnv,
  given: Routing,
  head: Routing,
  notes: string[],
): Routing {
  let ref;
  try {
    ref = baseRef(workspace, env.GITHUB_EVENT_PATH);
  } catch (error) {
    if (given.url === undefined || !(error instanceof ConfigError)) throw error;
    if (head.profile !== undefined)
      notes.push(
        "The pull request's base commit is not in this checkout and could not be fetched, so catalog.profile is not read from .contracts.yaml: the catalog is asked which it is (auto). Check out with fetch-depth: 0, or give the catalog-profile input.",
      );
    return {};
  }
  const base = routingAt(workspace, ref, (text, absolute) => {
    const read = loadSettings(workspace, absolute, text);
    return read.ok ? (read.settings.catalog ?? {}) : {};
  });
  if (head.url !== base.url || head.profile !== base.profile)
    notes.push(
      `This pull request changes catalog.url or catalog.profile in .contracts.yaml; until it is merged, the catalog's URL and profile come from ${ref.shown}, never from the pull request.`,
    );
  return base;
}

/**
 * The Action's settings: an input beats the environment, which beats the repository's
 * .contracts.yaml, which beats the default.
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): ActionSettings {
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const loaded = loadSettings(workspace);
  const file = loaded.ok ? loaded.settings : {};
  const command = (getInput('command') || 'plan').trim() as ActionCommand;
  if (!COMMANDS.includes(command))
    throw new ConfigError(`input command must be one of ${COMMANDS.join(', ')}, got '${command}'`);
  const boolean = (name: string, fallback: boolean): boolean =>
    getInput(name).trim() === '' ? fallback : getBooleanInput(name);
  const openPullRequest = boolean('open-pull-request', false);
  if (openPullRequest && command !== 'drift')
    throw new ConfigError(
      `input open-pull-request works only with command: drift (it proposes the catalog's edits), not with command: ${command}`,
    );
  const notes: string[] = [];
  const routing = routingOf(command, loaded, workspace, env, notes);
  return {
    command,
    paths: pathsOf(getInput('path'), loaded, workspace),
    catalogUrl: routing.url,
    catalogProfile: routing.profile,
    notes,
    catalogToken: optional(getInput('catalog-token')) ?? optional(env.CATALOG_TOKEN),
    githubToken: optional(getInput('github-token')) ?? optional(env.GITHUB_TOKEN),
    changedOnly: boolean('changed-only', false),
    comment: boolean('comment', true),
    prune: boolean('prune', false),
    verify: boolean('verify', false),
    impactDepth: file.impact?.depth,
    mentions: file.impact?.mentions,
    failOn: failOnOf(
      optional(getInput('fail-on')) ??
        (boolean('fail-on-breaking', false) ? 'breaking' : undefined) ??
        optional(env.CONTRACTS_FAIL_ON) ??
        file.failOn,
    ),
    concurrency: concurrencyOf(optional(env.CATALOG_CONCURRENCY)) ?? file.concurrency,
    settingsProblems: loaded.ok ? [] : loaded.problems,
    acknowledgements: file.acknowledgedBreaks ?? [],
    sarifFile: optional(getInput('sarif-file')),
    policies: file.policies ?? [],
    workspace,
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: optional(env.GITHUB_EVENT_PATH),
    repository: optional(env.GITHUB_REPOSITORY),
    apiUrl: optional(env.GITHUB_API_URL) ?? 'https://api.github.com',
    serverUrl: optional(env.GITHUB_SERVER_URL) ?? 'https://github.com',
    runId: optional(env.GITHUB_RUN_ID),
    tempDir: optional(env.RUNNER_TEMP) ?? tmpdir(),
    sha: optional(env.GITHUB_SHA),
    openPullRequest,
    pullRequestBranch: pullRequestBranchOf(optional(getInput('pull-request-branch'))),
  };
}
