// One call to GitHub's REST API with the workflow's token, as the Action makes them: JSON in and
// out, the API version pinned, and the token never in an error's text.
import { redactThenCut, redactorFor } from '../catalog/redact.js';

/** A GitHub API answer other than 2xx: its status, and the start of its body (token masked). */
export class GitHubApiError extends Error {
  override name = 'GitHubApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function callGitHub(
  apiUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${apiUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'contracts-gitops-action',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    // Redacted before it is cut, so a cut token is still found whole.
    const message = redactThenCut(text, 300, redactorFor(token));
    throw new GitHubApiError(
      response.status,
      `GitHub API ${method} ${path} failed with status ${response.status}: ${message}`,
    );
  }
  return text === '' ? undefined : JSON.parse(text);
}
