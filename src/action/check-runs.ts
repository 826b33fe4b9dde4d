// The verification of an apply on main as a GitHub check run (`POST /repos/{repo}/check-runs`),
// so that the commit shows whether its contracts hold on their data; a token without the
// `checks: write` permission cannot create one, and the step's summary then carries the results.
import { GitHubApiError, callGitHub } from './github-api.js';

/** GitHub's limit on a check run's output summary. */
const MAX_SUMMARY = 65_535;

export interface CheckRun {
  name: string;
  headSha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  summary: string;
}

/** Creates the check run; `created: false` with why when the token may not. */
export async function createCheckRun(
  apiUrl: string,
  token: string,
  repository: string,
  run: CheckRun,
): Promise<{ created: true; id: number } | { created: false; why: string }> {
  const summary =
    run.summary.length <= MAX_SUMMARY
      ? run.summary
      : `${run.summary.slice(0, MAX_SUMMARY - 60)}\n\n_Cut to GitHub's limit: see the job summary._`;
  try {
    const answer = (await callGitHub(apiUrl, token, 'POST', `/repos/${repository}/check-runs`, {
      name: run.name,
      head_sha: run.headSha,
      status: 'completed',
      conclusion: run.conclusion,
      output: { title: run.title, summary },
    })) as { id: number };
    return { created: true, id: answer.id };
  } catch (error) {
    if (error instanceof GitHubApiError && (error.status === 403 || error.status === 404))
      return {
        created: false,
        why: `the workflow's token may not create check runs (${error.status}; give the job permissions: checks: write)`,
      };
    throw error;
  }
}
