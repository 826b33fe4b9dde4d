// The only module of the Action that reads inputs or the environment. Everything else takes
// these settings as a plain object.
import { getBooleanInput, getInput } from '@actions/core';
import { tmpdir } from 'node:os';
import { ConfigError } from '../errors.js';

export type ActionCommand = 'plan' | 'apply' | 'validate' | 'drift';

export interface ActionSettings {
  /** What to do: plan (pull requests), apply (main), validate (no catalog) or drift (scheduled). */
  command: ActionCommand;
  /** Contract files or directories, relative to the workspace. */
  paths: string[];
  /** Catalog base URL (`catalog-url`, else CATALOG_URL). */
  catalogUrl: string | undefined;
  /** Catalog profile (`catalog-profile`, else CATALOG_PROFILE, else auto). */
  catalogProfile: string | undefined;
  /** Catalog token (`catalog-token`, else CATALOG_TOKEN); masked before anything is logged. */
  catalogToken: string | undefined;
  /** Token for the issue-comments API (`github-token`, default the workflow token). */
  githubToken: string | undefined;
  /** Plan only the contract files the pull request changes. */
  changedOnly: boolean;
  /** Post one sticky comment on the pull request. */
  comment: boolean;
  /** Fail the step when the plan has breaking changes. */
  failOnBreaking: boolean;
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
}

const COMMANDS: readonly ActionCommand[] = ['plan', 'apply', 'validate', 'drift'];

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): ActionSettings {
  const command = (getInput('command') || 'plan').trim() as ActionCommand;
  if (!COMMANDS.includes(command))
    throw new ConfigError(`input command must be one of ${COMMANDS.join(', ')}, got '${command}'`);
  const boolean = (name: string, fallback: boolean): boolean =>
    getInput(name).trim() === '' ? fallback : getBooleanInput(name);
  return {
    command,
    paths: (getInput('path') || 'contracts')
      .split(/[\n,]/)
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    catalogUrl: optional(getInput('catalog-url')) ?? optional(env.CATALOG_URL),
    catalogProfile: optional(getInput('catalog-profile')) ?? optional(env.CATALOG_PROFILE),
    catalogToken: optional(getInput('catalog-token')) ?? optional(env.CATALOG_TOKEN),
    githubToken: optional(getInput('github-token')) ?? optional(env.GITHUB_TOKEN),
    changedOnly: boolean('changed-only', false),
    comment: boolean('comment', true),
    failOnBreaking: boolean('fail-on-breaking', false),
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: optional(env.GITHUB_EVENT_PATH),
    repository: optional(env.GITHUB_REPOSITORY),
    apiUrl: optional(env.GITHUB_API_URL) ?? 'https://api.github.com',
    serverUrl: optional(env.GITHUB_SERVER_URL) ?? 'https://github.com',
    runId: optional(env.GITHUB_RUN_ID),
    tempDir: optional(env.RUNNER_TEMP) ?? tmpdir(),
    sha: optional(env.GITHUB_SHA),
  };
}
