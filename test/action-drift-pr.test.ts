// The Action's scheduled drift job with `open-pull-request: true`, as GitHub runs it: the bundle
// in a clone whose origin is a bare repository, against a real OpenMetadata sandbox, a steward's
// edits made in the catalog, and a local stand-in for GitHub's API. One branch is pushed, one pull
// request opened naming the editor; a second run keeps the one pull request; once the catalog
// and git agree again, it is closed.
import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionProcess, git } from './helpers/action-process.js';
import { cli } from './helpers/cli.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const GITHUB_TOKEN = 'ghs_scheduled_drift_token_7313';
const REPO = 'acme/contracts';
const ORDERS = 'warehouse.sales.public.orders.dataContract_orders';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function scheduled() {
  const opened = await openSandbox({ profile: 'openmetadata' });
  cleanups.push(() => opened.sandbox.close());
  const temp = await tempDir();
  cleanups.push(() => temp.remove());
  const origin = path.join(temp.dir, 'origin.git');
  const seed = path.join(temp.dir, 'seed');
  const workspace = path.join(temp.dir, 'workspace');
  git(temp.dir, 'init', '-q', '--bare', '-b', 'main', origin);
  await mkdir(seed);
  await cp(
    path.resolve(import.meta.dirname, '..', 'examples', 'openmetadata', 'contracts'),
    path.join(seed, 'contracts'),
    { recursive: true },
  );
  git(temp.dir, 'init', '-q', '-b', 'main', seed);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'contracts');
  git(seed, 'push', '-q', origin, 'main');
  git(temp.dir, 'clone', '-q', origin, workspace);
  const catalogToken = await opened.token('admin');
  const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: catalogToken };
  const applied = await cli(['apply', '--auto-approve'], { cwd: workspace, env });
  expect(applied.code, applied.out + applied.err).toBe(0);
  const github = await startFakeGitHub(GITHUB_TOKEN, REPO);
  cleanups.push(() => github.close());
  const head = git(workspace, 'rev-parse', 'HEAD');
  const run = () =>
    actionProcess({
      workspace,
      base: head,
      head,
      event: 'schedule',
      githubUrl: github.url,
      repository: REPO,
      cleanups,
      inputs: {
        COMMAND: 'drift',
        'CATALOG-URL': opened.sandbox.url,
        'CATALOG-TOKEN': catalogToken,
        'GITHUB-TOKEN': GITHUB_TOKEN,
        'OPEN-PULL-REQUEST': 'true',
      },
    });
  const edit = async (ops: unknown[]) => {
    const token = await opened.token('maria.garcia');
    const headers = { authorization: `Bearer ${token}` };
    const read = await fetch(`${opened.sandbox.url}/v1/dataContracts/name/${ORDERS}`, { headers });
    const { id } = (await read.json()) as { id: string };
    const answer = await fetch(`${opened.sandbox.url}/v1/dataContracts/${id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify(ops),
    });
    expect(answer.status).toBe(200);
  };
  /** The files the drift branch on origin changes against main, and its tip's orders file. */
  const branch = () => ({
    changed: git(origin, 'diff', '--name-only', 'main', 'contracts/drift').split('\n'),
    orders: git(origin, 'show', 'contracts/drift:contracts/orders.yaml'),
  });
  return { run, edit, github, branch, workspace, env };
}

describe('the scheduled drift job with open-pull-request', () => {
  it('pushes one branch, opens one pull request naming the editor, keeps it, and closes it once they agree', async () => {
    const { run, edit, github, branch, workspace, env } = await scheduled();
    const quiet = await run();
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    expect(quiet.outputs['pull-request']).toBe('');
    expect(github.pulls).toEqual([]);

    await edit([{ op: 'replace', path: '/description', value: 'Orders, as the steward says.' }]);
    const first = await run();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(github.pulls).toHaveLength(1);
    const [pull] = github.pulls;
    expect(first.outputs['pull-request']).toBe(pull!.html_url);
    expect(pull).toMatchObject({ base: 'main', head: 'contracts/drift', state: 'open' });
    expect(pull!.body).toContain('contracts/orders.yaml');
    expect(pull!.body).toContain('changed by maria.garcia');
    expect(branch().changed).toEqual(['contracts/orders.yaml']);
    expect(branch().orders).toContain('description: Orders, as the steward says.');

    // More drift: the same branch and the same pull request, updated.
    git(workspace, 'checkout', '-q', '--', '.');
    await edit([
      { op: 'replace', path: '/sla/refreshFrequency', value: { interval: 2, unit: 'hour' } },
    ]);
    const second = await run();
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.body).toContain('sla');
    expect(branch().orders).toContain('refreshFrequency: PT2H');

    // Git takes the catalog's values (the pull request merged): no drift, the pull request closed.
    git(workspace, 'checkout', '-q', '--', '.');
    await cp(
      path.join(workspace, 'contracts', 'orders.yaml'),
      path.join(workspace, 'contracts', 'orders.yaml.bak'),
    );
    const pulled = await cli(['pull'], { cwd: workspace, env });
    expect(pulled.code, pulled.out + pulled.err).toBe(0);
    git(workspace, 'commit', '-q', '-am', 'take the catalog edits');
    const agreed = await run();
    expect(agreed.code, agreed.stdout + agreed.stderr).toBe(0);
    expect(github.pulls[0]!.state).toBe('closed');
    expect(github.problems).toEqual([]);
    for (const answer of [first, second, agreed])
      expect(answer.stdout + answer.summary).not.toContain(GITHUB_TOKEN);
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).not.toContain(
      GITHUB_TOKEN,
    );
  });
});
