// One sticky pull request comment through GitHub's issue-comments API: found by a hidden marker,
// updated in place on every push, created only when there is none.
import { callGitHub } from './github-api.js';

/** GitHub's limit on a comment body. */
export const MAX_COMMENT_CHARS = 65_536;

export interface StickyResult {
  action: 'created' | 'updated';
  id: number;
}

interface Comment {
  id: number;
  body?: string | null;
}

export class IssueComments {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
    private readonly repository: string,
  ) {}

  private call(method: string, path: string, body?: unknown): Promise<unknown> {
    return callGitHub(this.apiUrl, this.token, method, path, body);
  }

  /** Creates the comment that holds `marker`, or updates it in place. */
  async upsert(issueNumber: number, marker: string, body: string): Promise<StickyResult> {
    const full = body.includes(marker) ? body : `${marker}\n${body}`;
    for (let page = 1; page <= 50; page++) {
      const comments = (await this.call(
        'GET',
        `/repos/${this.repository}/issues/${issueNumber}/comments?per_page=100&page=${page}`,
      )) as Comment[];
      const mine = comments.find((comment) => comment.body?.includes(marker) === true);
      if (mine !== undefined) {
        await this.call('PATCH', `/repos/${this.repository}/issues/comments/${mine.id}`, {
          body: full,
        });
        return { action: 'updated', id: mine.id };
      }
      if (comments.length < 100) break;
    }
    const created = (await this.call(
      'POST',
      `/repos/${this.repository}/issues/${issueNumber}/comments`,
      { body: full },
    )) as Comment;
    return { action: 'created', id: created.id };
  }
}
