// A pull request is hostile input: nothing in it decides where the catalog token goes (the
// catalog's URL and profile come from the base commit, in the Action and in the command line),
// and nothing in it makes the tool read a file outside the repository or in .git, or copy a
// file's text into what it prints (the credential actions/checkout keeps in .git/config).
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionPlan, git, type ActionProcessRun } from './helpers/action-process.js';
import { cli } from './helpers/cli.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const GH_TOKEN = 'ghs_fake_workflow_token_456';
const REPO = 'acme/contracts';
/** What actions/checkout stores in .git/config: the workflow's git credential. */
const SECRET = 'eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldF9naXRfY3JlZGVudGlhbA==';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A server that records every request (and its Authorization header) and answers 404. */
async function recorder(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * A repository in `<parent>/repo` with the example contracts, whose base commit's settings file
 * is `baseSettings` (none when undefined); its .git/config holds the checkout's credential.
 */
async function repository(baseSettings: string | undefined) {
  const parent = await tempDir();
  cleanups.push(() => parent.remove());
  const dir = path.join(parent.dir, 'repo');
  await mkdir(dir);
  await cp(path.join(root, 'contracts'), path.join(dir, 'contracts'), { recursive: true });
  if (baseSettings !== undefined) await writeFile(path.join(dir, '.contracts.yaml'), baseSettings);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${SECRET}`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return { parent: parent.dir, dir, base: git(dir, 'rev-parse', 'HEAD') };
}

/** Commits the working tree as the pull request's head. */
function commitHead(dir: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'pull request');
  return git(dir, 'rev-parse', 'HEAD');
}

/** A sandbox, a fake GitHub, and the Action's plan of a pull request with the sandbox's token. */
async function sandboxAndGitHub() {
  const opened = await openSandbox();
  cleanups.push(() => opened.sandbox.close());
  const github = await startFakeGitHub(GH_TOKEN, REPO);
  cleanups.push(() => github.close());
  const token = await opened.token();
  const plan = (pullRequest: {
    workspace: string;
    base: string;
    head: string;
    catalogUrl: string;
    path?: string;
  }): Promise<ActionProcessRun> =>
    actionPlan({
      ...pullRequest,
      githubUrl: github.url,
      repository: REPO,
      cleanups,
      catalogToken: token,
      githubToken: GH_TOKEN,
    });
  return { ...opened, github, token, plan };
}

describe('a pull request does not decide where the catalog token goes', () => {
  it('Action: with no catalog-url input, the base commit’s catalog.url is used, never the head’s', async () => {
    const { sandbox, plan } = await sandboxAndGitHub();
    const relay = await recorder();
    const repo = await repository(`catalog:\n  url: ${sandbox.url}\n`);
    await writeFile(path.join(repo.dir, '.contracts.yaml'), `catalog:\n  url: ${relay.url}\n`);
    const head = commitHead(repo.dir);
    const run = (base: string, workspace = repo.dir): Promise<ActionProcessRun> =>
      // As `${{ vars.CATALOG_URL }}` gives catalog-url when the variable is not set.
      plan({ workspace, base, head, catalogUrl: '', path: 'contracts' });
    const planned = await run(repo.base);
    expect(relay.seen).toEqual([]);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(sandbox.requests().length).toBeGreaterThan(0);
    expect(planned.summary).toContain('### Data contracts plan');
    expect(planned.stdout).toContain(
      "::warning::This pull request changes catalog.url or catalog.profile in .contracts.yaml; until it is merged, the catalog's URL and profile come from the pull request's base commit",
    );

    // A shallow checkout of the head (as actions/checkout makes by default): the base commit is
    // fetched from origin.
    const shallow = path.join(repo.parent, 'shallow');
    git(repo.parent, 'clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow);
    expect(() => git(shallow, 'cat-file', '-e', `${repo.base}^{commit}`)).toThrow();
    const fetched = await run(repo.base, shallow);
    expect(fetched.code, fetched.stdout + fetched.stderr).toBe(0);
    expect(relay.seen).toEqual([]);

    // A base commit the checkout lacks, and origin cannot give: refused, nothing sent anywhere.
    const before = sandbox.requests().length;
    const missing = await run('deadbeef'.repeat(5));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      "::error::the pull request's base commit deadbeefdead is not in this checkout and could not be fetched from origin",
    );
    expect(relay.seen).toEqual([]);
    expect(sandbox.requests().length).toBe(before);
  }, 60_000);

  it('Action: with catalog-url given, the profile is the base commit’s, or asked of the catalog when the base cannot be had; never the head’s', async () => {
    const { sandbox, plan } = await sandboxAndGitHub();
    const repo = await repository(undefined);
    // The sandbox plays the spec's catalog: as an OpenMetadata catalog it cannot be planned.
    await writeFile(path.join(repo.dir, '.contracts.yaml'), 'catalog:\n  profile: openmetadata\n');
    const head = commitHead(repo.dir);
    const run = (base: string): Promise<ActionProcessRun> =>
      plan({ workspace: repo.dir, base, head, catalogUrl: sandbox.url, path: 'contracts' });
    const fromBase = await run(repo.base);
    expect(fromBase.code, fromBase.stdout).toBe(0);
    expect(fromBase.stdout).toContain(
      '::warning::This pull request changes catalog.url or catalog.profile',
    );
    const shallow = await run('deadbeef'.repeat(5));
    expect(shallow.code, shallow.stdout).toBe(0);
    expect(shallow.stdout).toContain(
      "::warning::The pull request's base commit is not in this checkout and could not be fetched, so catalog.profile is not read from .contracts.yaml: the catalog is asked which it is (auto).",
    );
    expect(shallow.summary).toContain('### Data contracts plan');
  }, 60_000);

  it('CLI: a catalog.url that differs from origin/HEAD’s, or from a pull request’s base, is refused until given by flag or environment', async () => {
    const { sandbox, token } = await sandboxAndGitHub();
    const relay = await recorder();
    const repo = await repository(`catalog:\n  url: ${sandbox.url}\n`);
    git(repo.dir, 'update-ref', 'refs/remotes/origin/main', repo.base);
    git(repo.dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    await writeFile(path.join(repo.dir, '.contracts.yaml'), `catalog:\n  url: ${relay.url}\n`);
    const head = commitHead(repo.dir);
    const env = { CATALOG_TOKEN: token };
    const refused = await cli(['plan'], { cwd: repo.dir, env });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `catalog.url in .contracts.yaml is "${relay.url}", but at origin/HEAD (the remote's default branch) it is "${sandbox.url}": a setting changed from there does not decide where the catalog token is sent. To use this one, give it as --catalog-url (or set CATALOG_URL). Nothing was sent.`,
    );
    expect(relay.seen).toEqual([]);
    expect(sandbox.requests()).toEqual([]);

    // The same URL as the trusted ref's is used; so is one the person gives.
    git(repo.dir, 'checkout', '-q', repo.base);
    const same = await cli(['plan'], { cwd: repo.dir, env });
    expect(same.code, same.err).toBe(0);
    expect(sandbox.requests().length).toBeGreaterThan(0);
    git(repo.dir, 'checkout', '-q', head);
    const confirmed = await cli(['plan', '--catalog-url', sandbox.url], { cwd: repo.dir, env });
    expect(confirmed.code, confirmed.err).toBe(0);
    expect(relay.seen).toEqual([]);

    // In a GitHub Actions pull-request run, the base commit is the trusted one.
    git(repo.dir, 'symbolic-ref', '--delete', 'refs/remotes/origin/HEAD');
    const event = path.join(repo.parent, 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { base: { sha: repo.base } } }));
    const sent = sandbox.requests().length;
    const inPullRequest = await cli(['plan'], {
      cwd: repo.dir,
      env: { ...env, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event },
    });
    expect(inPullRequest.code).toBe(1);
    expect(inPullRequest.err).toContain(
      `catalog.url in .contracts.yaml is "${relay.url}", but at the pull request's base commit ${repo.base.slice(0, 12)} it is "${sandbox.url}"`,
    );
    expect(relay.seen).toEqual([]);
    expect(sandbox.requests().length).toBe(sent);
  }, 60_000);
});

describe('paths stay in the repository, and no file’s text is quoted', () => {
  it('Action: paths into .git or out of the repository, and links to .git/config, are refused before reading; the credential shows nowhere', async () => {
    const { sandbox, github, plan } = await sandboxAndGitHub();
    const repo = await repository(undefined);
    await writeFile(
      path.join(repo.parent, 'outside.yaml'),
      `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${SECRET}\n`,
    );
    const cases: [setUp: () => Promise<void>, shown: string, why: string][] = [
      [
        () => writeFile(path.join(repo.dir, '.contracts.yaml'), 'paths: [.git/config]\n'),
        'file=.git/config,line=1,col=1::the path leads into .git (.git/config)',
        'into .git',
      ],
      [
        () => writeFile(path.join(repo.dir, '.contracts.yaml'), 'paths: [../outside.yaml]\n'),
        'file=../outside.yaml,line=1,col=1::the path leads outside the repository',
        'outside',
      ],
      [
        () => symlink('../.git/config', path.join(repo.dir, 'contracts', 'x.yaml')),
        'file=contracts/x.yaml,line=1,col=1::a symbolic link that leads into .git (.git/config)',
        'link into .git',
      ],
      [
        () => symlink('.git/config', path.join(repo.dir, '.contracts.yaml')),
        'file=.contracts.yaml,line=1,col=1::a symbolic link that leads into .git (.git/config)',
        'settings link',
      ],
    ];
    for (const [setUp, shown, why] of cases) {
      git(repo.dir, 'checkout', '-q', '--force', repo.base);
      git(repo.dir, 'clean', '-q', '-fdx');
      await setUp();
      const head = commitHead(repo.dir);
      const run = await plan({
        workspace: repo.dir,
        base: repo.base,
        head,
        catalogUrl: sandbox.url,
      });
      expect(run.code, why).toBe(1);
      expect(run.stdout, why).toContain(shown);
      expect(run.summary, why).toContain('so it is not read');
      for (const text of [
        run.stdout,
        run.stderr,
        run.summary,
        ...github.comments.map((c) => c.body),
      ]) {
        expect(text, why).not.toContain(SECRET);
        expect(text, why).not.toContain('AUTHORIZATION');
      }
      expect(writesAmong(sandbox.requests()), why).toEqual([]);
    }
    expect(github.comments.length).toBeGreaterThan(0);
  }, 90_000);

  it('CLI: a YAML syntax error in a contract, an ODCS document or the settings file says where, never what the file holds', async () => {
    const repo = await repository(undefined);
    const gitConfigLike = `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${SECRET}\n`;
    await writeFile(path.join(repo.dir, 'contracts', 'copied.yaml'), gitConfigLike);
    await writeFile(
      path.join(repo.dir, 'contracts', 'odcs.yaml'),
      `apiVersion: v3.1.0\nkind: DataContract\ndescription: |x ${SECRET}\n  more\n`,
    );
    const contracts = await cli(['validate', '--json', 'contracts'], { cwd: repo.dir });
    expect(contracts.code).toBe(1);
    const problems = (
      JSON.parse(contracts.out) as { problems: { file: string; line: number; message: string }[] }
    ).problems;
    expect(problems.filter((p) => p.file === 'contracts/copied.yaml').length).toBeGreaterThan(0);
    expect(problems.filter((p) => p.file === 'contracts/odcs.yaml').length).toBeGreaterThan(0);
    expect(contracts.out + contracts.err).not.toContain(SECRET.slice(0, 12));
    expect(contracts.out + contracts.err).not.toContain('AUTHORIZATION');

    await writeFile(path.join(repo.dir, '.contracts.yaml'), gitConfigLike);
    const settings = await cli(['validate'], { cwd: repo.dir });
    expect(settings.code).toBe(1);
    expect(settings.out).toMatch(/^\.contracts\.yaml:2:\d+ YAML syntax error: /m);
    expect(settings.out + settings.err).not.toContain(SECRET.slice(0, 12));
    expect(settings.out + settings.err).not.toContain('AUTHORIZATION');

    // Outside a repository, the working folder bounds what is read.
    const elsewhere = await tempDir({ 'contracts/a.yaml': 'name: a\n' });
    cleanups.push(() => elsewhere.remove());
    const outside = await cli(['validate', path.join(repo.parent, 'repo', 'contracts')], {
      cwd: elsewhere.dir,
    });
    expect(outside.code).toBe(1);
    expect(outside.out).toContain('the path leads outside the working folder');
    expect(outside.out + outside.err).not.toContain(SECRET.slice(0, 12));
    // ... or the folder of the settings file that applies, whose paths are relative to it.
    await cp(path.join(root, 'contracts'), path.join(elsewhere.dir, 'contracts'), {
      recursive: true,
      force: true,
    });
    await writeFile(path.join(elsewhere.dir, 'contracts', 'a.yaml'), '');
    await writeFile(
      path.join(elsewhere.dir, '.contracts.yaml'),
      'paths: [contracts/orders.yaml]\n',
    );
    await mkdir(path.join(elsewhere.dir, 'sub'));
    const below = await cli(['validate'], { cwd: path.join(elsewhere.dir, 'sub') });
    expect(below.out).toContain('✓ 1 contract file is valid.');
  }, 60_000);
});
