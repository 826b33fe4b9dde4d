// A local stand-in for GitHub's issue-comments, check-runs, pulls and repository APIs: records
// every request, checks its shape, and answers like GitHub (list with pagination, create, update).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  comments: { id: number; issue: number; body: string }[];
  /** Check runs created (POST /repos/{repo}/check-runs), as sent. */
  checkRuns: Record<string, unknown>[];
  /** Answer check-run creation 403, as for a token without `checks: write`. */
  denyCheckRuns: boolean;
  /** Pull requests as GitHub holds them (POST /repos/{repo}/pulls, then PATCH). */
  pulls: FakePull[];
  /** The repository's default branch (GET /repos/{repo}). */
  defaultBranch: string;
  /** Shape problems found in requests (wrong auth, body without a string `body`, ...). */
  problems: string[];
  close(): Promise<void>;
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
  html_url: string;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

export async function startFakeGitHub(
  expectedToken: string,
  repository: string,
): Promise<FakeGitHub> {
  const state: FakeGitHub = {
    url: '',
    requests: [],
    comments: [],
    checkRuns: [],
    denyCheckRuns: false,
    pulls: [],
    defaultBranch: 'main',
    problems: [],
    close: () => Promise.resolve(),
  };
  let nextId = 1000;
  const owner = repository.split('/')[0]!;
  /** The pulls and repository endpoints; false when `url` is none of theirs. */
  const pulls = (
    method: string,
    url: URL,
    body: unknown,
    send: (status: number, value: unknown) => void,
  ): boolean => {
    const fields = (body ?? {}) as Record<string, unknown>;
    const shown = (pull: FakePull): unknown => ({ ...pull, head: { ref: pull.head } });
    const one = new RegExp(`^/repos/${repository}/pulls/(\\d+)$`).exec(url.pathname);
    if (url.pathname === `/repos/${repository}` && method === 'GET') {
      send(200, { full_name: repository, default_branch: state.defaultBranch });
      return true;
    }
    if (url.pathname === `/repos/${repository}/pulls` && method === 'GET') {
      const head = url.searchParams.get('head');
      const wanted = url.searchParams.get('state') ?? 'open';
      if (head !== null && !head.startsWith(`${owner}:`))
        state.problems.push(`pulls listed by head '${head}', not owner:branch`);
      send(
        200,
        state.pulls
          .filter((p) => (head === null || `${owner}:${p.head}` === head) && p.state === wanted)
          .map(shown),
      );
      return true;
    }
    if (url.pathname === `/repos/${repository}/pulls` && method === 'POST') {
      for (const key of ['title', 'head', 'base', 'body'])
        if (typeof fields[key] !== 'string')
          state.problems.push(`POST pull without a string ${key}`);
      if (String(fields.body).length > 65_536) {
        send(422, { message: 'Validation Failed', errors: [{ field: 'body', code: 'custom' }] });
        return true;
      }
      if (state.pulls.some((p) => p.state === 'open' && p.head === fields.head)) {
        send(422, {
          message: `A pull request already exists for ${owner}:${String(fields.head)}.`,
        });
        return true;
      }
      const number = state.pulls.length + 1;
      const pull: FakePull = {
        number,
        title: String(fields.title),
        body: String(fields.body),
        head: String(fields.head),
        base: String(fields.base),
        state: 'open',
        html_url: `https://github.example/${repository}/pull/${number}`,
      };
      state.pulls.push(pull);
      send(201, shown(pull));
      return true;
    }
    if (one !== null && method === 'PATCH') {
      const pull = state.pulls.find((p) => p.number === Number(one[1]));
      if (pull === undefined) {
        send(404, { message: 'Not Found' });
        return true;
      }
      for (const key of ['title', 'body', 'state'])
        if (key in fields && typeof fields[key] !== 'string')
          state.problems.push(`PATCH pull with a ${key} that is no string`);
      if (typeof fields.body === 'string' && fields.body.length > 65_536) {
        send(422, { message: 'Validation Failed', errors: [{ field: 'body', code: 'custom' }] });
        return true;
      }
      if (typeof fields.title === 'string') pull.title = fields.title;
      if (typeof fields.body === 'string') pull.body = fields.body;
      if (fields.state === 'closed' || fields.state === 'open') pull.state = fields.state;
      send(200, shown(pull));
      return true;
    }
    return false;
  };
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readJson(request);
      const url = new URL(request.url ?? '/', 'http://localhost');
      state.requests.push({
        method: request.method ?? '',
        path: `${url.pathname}${url.search}`,
        authorization: request.headers.authorization,
        body,
      });
      const send = (status: number, value: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.headers.authorization !== `Bearer ${expectedToken}`) {
        state.problems.push(`bad authorization on ${request.method ?? ''} ${url.pathname}`);
        send(401, { message: 'Bad credentials' });
        return;
      }
      const list = new RegExp(`^/repos/${repository}/issues/(\\d+)/comments$`).exec(url.pathname);
      const one = new RegExp(`^/repos/${repository}/issues/comments/(\\d+)$`).exec(url.pathname);
      const bodyText = (body as { body?: unknown } | undefined)?.body;
      if (list !== null && request.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? '30');
        const page = Number(url.searchParams.get('page') ?? '1');
        const all = state.comments.filter((c) => c.issue === Number(list[1]));
        send(
          200,
          all
            .slice((page - 1) * perPage, page * perPage)
            .map((c) => ({ id: c.id, body: c.body, user: { login: 'github-actions[bot]' } })),
        );
        return;
      }
      if (list !== null && request.method === 'POST') {
        if (typeof bodyText !== 'string') state.problems.push('POST comment without a string body');
        const comment = { id: nextId++, issue: Number(list[1]), body: String(bodyText) };
        state.comments.push(comment);
        send(201, { id: comment.id, body: comment.body });
        return;
      }
      if (one !== null && request.method === 'PATCH') {
        if (typeof bodyText !== 'string')
          state.problems.push('PATCH comment without a string body');
        const comment = state.comments.find((c) => c.id === Number(one[1]));
        if (comment === undefined) {
          send(404, { message: 'Not Found' });
          return;
        }
        comment.body = String(bodyText);
        send(200, { id: comment.id, body: comment.body });
        return;
      }
      if (url.pathname === `/repos/${repository}/check-runs` && request.method === 'POST') {
        if (state.denyCheckRuns) {
          send(403, { message: 'Resource not accessible by integration' });
          return;
        }
        const run = body as Record<string, unknown>;
        for (const key of ['name', 'head_sha', 'status', 'conclusion'])
          if (typeof run[key] !== 'string')
            state.problems.push(`check run without a string ${key}`);
        const output = run.output as { title?: unknown; summary?: unknown } | undefined;
        if (typeof output?.title !== 'string' || typeof output.summary !== 'string')
          state.problems.push('check run without an output title and summary');
        state.checkRuns.push(run);
        send(201, { id: nextId++ });
        return;
      }
      if (pulls(request.method ?? '', url, body, send)) return;
      state.problems.push(`unexpected ${request.method ?? ''} ${url.pathname}`);
      send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
