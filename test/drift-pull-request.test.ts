// The drift job's pull request as a scheduled run makes it: real git processes (a bare
// repository as origin, a clone as the checkout) and a local stand-in for GitHub's pulls API.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLOSING_COMMENT,
  MAX_BODY_CHARS,
  closeDriftPullRequest,
  openDriftPullRequest,
  type DriftPullRequest,
} from '../src/action/drift-pull-request.js';
import { BOT_EMAIL, BOT_NAME } from '../src/action/drift-branch.js';
import { git } from './helpers/action-process.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/fake-github.js';
import { tempDir } from './helpers/temp-dir.js';

const TOKEN = 'ghs_drift_pull_request_token_4242';
const REPO = 'acme/contracts';
const BRANCH = 'contracts/drift';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Repos {
  origin: string;
  checkout: string;
  github: FakeGitHub;
  main: string;
  /** The checkout's branch, HEAD, index and working tree, as `git status` and rev-parse tell them. */
  state(): string;
  request(files: string[], extra?: Partial<DriftPullRequest>): DriftPullRequest;
  /** What origin holds of the drift branch: its tip, parent, author and files changed. */
  branch(): { tip: string; parent: string; author: string; changed: string[] } | null;
}

async function repos(): Promise<Repos> {
  const temp = await tempDir();
  cleanups.push(() => temp.remove());
  const origin = path.join(temp.dir, 'origin.git');
  const seed = path.join(temp.dir, 'seed');
  const checkout = path.join(temp.dir, 'checkout');
  git(temp.dir, 'init', '-q', '--bare', '-b', 'main', origin);
  await mkdir(path.join(seed, 'contracts'), { recursive: true });
  await writeFile(path.join(seed, 'contracts', 'orders.yaml'), 'name: orders\n');
  await writeFile(path.join(seed, 'contracts', 'users.yaml'), 'name: users\n');
  git(temp.dir, 'init', '-q', '-b', 'main', seed);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'contracts');
  git(seed, 'push', '-q', origin, 'main');
  git(temp.dir, 'clone', '-q', origin, checkout);
  const main = git(checkout, 'rev-parse', 'HEAD');
  const github = await startFakeGitHub(TOKEN, REPO);
  cleanups.push(() => github.close());
  return {
    origin,
    checkout,
    github,
    main,
    state: () =>
      [
        git(checkout, 'symbolic-ref', '-q', 'HEAD'),
        git(checkout, 'rev-parse', 'HEAD'),
        git(checkout, 'status', '--porcelain'),
        git(checkout, 'diff', '--cached', '--name-only'),
      ].join('\n'),
    request: (files, extra = {}) => ({
      cwd: checkout,
      files,
      title: 'Data contracts: edits made in the catalog',
      body: '### Edits made in the catalog\n\n- `orders`: description\n',
      branch: BRANCH,
      repository: REPO,
      apiUrl: github.url,
      token: TOKEN,
      defaultBranch: 'main',
      ...extra,
    }),
    branch: () => {
      const listed = git(origin, 'branch', '--list', BRANCH);
      if (listed === '') return null;
      const tip = git(origin, 'rev-parse', BRANCH);
      return {
        tip,
        parent: git(origin, 'rev-parse', `${BRANCH}^`),
        author: git(origin, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', BRANCH),
        changed: git(origin, 'diff', '--name-only', 'main', BRANCH).split('\n'),
      };
    },
  };
}

/** Everything recorded: origin's history, the requests (less their header) and the checkout's config. */
async function recorded(r: Repos, ...more: unknown[]): Promise<string> {
  return [
    git(r.origin, 'log', '--all', '--format=%H %an %ae %cn %ce %B'),
    JSON.stringify(r.github.requests.map(({ authorization: _, ...rest }) => rest)),
    JSON.stringify(r.github.pulls),
    JSON.stringify(r.github.comments),
    await readFile(path.join(r.checkout, '.git', 'config'), 'utf8'),
    JSON.stringify(more),
  ].join('\n');
}

describe('the drift pull request', () => {
  it('pushes one branch and opens one pull request, then updates them in place', async () => {
    const r = await repos();
    const orders = path.join(r.checkout, 'contracts', 'orders.yaml');
    const users = path.join(r.checkout, 'contracts', 'users.yaml');
    await writeFile(orders, 'name: orders\ndescription: from the catalog\n');
    const before = r.state();

    const first = await openDriftPullRequest(r.request([orders]));
    expect(first).toEqual({
      url: `https://github.example/${REPO}/pull/1`,
      number: 1,
      created: true,
      pushed: true,
    });
    const pushed = r.branch()!;
    expect(pushed.parent).toBe(r.main);
    expect(pushed.changed).toEqual(['contracts/orders.yaml']);
    expect(pushed.author).toBe(`${BOT_NAME} <${BOT_EMAIL}>|${BOT_NAME} <${BOT_EMAIL}>`);
    expect(git(r.origin, 'show', `${BRANCH}:contracts/orders.yaml`)).toBe(
      'name: orders\ndescription: from the catalog',
    );
    expect(r.github.pulls).toMatchObject([
      { number: 1, head: BRANCH, base: 'main', state: 'open', title: r.request([]).title },
    ]);
    expect(r.state()).toBe(before);

    // The same files again: nothing new is pushed, the same pull request gets the new text.
    const second = await openDriftPullRequest(r.request([orders], { body: 'Second run\n' }));
    expect(second).toEqual({ ...first, created: false, pushed: false });
    expect(r.branch()!.tip).toBe(pushed.tip);
    expect(r.github.pulls).toHaveLength(1);
    expect(r.github.pulls[0]!.body).toBe('Second run\n');

    // One more file changed: the branch is force-updated on top of main, the same pull request.
    await writeFile(users, 'name: users\nowner: bob\n');
    const third = await openDriftPullRequest(r.request([orders, users]));
    expect(third).toEqual({ ...first, created: false });
    const updated = r.branch()!;
    expect(updated.tip).not.toBe(pushed.tip);
    expect(updated.parent).toBe(r.main);
    expect(updated.changed).toEqual(['contracts/orders.yaml', 'contracts/users.yaml']);
    expect(r.github.pulls).toHaveLength(1);
    expect(r.github.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    // The working tree keeps what pull wrote (git's output here is trimmed of its first space).
    expect(git(r.checkout, 'status', '--porcelain').split('\n')).toEqual([
      'M contracts/orders.yaml',
      ' M contracts/users.yaml',
    ]);

    // No drift: the open pull request is closed with a comment saying why; then there is none.
    expect(await closeDriftPullRequest(r.request([]))).toEqual({
      url: `https://github.example/${REPO}/pull/1`,
      number: 1,
    });
    expect(r.github.pulls[0]!.state).toBe('closed');
    expect(r.github.comments).toMatchObject([{ issue: 1, body: CLOSING_COMMENT }]);
    expect(await closeDriftPullRequest(r.request([]))).toEqual({
      none: `no open pull request comes from ${BRANCH}`,
    });
    // The next drift opens a new one from the same branch.
    const fourth = await openDriftPullRequest(r.request([orders]));
    expect(fourth).toMatchObject({ number: 2, created: true, pushed: true });

    expect(r.github.problems).toEqual([]);
    expect(r.github.requests.every((q) => q.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(await recorded(r, first, second, third, fourth)).not.toContain(TOKEN);
  });

  it('asks GitHub for the default branch when the event does not say it', async () => {
    const r = await repos();
    const orders = path.join(r.checkout, 'contracts', 'orders.yaml');
    await writeFile(orders, 'name: orders\nowner: carol\n');
    r.github.defaultBranch = 'main';
    const { defaultBranch: _, ...withoutDefault } = r.request([orders]);
    const result = await openDriftPullRequest(withoutDefault);
    expect(result).toMatchObject({ number: 1, created: true });
    expect(r.github.requests[0]).toMatchObject({ method: 'GET', path: `/repos/${REPO}` });
    expect(r.github.pulls[0]!.base).toBe('main');
  });

  it('proposes nothing when the files hold what the default branch holds', async () => {
    const r = await repos();
    const orders = path.join(r.checkout, 'contracts', 'orders.yaml');
    expect(await openDriftPullRequest(r.request([orders]))).toEqual({
      none: 'the files pull wrote hold what main holds; nothing to propose',
    });
    expect(r.branch()).toBeNull();
    expect(r.github.requests).toEqual([]);
  });

  it('refuses a file outside the checkout, through a link, or in .git, and sends nothing', async () => {
    const r = await repos();
    const elsewhere = await tempDir({ 'stray.yaml': 'name: stray\n' });
    cleanups.push(() => elsewhere.remove());
    const stray = path.join(elsewhere.dir, 'stray.yaml');
    await symlink(elsewhere.dir, path.join(r.checkout, 'linked'));
    await symlink(stray, path.join(r.checkout, 'contracts', 'link.yaml'));
    const before = r.state();
    const cases: [string, RegExp][] = [
      [stray, /outside the checkout/],
      [path.join(r.checkout, '..', 'origin.git', 'config'), /outside the checkout/],
      [path.join(r.checkout, 'linked', 'stray.yaml'), /outside the checkout/],
      [path.join(r.checkout, 'contracts', 'link.yaml'), /not a regular file/],
      [path.join(r.checkout, '.git', 'config'), /\.git folder/],
      ['contracts/orders.yaml', /not an absolute path/],
      [path.join(r.checkout, 'contracts', 'gone.yaml'), /does not exist/],
    ];
    for (const [file, why] of cases)
      await expect(openDriftPullRequest(r.request([file])), file).rejects.toThrow(why);
    expect(r.branch()).toBeNull();
    expect(r.github.requests).toEqual([]);
    expect(r.state()).toBe(before);
  });

  it('cuts a body past GitHub limit with a sentence that says so', async () => {
    const r = await repos();
    const orders = path.join(r.checkout, 'contracts', 'orders.yaml');
    await writeFile(orders, 'name: orders\ndescription: long\n');
    const line = `- \`field_${'x'.repeat(80)}\`: ${'é'.repeat(20)}\n`;
    const body = `### Edits made in the catalog\n\n${line.repeat(1200)}`;
    expect(body.length).toBeGreaterThan(MAX_BODY_CHARS);
    await openDriftPullRequest(r.request([orders], { body }));
    const sent = r.github.pulls[0]!.body;
    expect(sent.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(sent).toMatch(/This description is cut here: GitHub keeps at most 65,536 characters/);
    expect(sent.startsWith('### Edits made in the catalog\n\n- `field_')).toBe(true);
    expect(r.github.problems).toEqual([]);
  });

  it('never shows the token when git fails, and leaves the checkout as it was', async () => {
    const r = await repos();
    const orders = path.join(r.checkout, 'contracts', 'orders.yaml');
    await writeFile(orders, 'name: orders\ndescription: x\n');
    // A remote that refuses the connection, with the token in its URL as a misconfigured job has it.
    git(
      r.checkout,
      'remote',
      'set-url',
      'origin',
      `https://x-access-token:${TOKEN}@127.0.0.1:9/acme/contracts.git`,
    );
    const before = r.state();
    const error = await openDriftPullRequest(r.request([orders])).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^git could not push the branch contracts\/drift: /);
    expect(error?.message).not.toContain(TOKEN);
    expect(r.state()).toBe(before);
    expect(r.github.requests).toEqual([]);
  });
});
