// The drift job's pull request (`open-pull-request: true`): the files pulled to hold the catalog's
// values (the pull operation, as `contracts pull` runs it), committed on one branch and proposed
// by one pull request that later runs keep true (drift-pull-request.ts); none when nothing was
// pulled, and an earlier one closed once git and the catalog agree again.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogClient } from '../catalog/client.js';
import { checkoutOf } from '../git/repository.js';
import { ConfigError } from '../model/errors.js';
import type { ProfileSetting } from '../model/profile.js';
import { pullOperation } from '../operations/pull.js';
import { pulledFiles } from '../pull/types.js';
import { renderPullMarkdown } from '../views/pull.js';
import type { Runner } from '../views/annotations.js';
import { closeDriftPullRequest, openDriftPullRequest } from './drift-pull-request.js';
import type { ActionSettings } from './input-helper.js';

/** The title of the drift pull request, and the subject of its commit. */
export const DRIFT_TITLE = 'Data contracts: edits made in the catalog';

/** The event payload's default branch (a schedule's and a push's carry it). */
async function defaultBranchOf(settings: ActionSettings): Promise<string | undefined> {
  if (settings.eventPath === undefined) return undefined;
  try {
    const event = JSON.parse(await readFile(settings.eventPath, 'utf8')) as {
      repository?: { default_branch?: unknown };
    };
    const branch = event.repository?.default_branch;
    return typeof branch === 'string' && branch !== '' ? branch : undefined;
  } catch {
    return undefined;
  }
}

export interface DriftPullRequestStep {
  settings: ActionSettings;
  runner: Runner;
  client: CatalogClient;
  catalogUrl: string;
  profile: ProfileSetting;
  /** Every secret out of what is written where people read it. */
  redact: (text: string) => string;
}

/**
 * Pulls the catalog's edits into the checkout and keeps the drift pull request true; a sentence
 * when the step fails for it, else null.
 */
export async function driftPullRequestStep(step: DriftPullRequestStep): Promise<string | null> {
  const { settings, runner, client } = step;
  if (settings.githubToken === undefined || settings.repository === undefined)
    throw new ConfigError(
      'open-pull-request needs the github-token input and GITHUB_REPOSITORY: the pull request is opened through the REST API',
    );
  const outcome = await pullOperation(
    {
      paths: settings.paths,
      cwd: settings.workspace,
      catalogUrl: step.catalogUrl,
      profile: step.profile,
      check: false,
      repository: checkoutOf(settings.workspace, {
        GITHUB_REPOSITORY: settings.repository,
        GITHUB_SERVER_URL: settings.serverUrl,
      }),
      history: (id) => client.contractHistory(id),
    },
    client,
  );
  if (!outcome.ok)
    return `${outcome.problems.length} problems in contract files; nothing was pulled`;
  const { report } = outcome;
  const place = {
    branch: settings.pullRequestBranch,
    repository: settings.repository,
    apiUrl: settings.apiUrl,
    token: settings.githubToken,
  };
  const files = pulledFiles(report).map((pulled) => path.resolve(settings.workspace, pulled.file));
  if (files.length === 0) {
    const closed = await closeDriftPullRequest(place);
    if ('url' in closed)
      runner.info(
        `Git and the catalog agree again: closed the drift pull request #${closed.number} (${closed.url}).`,
      );
    else runner.info('Nothing to pull from the catalog: no drift pull request.');
    return null;
  }
  const defaultBranch = await defaultBranchOf(settings);
  const opened = await openDriftPullRequest({
    ...place,
    cwd: settings.workspace,
    files,
    title: DRIFT_TITLE,
    body: step.redact(renderPullMarkdown(report)),
    ...(defaultBranch === undefined ? {} : { defaultBranch }),
  });
  if ('none' in opened) {
    runner.info(`No drift pull request: ${opened.none}.`);
    return null;
  }
  runner.setOutput('pull-request', opened.url);
  runner.info(
    `${opened.created ? 'Opened' : 'Updated'} the drift pull request #${opened.number} (${opened.url}) with ${files.length} file${files.length === 1 ? '' : 's'} pulled from the catalog.`,
  );
  const left = report.contracts.filter((c) => c.status === 'refused' || c.status === 'error');
  return left.length === 0
    ? null
    : `${left.length} contract file${left.length === 1 ? '' : 's'} could not be pulled; see the pull request`;
}
