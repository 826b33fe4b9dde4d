// What the Action does for each command, written against a small interface to GitHub's runner
// (annotations, outputs, summary) so the entry stays a few lines. Uses the same functions as
// the CLI: load and validate, plan, apply.
import { redactorFor } from '../catalog/redact.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connect } from '../operations/connection.js';
import { planOperation, type PlanVerdict } from '../operations/plan.js';
import { validateOperation } from '../operations/validate.js';
import { sarifText } from '../views/sarif.js';
import { ConfigError } from '../model/errors.js';
import {
  currentCommit,
  deletedContractFiles,
  fileAtRef,
  filesChangedBetween,
} from '../pipeline/git.js';
import { checkoutOf } from '../git/repository.js';
import { pruneWithin } from '../prune/scope.js';
import { problemResults, type SarifResult } from '../plan/sarif-results.js';
import { compilePolicies } from '../policy/policies.js';
import { profileSetting } from '../profile/profile.js';
import { writePlanFile } from '../plan/plan-file.js';
import { closingLine } from '../views/render-human.js';
import { renderPlanMarkdown } from '../views/render-markdown.js';
import { codeSpan, markdownText } from '../views/markdown-text.js';
import { changeCount, hasBreaking, type Plan } from '../plan/types.js';
import { IssueComments } from './github-comments.js';
import { applyStep, WHOLE_PLAN } from './apply-step.js';
import { driftPullRequestStep } from './drift-step.js';
import { commentBody, gateMarkdown, problemsMarkdown } from './markdown.js';
import { cutNotice, fitSummary } from './summary-limit.js';
import {
  deletedFilesText,
  leftUnmanaged,
  type DeletedContractFile,
  type DeletedSaying,
} from '../read/deleted-files.js';
import type { ActionSettings } from './input-helper.js';
import {
  gateAnnotations,
  planAnnotations,
  problemAnnotations,
  type Runner,
} from '../views/annotations.js';

export type { AnnotationPlace, Runner } from '../views/annotations.js';

export interface ActionOutcome {
  failed: string | null;
}

async function pullRequestNumber(
  settings: ActionSettings,
): Promise<{ number: number; base: string; head: string } | null> {
  if (settings.eventPath === undefined || !settings.eventName.startsWith('pull_request'))
    return null;
  const event = JSON.parse(await readFile(settings.eventPath, 'utf8')) as {
    pull_request?: { number?: number; base?: { sha?: string }; head?: { sha?: string } };
  };
  const pr = event.pull_request;
  if (pr?.number === undefined || pr.base?.sha === undefined || pr.head?.sha === undefined)
    return null;
  return { number: pr.number, base: pr.base.sha, head: pr.head.sha };
}

/** Where the deleted contract files a plan names were deleted. */
const IN_THIS_PR = 'in this pull request';
/** Where the rest of a cut summary is: problems are annotations, and so in the step's log. */
const EVERY_PROBLEM = "every problem is also an annotation in the step's log";

export async function runAction(settings: ActionSettings, runner: Runner): Promise<ActionOutcome> {
  if (settings.catalogToken !== undefined) runner.setSecret(settings.catalogToken);
  // Every form of the token, and credentials of known shapes (a git extraheader, a GitHub token),
  // out of everything the run writes where people read it: the summary, the comment, errors.
  const redact = redactorFor(settings.catalogToken ?? '');
  /** Writes the step's summary, cut to what GitHub keeps; `rest` says where what is cut can be read. */
  const summary = (markdown: string, rest: string): Promise<void> =>
    runner.writeSummary(fitSummary(redact(markdown), (omitted) => cutNotice(omitted, rest)));
  /** The findings as SARIF, when the sarif-file input asks for them (relative to the workspace). */
  const sarif = async (results: readonly SarifResult[], failure?: string): Promise<void> => {
    if (settings.sarifFile === undefined) return;
    const file = path.resolve(settings.workspace, settings.sarifFile);
    await writeFile(file, sarifText(results, failure));
    runner.setOutput('sarif-file', file);
  };
  runner.setOutput('has-changes', 'false');
  runner.setOutput('breaking', 'false');
  runner.setOutput('applied', '0');
  runner.setOutput('pull-request', '');

  if (settings.command === 'validate') {
    // A profile named (not auto, which would ask the catalog) adds what its catalog cannot store.
    // The settings file's problems with the files'.
    const checked = await validateOperation({
      paths: settings.paths,
      cwd: settings.workspace,
      profile: profileSetting(settings.catalogProfile, 'catalog-profile'),
      settingsProblems: settings.settingsProblems,
    });
    const { problems } = checked;
    await sarif(problemResults(problems, 'invalidContract'));
    if (problems.length > 0) {
      problemAnnotations(problems, runner);
      await summary(problemsMarkdown(problems), EVERY_PROBLEM);
      return { failed: `${problems.length} problems in contract files` };
    }
    await runner.writeSummary(`### Data contracts: ${checked.fileCount} valid files\n`);
    return { failed: null };
  }

  const pr = await pullRequestNumber(settings);
  /** The contract files the pull request deletes, each said as a warning; none when git cannot tell. */
  const deletedInPullRequest = (
    deleted: readonly DeletedContractFile[] | undefined,
    plan: Plan,
    saying: DeletedSaying,
  ): readonly DeletedContractFile[] => {
    if (deleted === undefined) {
      runner.info(
        'Could not tell which contract files this pull request deletes: git could not compare its base and head in this checkout (actions/checkout with fetch-depth: 0 fetches the base commit).',
      );
      return [];
    }
    const unmanaged = leftUnmanaged(deleted, plan);
    for (const file of unmanaged)
      runner.warning(deletedFilesText([file], IN_THIS_PR, undefined, saying));
    return unmanaged;
  };
  /**
   * Keeps the pull request's one plan comment true: on every plan run, a failed one included, so
   * that reviewers never approve a plan that no longer holds.
   */
  const stickyComment = async (markdown: string): Promise<void> => {
    if (settings.command !== 'plan' || !settings.comment || pr === null) return;
    if (settings.githubToken === undefined || settings.repository === undefined) {
      runner.warning(
        'comment is on but github-token or GITHUB_REPOSITORY is missing; no pull request comment was posted',
      );
      return;
    }
    const marker = `<!-- contracts-gitops:plan:${settings.paths.join(',')} -->`;
    const summaryUrl =
      settings.runId === undefined
        ? null
        : `${settings.serverUrl}/${settings.repository}/actions/runs/${settings.runId}`;
    const result = await new IssueComments(
      settings.apiUrl,
      settings.githubToken,
      settings.repository,
    ).upsert(pr.number, marker, redact(commentBody(markdown, marker, summaryUrl)));
    runner.info(
      `${result.action === 'created' ? 'Posted' : 'Updated'} the plan comment on pull request #${pr.number}.`,
    );
  };
  // A broken settings file: each problem at its line, in the summary and the comment; nothing sent.
  if (settings.settingsProblems.length > 0) {
    await sarif(problemResults(settings.settingsProblems, 'invalidContract'));
    problemAnnotations(settings.settingsProblems, runner);
    const markdown = problemsMarkdown(settings.settingsProblems);
    await summary(markdown, EVERY_PROBLEM);
    await stickyComment(markdown);
    return {
      failed: `${settings.settingsProblems.length} problems in the settings file (.contracts.yaml); nothing was sent`,
    };
  }
  let only: Set<string> | undefined;
  if (settings.changedOnly) {
    if (pr === null)
      runner.info('changed-only applies to pull requests; planning every contract file.');
    else only = await filesChangedBetween(pr.base, pr.head, settings.workspace);
  }
  // The contract files the pull request deletes, read once: said under a plan, and with prune on
  // changed-only files, what it may delete.
  const deletedFiles =
    pr !== null && (settings.command === 'plan' || (settings.prune && only !== undefined))
      ? await deletedContractFiles(settings.workspace, pr.base, pr.head, settings.paths)
      : undefined;
  const { client, catalogUrl, profile } = connect(
    {
      catalogProfile: settings.catalogProfile,
      concurrency: settings.concurrency,
    },
    { CATALOG_URL: settings.catalogUrl, CATALOG_TOKEN: settings.catalogToken },
  );
  try {
    const outcome = await planOperation(
      {
        paths: settings.paths,
        cwd: settings.workspace,
        catalogUrl,
        gitCommit: settings.sha ?? currentCommit(settings.workspace, {}),
        ...(only && { only }),
        keepLive: settings.command === 'apply',
        profile,
        policies: compilePolicies(settings.policies),
        repository: checkoutOf(settings.workspace, {
          GITHUB_REPOSITORY: settings.repository,
          GITHUB_SERVER_URL: settings.serverUrl,
        }),
        ...(settings.prune
          ? {
              prune: pruneWithin(only, deletedFiles, settings.workspace),
            }
          : {}),
        ...(settings.impactDepth !== undefined && { impactDepth: settings.impactDepth }),
      },
      client,
      {
        // The version gate of a pull request's plan, against its base.
        versionBase:
          settings.command === 'plan' && pr !== null
            ? {
                cwd: settings.workspace,
                baseText: (absolute) => fileAtRef(settings.workspace, pr.base, absolute),
                acknowledgements: settings.acknowledgements,
              }
            : undefined,
        failOn: settings.failOn,
      },
    ).catch(async (error: unknown) => {
      // The catalog unreachable, a token refused, a setting wrong: said in the summary and the
      // comment too, which would otherwise still show the last plan that was made.
      const why = redact(error instanceof Error ? error.message : String(error));
      const markdown = `### ${settings.command === 'apply' ? 'Data contracts: apply failed' : 'Data contracts: plan failed'}\n\nNo plan could be made, and nothing was sent: ${markdownText(why)}\n`;
      await runner.writeSummary(markdown);
      await stickyComment(markdown);
      await sarif([], why);
      throw error;
    });
    if (!outcome.ok) {
      await sarif(problemResults(outcome.problems, 'invalidContract'));
      problemAnnotations(outcome.problems, runner);
      const markdown = problemsMarkdown(outcome.problems);
      await summary(markdown, EVERY_PROBLEM);
      await stickyComment(markdown);
      return { failed: `${outcome.problems.length} problems in contract files; nothing was sent` };
    }
    const { plan, gate } = outcome;
    if (plan.changes.length === 0 && only === undefined) {
      // No file where contracts are looked for: a wrong path input, never "no changes".
      const markdown = `### Data contracts: no contract files\n\nNo contract file (*.yaml, *.yml) was found in ${settings.paths.map(codeSpan).join(', ')}; nothing was planned. Set the \`path\` input to the folder or files that hold the contracts.\n`;
      await runner.writeSummary(markdown);
      await stickyComment(markdown);
      return { failed: `no contract files in ${settings.paths.join(', ')}; nothing was planned` };
    }
    const planFile = path.join(settings.tempDir, 'contracts-plan.json');
    await writePlanFile(planFile, plan);
    runner.setOutput('plan-file', planFile);
    runner.setOutput('has-changes', String(changeCount(plan) > 0));
    runner.setOutput('breaking', String(hasBreaking(plan)));
    // Counts, for routing reviews.
    runner.setOutput('to-create', String(plan.summary.create));
    runner.setOutput('to-change', String(plan.summary.update));
    runner.setOutput('to-delete', String(plan.summary.delete));
    runner.setOutput(
      'breaking-changes',
      String(plan.changes.reduce((n, change) => n + change.breaking.length, 0)),
    );
    runner.setOutput('errors', String(plan.summary.error + plan.summary.missing));
    planAnnotations(plan, runner);

    if (settings.command === 'plan' || settings.command === 'drift') {
      const title = settings.command === 'drift' ? 'Data contract drift' : 'Data contracts plan';
      const saying = { pruning: settings.prune, keptForOthers: outcome.keptForOthers };
      const deleted =
        settings.command === 'plan' && pr !== null
          ? deletedInPullRequest(deletedFiles, plan, saying)
          : [];
      if (gate !== undefined) gateAnnotations(gate, runner);
      await sarif(outcome.sarifResults());
      const markdown =
        renderPlanMarkdown(plan, {
          title,
          deleted: { files: deleted, where: IN_THIS_PR, ...saying },
          ...(settings.mentions && { mentions: settings.mentions }),
        }) + (gate === undefined ? '' : gateMarkdown(gate));
      await summary(
        settings.command === 'drift' && changeCount(plan) > 0
          ? `${markdown}\n${changeCount(plan)} contract${changeCount(plan) === 1 ? '' : 's'} in the catalog differ from git.\n`
          : markdown,
        WHOLE_PLAN,
      );
      await stickyComment(markdown);
      runner.info(closingLine(plan));
      // The scheduled job's pull request of the catalog's edits, when asked for.
      const pulling =
        settings.command === 'drift' && settings.openPullRequest
          ? await driftPullRequestStep({ settings, runner, client, catalogUrl, profile, redact })
          : null;
      return { failed: verdictText(outcome.verdict) ?? pulling };
    }

    // apply
    return await applyStep({ settings, runner, client, outcome, summary });
  } finally {
    await client.close();
  }
}

/** Why a plan or drift step fails, as the step says it; null when it passes. */
function verdictText(verdict: PlanVerdict): string | null {
  if (verdict === null) return null;
  const { failed } = verdict;
  if (failed === 'fail-on') return verdict.breach;
  const n = verdict.count;
  return failed === 'blocked'
    ? `${n} contract${n === 1 ? '' : 's'} cannot be planned; see the annotations`
    : `${n} contract version${n === 1 ? '' : 's'} not bumped as the change needs; see the annotations`;
}

export function assertCatalogSettings(settings: ActionSettings): void {
  // validate needs no catalog; a broken settings file is what the step reports first.
  if (settings.command === 'validate' || settings.settingsProblems.length > 0) return;
  if (settings.catalogUrl === undefined)
    throw new ConfigError(
      "input catalog-url (or CATALOG_URL, or catalog.url in .contracts.yaml: on a pull request, its base commit's) is required for this command",
    );
  if (settings.catalogToken === undefined)
    throw new ConfigError('input catalog-token (or CATALOG_TOKEN) is required for this command');
}
