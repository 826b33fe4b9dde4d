// The apply step of the Action on main: applies the plan made from the files (refused whole when
// a contract cannot be applied), says each contract in the log as it goes and the whole in the
// summary, annotates failures at their files, and with `verify` runs each contract stored on its
// data: the results in the summary and, where the token may, as a check run on the commit.
import type { ContractResult } from '../apply/apply-plan.js';
import { applyOperation, applyVerdict, verifyApplied } from '../operations/apply.js';
import { deletionGuard } from '../prune/proof.js';
import { repositoryOf } from '../git/repository.js';
import { renderResult } from '../views/render-report.js';
import type { CatalogClient } from '../catalog/client.js';
import { PLAIN } from '../views/colors.js';
import { positionOf } from '../contract/parse.js';
import { listenForInterrupts } from '../support/interrupts.js';
import type { CheckedPlan } from '../operations/plan.js';
import { renderPlanMarkdown } from '../views/render-markdown.js';
import { changeCount } from '../plan/types.js';
import { renderVerificationMarkdown } from '../views/render-verify.js';
import { failedVerification, type VerifyReport } from '../verify/verify-contracts.js';
import type { Runner } from '../views/annotations.js';
import { createCheckRun } from './check-runs.js';
import type { ActionSettings } from './input-helper.js';
import { appliedMarkdown } from './markdown.js';

/** Where the rest of a cut plan is: the plan file the Action saves. */
export const WHOLE_PLAN =
  'the whole plan is in the file the `plan-file` output names (`npx contracts show FILE --markdown` renders it)';

export interface ApplyStep {
  settings: ActionSettings;
  runner: Runner;
  client: CatalogClient;
  outcome: CheckedPlan;
  /** Writes the step's summary, cut to what GitHub keeps. */
  summary: (markdown: string, rest: string) => Promise<void>;
}

/** The verification as the `verification` output, and as a check run on the commit. */
async function reportVerification(
  verified: VerifyReport,
  settings: ActionSettings,
  runner: Runner,
): Promise<void> {
  const unheld = verified.results.filter(failedVerification).length;
  const conclusion = unheld > 0 ? 'failure' : verified.results.length === 0 ? 'neutral' : 'success';
  runner.setOutput('verification', conclusion);
  if (verified.unavailable !== undefined) runner.info(`Not verified: ${verified.unavailable}.`);
  if (
    settings.githubToken === undefined ||
    settings.repository === undefined ||
    settings.sha === undefined
  )
    return;
  const made = await createCheckRun(settings.apiUrl, settings.githubToken, settings.repository, {
    name: 'data contracts verified',
    headSha: settings.sha,
    conclusion,
    title:
      unheld > 0
        ? `${unheld} of ${verified.results.length} contracts do not hold on their data`
        : verified.results.length === 0
          ? 'Not verified'
          : `${verified.results.length} contract${verified.results.length === 1 ? '' : 's'} hold on their data`,
    summary: renderVerificationMarkdown(verified),
  });
  runner.info(
    made.created
      ? `Created the check run "data contracts verified" (${conclusion}).`
      : `No check run: ${made.why}; the results are in the step's summary.`,
  );
}

export async function applyStep(step: ApplyStep): Promise<{ failed: string | null }> {
  const { settings, runner, client, outcome, summary } = step;
  const { plan, files, blocked } = outcome;
  if (blocked > 0) {
    await summary(renderPlanMarkdown(plan, { title: 'Data contracts: apply refused' }), WHOLE_PLAN);
    return {
      failed: `the plan has ${blocked} contract${blocked === 1 ? '' : 's'} that cannot be applied; nothing was sent`,
    };
  }
  if (changeCount(plan) === 0) {
    await runner.writeSummary(
      '### Data contracts applied\n\nNo changes: the catalog matches the contract files.\n',
    );
    return { failed: null };
  }
  // A cancelled job (SIGTERM) or Ctrl-C: nothing new is sent, what is in flight finishes, and
  // the summary still says what happened.
  runner.sending?.();
  const interrupt = listenForInterrupts((text) => runner.info(text.trim()));
  const report = await applyOperation(outcome, client, {
    signal: interrupt.signal,
    deletionGuard: deletionGuard(
      settings.workspace,
      repositoryOf(settings.workspace, {
        GITHUB_REPOSITORY: settings.repository,
        GITHUB_SERVER_URL: settings.serverUrl,
      }),
    ),
    // The step's log says what happens to each contract as it happens, as the CLI does.
    onResult: (result) => {
      const text = renderResult(result, PLAIN);
      if (text !== null) runner.info(text);
    },
  }).finally(() => interrupt.release());
  const applied = report.results.filter((r) => r.status === 'applied').length;
  runner.setOutput('applied', String(applied));
  // With verify: each contract stored, run on its data; in the summary and, on main, a check run.
  const verified = settings.verify ? await verifyApplied(report, outcome, client) : undefined;
  await summary(
    appliedMarkdown(report) +
      (verified === undefined ? '' : `\n${renderVerificationMarkdown(verified)}`),
    "the step's log lists every contract as it was applied",
  );
  if (verified !== undefined) await reportVerification(verified, settings, runner);
  const failed = report.results.filter(
    (r): r is Extract<ContractResult, { status: 'failed' }> => r.status === 'failed',
  );
  const byFile = new Map(files.map((file) => [file.file, file]));
  for (const result of failed) {
    const file = byFile.get(result.file);
    const at =
      file === undefined ? { line: 1, column: 1 } : positionOf(file, '/fullyQualifiedName');
    runner.error(
      `${result.httpStatus === null ? '' : `${result.httpStatus} `}${result.errorType}: ${result.message}`,
      {
        file: result.file,
        startLine: at.line,
        startColumn: at.column,
        title: `apply failed for ${result.fullyQualifiedName}`,
      },
    );
  }
  const verdict = applyVerdict(report, verified);
  if (verdict === null) return { failed: null };
  switch (verdict.failed) {
    case 'interrupted':
      return {
        failed: `apply interrupted (${interrupt.received() ?? 'SIGINT'}): what was in flight finished, nothing further was sent; applied: ${applied}`,
      };
    case 'stopped': {
      const { by, notAttempted } = verdict;
      return {
        failed: `apply stopped: ${by.fullyQualifiedName} failed with ${String(by.httpStatus)} ${by.errorType}: ${by.message}. Applied: ${applied}; not attempted: ${notAttempted.length === 0 ? 'none' : notAttempted.join(', ')}.`,
      };
    }
    case 'failed':
      return {
        failed: `${verdict.count} contract${verdict.count === 1 ? '' : 's'} failed to apply`,
      };
    case 'unheld': {
      const n = verdict.count;
      return {
        failed: `${n} contract${n === 1 ? '' : 's'} applied ${n === 1 ? 'does' : 'do'} not hold on the data: stored in the catalog, but the catalog's run of ${n === 1 ? 'it' : 'them'} failed (see the summary)`,
      };
    }
  }
}
