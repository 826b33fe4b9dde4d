// The GitHub Action as GitHub runs it: the committed bundle under node, with INPUT_* and the
// runner's files, against a sandbox catalog and a local stand-in for the issue-comments API.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_COMMENT_CHARS } from '../src/action/github-comments.js';
import { MAX_SUMMARY_BYTES } from '../src/action/summary-limit.js';
import type { Sandbox } from '@contracts-gitops/sandbox';
import {
  actionProcess,
  git,
  type ActionProcessOptions,
  type ActionProcessRun,
} from './helpers/action-process.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/fake-github.js';
import { contractOn, dashboard, idsFrom, table } from './helpers/lineage-seed.js';
import { manyTables } from './helpers/many-tables.js';
import { openSandbox, editorSeed, seed, writesAmong } from './helpers/sandbox.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const GH_TOKEN = 'ghs_fake_workflow_token_123';
const REPO = 'acme/contracts';
/** How the Action marks a contract managed from this repository, less the file's path. */
/** The address of the repository's files, at a commit: markers record the commit that wrote them. */
const MARKED_FROM = `https://github.example/${REPO}/blob`;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Setup {
  dir: string;
  sandbox: Sandbox;
  token: string;
  github: FakeGitHub;
  base: string;
  head: string;
}

/** A repository whose head commit edits the orders contract, a sandbox, and a fake GitHub. */
async function setup(
  options: {
    seed?: ReturnType<typeof seed>;
    files?: Record<string, string>;
    examples?: boolean;
    /** The catalog user whose token the Action gets (alice, who may do everything, by default). */
    user?: string;
    /** The sandbox as OpenMetadata, with the example files written for it. */
    openmetadata?: boolean;
    /** The OpenMetadata release the sandbox plays (its newest by default). */
    release?: string;
    /** The seeded contracts carry the markers of the files that name them (default true). */
    managed?: boolean;
  } = {},
): Promise<Setup> {
  const workspace = await tempDir();
  cleanups.push(() => workspace.remove());
  const dir = workspace.dir;
  if (options.examples !== false)
    await cp(
      path.join(
        root,
        ...(options.openmetadata === true ? ['examples', 'openmetadata'] : []),
        'contracts',
      ),
      path.join(dir, 'contracts'),
      { recursive: true },
    );
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  if (options.examples !== false) {
    const orders = path.join(dir, 'contracts', 'orders.yaml');
    await writeFile(
      orders,
      (await readFile(orders, 'utf8')).replace('loaded hourly', 'loaded every hour'),
    );
    git(dir, 'commit', '-q', '-am', 'edit orders');
  }
  const head = git(dir, 'rev-parse', 'HEAD');
  const opened = await openSandbox({
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.openmetadata === true ? { profile: 'openmetadata' as const } : {}),
    ...(options.release === undefined ? {} : { openmetadataVersion: options.release }),
  });
  cleanups.push(() => opened.sandbox.close());
  // A repository that already manages its contracts: each one a file of the head names carries
  // that file's marker at the base commit, as an earlier apply from main left it (read/marker.ts).
  // (On OpenMetadata only where the catalog defines the custom property that holds markers.)
  const marks =
    options.openmetadata !== true ||
    opened.sandbox.store.customProperties.some((property) => property.name === 'managedBy');
  if (options.managed !== false && marks)
    for (const file of git(dir, 'ls-files', 'contracts')
      .split('\n')
      .filter((f) => f.endsWith('.yaml'))) {
      const fqn = /^fullyQualifiedName:\s*(\S+)/m.exec(
        await readFile(path.join(dir, file), 'utf8'),
      )?.[1];
      const contract = fqn === undefined ? undefined : opened.sandbox.store.contractByFqn(fqn);
      if (contract === undefined) continue;
      const extension = (contract.extension ?? {}) as Record<string, unknown>;
      opened.sandbox.store.putContract(
        { ...contract, extension: { ...extension, managedBy: `${MARKED_FROM}/${base}/${file}` } },
        false,
      );
    }
  const github = await startFakeGitHub(GH_TOKEN, REPO);
  cleanups.push(() => github.close());
  return {
    dir,
    sandbox: opened.sandbox,
    token: await opened.token(options.user ?? 'alice'),
    github,
    base,
    head,
  };
}

interface ActionRun extends ActionProcessRun {
  /** The plan file the run wrote (its `plan-file` output), or '' where it wrote none. */
  files: string;
}

/** Runs the bundle with the environment GitHub sets for a pull_request (or push) event. */
async function runAction(
  s: Setup,
  inputs: Record<string, string>,
  event: 'pull_request' | 'push' = 'pull_request',
  /** Called with all of stdout so far, each time more arrives, and the process itself. */
  onStdout?: ActionProcessOptions['onStdout'],
): Promise<ActionRun> {
  const run = await actionProcess({
    workspace: s.dir,
    base: s.base,
    head: s.head,
    githubUrl: s.github.url,
    repository: REPO,
    event,
    cleanups,
    ...(onStdout === undefined ? {} : { onStdout }),
    inputs: {
      'CATALOG-URL': s.sandbox.url,
      'CATALOG-TOKEN': s.token,
      'GITHUB-TOKEN': GH_TOKEN,
      PATH: 'contracts',
      COMMENT: 'true',
      'CHANGED-ONLY': 'false',
      'FAIL-ON-BREAKING': 'false',
      ...inputs,
    },
  });
  const planFile = run.outputs['plan-file'];
  return { ...run, files: planFile === undefined ? '' : await readFile(planFile, 'utf8') };
}

/**
 * A setup whose `count` contracts each change a short description to `long` (and its number), so
 * that the plan is as long as a test needs.
 */
function longDescriptions(count: number, long: string): Promise<Setup> {
  const { assets, contracts, files } = manyTables(count, {
    idPrefix: '3a000000',
    live: 'short',
    desired: (i) => `${long}${i}`,
    fileName: (i) => `contracts/c${String(i).padStart(2, '0')}.yaml`,
  });
  return setup({ examples: false, files, seed: editorSeed(assets, contracts) });
}

function expectNoToken(run: ActionRun, s: Setup): void {
  // The only place the token may appear is the ::add-mask:: command that tells GitHub to mask it.
  const stdout = run.stdout
    .split('\n')
    .filter((line) => line !== `::add-mask::${s.token}`)
    .join('\n');
  for (const text of [
    stdout,
    run.stderr,
    run.summary,
    JSON.stringify(run.outputs),
    run.files,
    ...s.github.comments.map((c) => c.body),
  ]) {
    expect(text).not.toContain(s.token);
  }
}

describe('the Action on pull requests (plan)', () => {
  it('writes the summary, posts one sticky comment and updates it on the next push, sets outputs and annotations', async () => {
    const s = await setup();
    const first = await runAction(s, { COMMAND: 'plan' });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.summary).toContain('### Data contracts plan');
    expect(first.summary).toContain('**Plan: 1 to create, 3 to change, 2 unchanged, 0 errors.**');
    expect(first.summary).toContain(
      '| Contract | File | Action | Breaking | Warnings | Operations |',
    );
    expect(first.summary).toContain(
      '| `warehouse.sales.public.customers.dataContract_customers` | `contracts/customers.yaml` | ~ update | ⚠️ 1 |  | 2 |',
    );
    expect(first.summary).toContain(
      '<details><summary>~ update <code>warehouse.sales.public.orders.dataContract_orders</code> (5 operations)</summary>',
    );
    expect(first.outputs).toMatchObject({ 'has-changes': 'true', breaking: 'true', applied: '0' });
    expect(JSON.parse(first.files).summary).toEqual({
      create: 1,
      update: 3,
      delete: 0,
      noop: 2,
      error: 0,
      missing: 0,
    });
    const phoneLine =
      (await readFile(path.join(s.dir, 'contracts/customers.yaml'), 'utf8'))
        .split('\n')
        .findIndex((l) => l.startsWith('schema:')) + 1;
    expect(first.stdout).toContain(
      `::warning title=breaking data contract change,file=contracts/customers.yaml,line=${phoneLine},col=1::breaking: column phone removed`,
    );
    expect(s.github.comments).toHaveLength(1);
    expect(s.github.comments[0]!.issue).toBe(42);
    expect(s.github.comments[0]!.body).toMatch(
      /^<!-- contracts-gitops:plan:contracts -->\n### Data contracts plan/,
    );
    expect(s.github.requests.map((r) => r.method)).toEqual(['GET', 'POST']);

    const second = await runAction(s, { COMMAND: 'plan' });
    expect(second.code).toBe(0);
    expect(s.github.comments).toHaveLength(1);
    expect(s.github.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
    expect(s.github.requests[3]!.path).toBe(
      `/repos/${REPO}/issues/comments/${s.github.comments[0]!.id}`,
    );
    expect(s.github.problems).toEqual([]);
    expectNoToken(first, s);
    expectNoToken(second, s);
    expect(s.sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('keeps its one comment true when a later push fails to plan: invalid files, a refused token, an unreachable catalog each replace it, and the summary says why', async () => {
    const s = await setup();
    const good = await runAction(s, { COMMAND: 'plan' });
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(s.github.comments).toHaveLength(1);
    const comment = () => s.github.comments[0]!.body;
    expect(comment()).toContain('### Data contracts plan');
    // A push that breaks a file.
    const orders = path.join(s.dir, 'contracts', 'orders.yaml');
    const text = await readFile(orders, 'utf8');
    await writeFile(orders, `${text}bogus: 1\n`);
    const invalid = await runAction(s, { COMMAND: 'plan' });
    expect(invalid.code).toBe(1);
    expect(s.github.comments).toHaveLength(1);
    expect(comment()).toContain('### Data contracts: invalid files');
    expect(comment()).toContain("unknown key 'bogus'");
    expect(invalid.summary).toContain("unknown key 'bogus'");
    await writeFile(orders, text);
    // A token the catalog refuses.
    const refused = await runAction(s, { COMMAND: 'plan', 'CATALOG-TOKEN': 'not-a-token' });
    expect(refused.code).toBe(1);
    expect(comment()).toContain('### Data contracts: plan failed');
    expect(comment()).toContain('No plan could be made, and nothing was sent');
    expect(refused.summary).toContain('### Data contracts: plan failed');
    // A catalog that does not answer.
    const gone = await runAction(s, { COMMAND: 'plan', 'CATALOG-URL': 'http://127.0.0.1:9' });
    expect(gone.code).toBe(1);
    expect(gone.summary).toContain('### Data contracts: plan failed');
    expect(comment()).toContain('### Data contracts: plan failed');
    expect(s.github.comments).toHaveLength(1);
    expect(s.github.problems).toEqual([]);
    expect(comment()).not.toContain('not-a-token');
  });

  it('fails on breaking changes when asked (fail-on, or the older fail-on-breaking), on any change with fail-on: change', async () => {
    const s = await setup();
    for (const inputs of [{ 'FAIL-ON': 'breaking' }, { 'FAIL-ON-BREAKING': 'true' }]) {
      const run = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', ...inputs });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        '::error::the plan has 1 breaking change, and fail-on is breaking',
      );
    }
    const change = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', 'FAIL-ON': 'change' });
    expect(change.code).toBe(1);
    expect(change.stdout).toContain('::error::the plan has 4 changes, and fail-on is change');
    const never = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', 'FAIL-ON': 'never' });
    expect(never.code).toBe(0);
    expect(s.github.requests).toEqual([]);
  });

  it("gates the contract's version on a pull request: a change that needs a minor bump, with none, fails at the version's line; the counts are outputs", async () => {
    const orders = await readFile(path.join(root, 'contracts', 'orders.yaml'), 'utf8');
    const s = await setup({
      files: {
        'contracts/orders.yaml': orders.replace(
          /^name: orders$/m,
          'name: orders\ncontractVersion: 1.0.0',
        ),
      },
    });
    const run = await runAction(s, { COMMAND: 'plan', COMMENT: 'false' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error title=version gate,file=contracts\/orders\.yaml,line=\d+,col=\d+::contractVersion 1\.0\.0 → 1\.0\.0 is no bump, but this change needs a minor one: it changes /,
    );
    expect(run.summary).toContain('#### Version gate');
    expect(run.outputs).toMatchObject({
      'to-create': '1',
      'to-change': '3',
      'breaking-changes': '1',
      errors: '0',
    });
  });

  it('writes its findings as SARIF where sarif-file says, for upload-sarif', async () => {
    const s = await setup();
    const run = await runAction(s, {
      COMMAND: 'plan',
      COMMENT: 'false',
      'SARIF-FILE': 'results.sarif',
    });
    expect(run.code).toBe(0);
    expect(run.outputs['sarif-file']).toBe(path.join(s.dir, 'results.sarif'));
    const log = JSON.parse(await readFile(path.join(s.dir, 'results.sarif'), 'utf8')) as {
      runs: { results: { ruleId: string; message: { text: string } }[] }[];
    };
    expect(log.runs[0]!.results).toContainEqual(
      expect.objectContaining({
        ruleId: 'CG102',
        message: { text: 'breaking: column phone removed' },
      }),
    );
  });

  it('takes failOn and paths from .contracts.yaml, an input beating it; a broken file is annotated at its line and nothing is sent', async () => {
    const s = await setup({
      files: { '.contracts.yaml': 'paths: [contracts]\nfailOn: breaking\n' },
    });
    const fromFile = await runAction(s, { COMMAND: 'plan', COMMENT: 'false' });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stdout).toContain('fail-on is breaking');
    const input = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', 'FAIL-ON': 'never' });
    expect(input.code).toBe(0);
    await writeFile(
      path.join(s.dir, '.contracts.yaml'),
      'paths: [contracts]\ncatalog:\n  token: not-here\n',
    );
    const before = s.sandbox.requests().length;
    const broken = await runAction(s, { COMMAND: 'plan', COMMENT: 'false' });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      '::error title=invalid settings,file=.contracts.yaml,line=3,col=3::token: a token or secret does not belong in .contracts.yaml',
    );
    expect(broken.summary).toContain('| `.contracts.yaml:3:3` |');
    expect(s.sandbox.requests().length).toBe(before);
  });

  it('plans only the files the pull request changed with changed-only', async () => {
    const s = await setup();
    const run = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', 'CHANGED-ONLY': 'true' });
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.files);
    expect(plan.changes.map((c: { file: string }) => c.file)).toEqual(['contracts/orders.yaml']);
  });

  it('says clearly when the checkout is too shallow for changed-only', async () => {
    const s = await setup();
    s.base = 'f'.repeat(40);
    const run = await runAction(s, { COMMAND: 'plan', COMMENT: 'false', 'CHANGED-ONLY': 'true' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `::error::changed-only cannot tell which files changed: the pull request's base commit ffffffffffff is not in this checkout, which is too shallow. Check out with actions/checkout and fetch-depth: 0.`,
    );
  });

  /** A contract file of the given status, on no asset the sandbox has. */
  const withStatus = (status: string) =>
    `name: x\nfullyQualifiedName: y\nentity: { type: table, fullyQualifiedName: z }\nentityStatus: ${status}\n`;

  it('annotates invalid files at their line and column and writes nothing', async () => {
    const s = await setup({
      files: {
        'contracts/zz-bad.yaml': withStatus('Live'),
      },
    });
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::error title=invalid contract,file=contracts/zz-bad.yaml,line=4,col=15::entityStatus must be one of Draft, Active, Deprecated, In Review, Approved, Archived, Rejected or Unprocessed, got 'Live'",
    );
    expect(run.summary).toContain('| `contracts/zz-bad.yaml:4:15` |');
    expect(writesAmong(s.sandbox.requests())).toEqual([]);
    const validate = await runAction(s, { COMMAND: 'validate' });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(
      '::error title=invalid contract,file=contracts/zz-bad.yaml,line=4,col=15::',
    );
  });

  it("annotates an ODCS file's problems at their lines, as our own files'", async () => {
    const s = await setup({
      files: {
        'contracts/zz-bad.odcs.yaml': [
          'apiVersion: v3.1.0',
          'kind: DataContract',
          'id: 1',
          'version: 1.0.0',
          'status: [active]',
          'schema: 3',
          '',
        ].join('\n'),
      },
    });
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error title=invalid contract,file=contracts\/zz-bad\.odcs\.yaml,line=5,col=\d+::status must be a string/,
    );
    expect(run.stdout).toMatch(
      /::error title=invalid contract,file=contracts\/zz-bad\.odcs\.yaml,line=6,col=\d+::schema must be/,
    );
    expect(writesAmong(s.sandbox.requests())).toEqual([]);
  });

  it('validate with a catalog profile named also annotates what that catalog cannot store, without asking the catalog', async () => {
    const s = await setup({
      files: {
        'contracts/zz-active.yaml': withStatus('Active'),
      },
    });
    const plain = await runAction(s, { COMMAND: 'validate' });
    expect(plain.stdout).not.toContain('file=contracts/zz-active.yaml');
    const named = await runAction(s, { COMMAND: 'validate', 'CATALOG-PROFILE': 'openmetadata' });
    expect(named.code).toBe(1);
    expect(named.stdout).toContain(
      '::error title=invalid contract,file=contracts/zz-active.yaml,line=4,col=15::entityStatus Active is not a status OpenMetadata stores',
    );
    expect(s.sandbox.requests()).toEqual([]);
  });

  it('says which contract files the pull request deletes, and that their contracts stay', async () => {
    const s = await setup();
    git(s.dir, 'rm', '-q', 'contracts/customers.yaml');
    // Renamed: its contract still has a file.
    git(s.dir, 'mv', 'contracts/payments.yaml', 'contracts/billing.yaml');
    git(s.dir, 'commit', '-q', '-m', 'drop customers, rename payments');
    s.head = git(s.dir, 'rev-parse', 'HEAD');
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code, run.stderr).toBe(0);
    const said =
      'Deleted in this pull request: `contracts/customers.yaml` (contract `warehouse.sales.public.customers.dataContract_customers`). Its contract stays in the catalog as it is, and no file manages it any more: plan and apply with --prune to delete it (contracts managed from this repository only), or delete it in the catalog.';
    // Under the closing line, where neither the comment's shortening nor the summary's cut reaches.
    expect(run.summary).toMatch(/\*\*Plan: [^\n]*\n\n⚠️ Deleted in this pull request/);
    expect(run.summary).toContain(`⚠️ ${said}`);
    expect(s.github.comments[0]!.body).toContain(`⚠️ ${said}`);
    expect(run.stdout).toContain(`::warning::${said.replaceAll('`', '')}`);
    expect(run.summary).not.toContain('`contracts/payments.yaml`');
    // The renamed file's contract is marked as managed by its new path.
    expect(run.summary).toContain(`${MARKED_FROM}/${s.head}/contracts/billing.yaml`);
    // A shallow checkout cannot tell: said in the log, and the plan goes on.
    const shallow = await runAction({ ...s, base: '0'.repeat(40) }, { COMMAND: 'plan' });
    expect(shallow.code, shallow.stderr).toBe(0);
    expect(shallow.stdout).toContain(
      'Could not tell which contract files this pull request deletes: git could not compare its base and head in this checkout',
    );
    expect(shallow.summary).not.toContain('Deleted in this pull request');
  });

  it('with prune, plans the deletion of the contract whose file the pull request deletes, annotated at that path; applies it on main only with prune', async () => {
    const s = await setup();
    git(s.dir, 'rm', '-q', 'contracts/customers.yaml');
    git(s.dir, 'commit', '-q', '-m', 'drop customers');
    s.head = git(s.dir, 'rev-parse', 'HEAD');
    const fqn = 'warehouse.sales.public.customers.dataContract_customers';
    const run = await runAction(s, { COMMAND: 'plan', PRUNE: 'true', 'CHANGED-ONLY': 'true' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ 'to-delete': '1', breaking: 'true' });
    expect(run.summary).toContain(`| \`${fqn}\` | \`contracts/customers.yaml\` | - delete |`);
    expect(s.github.comments[0]!.body).toContain('- delete');
    expect(run.summary).not.toContain('Deleted in this pull request');
    expect(run.stdout).toMatch(
      /::warning title=breaking data contract change,file=contracts\/customers\.yaml,line=1,col=1::breaking: the contract is deleted/,
    );
    expect(JSON.parse(run.files).changes).toContainEqual(
      expect.objectContaining({ action: 'delete', fullyQualifiedName: fqn }),
    );
    // On main: without prune, nothing is deleted; with it, the contract is, softly.
    const kept = await runAction(s, { COMMAND: 'apply' }, 'push');
    expect(kept.code, kept.stderr).toBe(0);
    expect(s.sandbox.store.contractByFqn(fqn)?.deleted).not.toBe(true);
    const pruned = await runAction(s, { COMMAND: 'apply', PRUNE: 'true' }, 'push');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`- ${fqn}  deleted (soft`);
    expect(s.sandbox.store.contractByFqn(fqn)?.deleted).toBe(true);
  });

  it('shortens a plan that would pass the comment limit, pointing at the job summary', async () => {
    const s = await longDescriptions(40, 'Long description. '.repeat(120));
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code).toBe(0);
    expect(run.summary.length).toBeGreaterThan(MAX_COMMENT_CHARS);
    const body = s.github.comments[0]!.body;
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body).toContain(
      '_The full plan is too long for a comment; see the job summary: https://github.example/acme/contracts/actions/runs/777._',
    );
    expect(body).toContain('| `db.s.t0.dataContract_c0` |');
  });

  it('cuts a plan past the job summary limit after a whole contract, saying where the whole plan is', async () => {
    const count = 30;
    const s = await longDescriptions(count, 'Long description. '.repeat(2300));
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code, run.stderr).toBe(0);
    // GitHub drops a summary past 1 MiB whole.
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(Buffer.byteLength(run.summary)).toBeGreaterThan(MAX_SUMMARY_BYTES - 64 * 1024);
    expect(run.summary).toMatch(
      /\n\n_This summary is cut here: GitHub keeps at most 1 MiB of a step's summary and drops a longer one whole\. \d+ more lines are left out; the whole plan is in the file the `plan-file` output names \(`npx contracts show FILE --markdown` renders it\)\._\n+$/,
    );
    expect(run.summary).toContain(`| \`db.s.t${count - 1}.dataContract_c${count - 1}\` |`);
    // Cut between contracts: every block and code fence it opened is closed.
    const kept = run.summary.slice(0, run.summary.lastIndexOf('\n\n_This summary is cut here'));
    expect(kept.split('<details>').length).toBe(kept.split('</details>').length);
    expect(kept.split('<details>').length - 1).toBeGreaterThan(5);
    expect(kept.match(/^```/gm)!.length % 2).toBe(0);
    expect(kept.trimEnd().endsWith('</details>')).toBe(true);
    // The plan file the notice names holds every contract.
    const plan = JSON.parse(await readFile(run.outputs['plan-file']!, 'utf8')) as {
      changes: unknown[];
    };
    expect(plan.changes).toHaveLength(count);
  });
});

/** One table without an owner, whose contract gains a rule that it has one: a rule it breaks. */
const UNOWNED_ID = '6a000000-0000-4000-8000-000000000001';
const unownedSeed = () =>
  seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
    ],
    assets: [
      {
        id: UNOWNED_ID,
        entityType: 'table',
        name: 'orphan',
        fullyQualifiedName: 'db.s.orphan',
        columns: [{ name: 'id', dataType: 'BIGINT' }],
      },
    ],
    dataProducts: [],
    dataContracts: [
      {
        id: '6c000000-0000-4000-8000-000000000001',
        name: 'orphan',
        fullyQualifiedName: 'db.s.orphan.dataContract_orphan',
        entity: {
          id: UNOWNED_ID,
          type: 'table',
          name: 'orphan',
          fullyQualifiedName: 'db.s.orphan',
        },
        version: 0.1,
      },
    ],
  });
const unownedFile = [
  'name: orphan',
  'fullyQualifiedName: db.s.orphan.dataContract_orphan',
  'entity: { type: table, fullyQualifiedName: db.s.orphan }',
  'semantics:',
  '  - name: hasOwner',
  '    description: The table has an owner.',
  '    rule: \'{">": [{"length": {"var": "owners"}}, 0]}\'',
  '    enabled: true',
  '',
].join('\n');

describe('who a breaking change reaches, in the pull request', () => {
  it('names the consumers downstream and mentions their owners by the handles .contracts.yaml maps; fail-on breaking-with-consumers fails the check', async () => {
    const id = idsFrom('7a000000');
    const s = await setup({
      openmetadata: true,
      examples: false,
      seed: seed({
        users: [
          {
            name: 'alice',
            permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
          },
        ],
        teams: [{ name: 'sales-data' }, { name: 'ops' }],
        assets: [
          table(id(1), 'orders'),
          dashboard(id(2), 'revenue', 'sales-data'),
          dashboard(id(3), 'kpis', 'ops'),
        ],
        dataProducts: [],
        dataContracts: [contractOn(idsFrom('7c000000')(1), id(1), 'orders')],
        lineage: [
          { from: 'db.s.orders', to: 'looker.revenue' },
          { from: 'db.s.orders', to: 'looker.kpis' },
        ],
      }),
      files: {
        'contracts/orders.yaml': [
          'name: orders',
          'fullyQualifiedName: db.s.orders.dataContract_orders',
          'entity: { type: table, fullyQualifiedName: db.s.orders }',
          'schema:',
          '  - { name: id, dataType: BIGINT }',
          '',
        ].join('\n'),
        '.contracts.yaml': [
          'impact:',
          '  mentions:',
          '    teams: { sales-data: "@acme/sales", ops: acme/ops }',
          '',
        ].join('\n'),
      },
    });
    const run = await runAction(s, { COMMAND: 'plan', 'FAIL-ON': 'breaking-with-consumers' });
    expect(run.code).toBe(1);
    const body = s.github.comments[0]!.body;
    expect(body).toContain(
      '- 👥 consumers of table `db.s.orders` (2 downstream, 2 levels of lineage):',
    );
    expect(body).toContain('  - dashboard `looker.kpis` · owned by team `ops` (@acme/ops)');
    expect(body).toContain(
      '  - dashboard `looker.revenue` · owned by team `sales-data` (@acme/sales)',
    );
    expect(body).toContain('👥 The breaking changes reach assets owned by @acme/ops, @acme/sales.');
    expect(JSON.parse(run.files).changes[0].impact.consumers).toHaveLength(2);
    expect(run.stdout).toContain('and fail-on is breaking-with-consumers');
  });
});

describe('the Action on the main branch (apply) and on a schedule (drift)', () => {
  it('with verify, runs each contract applied on its data: the results in the summary, a check run on the commit, and a contract that does not hold fails the step', async () => {
    const s = await setup({
      openmetadata: true,
      examples: false,
      seed: unownedSeed(),
      files: { 'contracts/orphan.yaml': unownedFile },
    });
    const run = await runAction(s, { COMMAND: 'apply', VERIFY: 'true' }, 'push');
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ applied: '1', verification: 'failure' });
    expect(run.summary).toContain('### Data contracts verified');
    expect(run.summary).toContain('| `db.s.orphan.dataContract_orphan` | ❌ Failed |  | 0/1 |  |');
    expect(run.summary).toContain(
      '- semantics: rule hasOwner does not hold: The table has an owner.',
    );
    expect(run.stdout).toContain(
      '1 contract applied does not hold on the data: stored in the catalog',
    );
    expect(s.github.checkRuns).toEqual([
      expect.objectContaining({
        name: 'data contracts verified',
        head_sha: s.head,
        status: 'completed',
        conclusion: 'failure',
      }),
    ]);
    expect(s.github.problems).toEqual([]);
    // A token that may not create check runs: said, and the summary still has the results.
    s.github.denyCheckRuns = true;
    await writeFile(
      path.join(s.dir, 'contracts', 'orphan.yaml'),
      `${unownedFile}description: Still nobody's.\n`,
    );
    git(s.dir, 'commit', '-q', '-am', 'describe the orphan');
    const denied = await runAction(s, { COMMAND: 'apply', VERIFY: 'true' }, 'push');
    expect(denied.stdout).toContain('No check run: the workflow');
    expect(denied.stdout).toContain('checks: write');
    expectNoToken(denied, s);
  });

  it('applies and lists versions and fieldsUpdated in the summary', async () => {
    const s = await setup();
    const run = await runAction(s, { COMMAND: 'apply' }, 'push');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ applied: '4', 'has-changes': 'true' });
    // The step's log has a line per contract, as the CLI prints them.
    expect(run.stdout).toContain(
      '✓ warehouse.sales.public.orders.dataContract_orders  0.3 → 0.4  (contracts/orders.yaml)',
    );
    expect(run.summary).toContain(
      '- ✅ `warehouse.sales.public.orders.dataContract_orders` 0.3 → 0.4 (`contracts/orders.yaml`)',
    );
    // Values as they read, each in a code span; list items the catalog sends as JSON strings, as JSON.
    expect(run.summary).toContain('  - `entityStatus`: `Draft` → `Active`');
    expect(run.summary).toContain(
      '  - added `schema["currency"]: {"dataType":"CHAR","dataLength":3,"description":"ISO 4217 currency code."}`',
    );
    expect(run.summary).toContain('  - deleted `schema["phone"]`');
    expect(run.summary).toContain('  - changed `sla`: `availability: 99.5 → 99.9`');
    expect(run.summary).not.toContain('…');
    expect(run.summary).not.toContain('\\"');
    expect(s.github.requests).toEqual([]);
    expectNoToken(run, s);
  });

  it("says when OpenMetadata 1.13.0 (sent no If-Match) kept the version, and lists only this apply's own change", async () => {
    const s = await setup({ openmetadata: true, release: '1.13.0' });
    const first = await runAction(s, { COMMAND: 'apply' }, 'push');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // The next merge, minutes later, applied with the same token: the catalog folds it into the
    // version the first apply made.
    const orders = path.join(s.dir, 'contracts', 'orders.yaml');
    await writeFile(
      orders,
      (await readFile(orders, 'utf8')).replace('loaded every hour', 'loaded each hour'),
    );
    git(s.dir, 'commit', '-q', '-am', 'edit orders again');
    const second = await runAction(s, { COMMAND: 'apply' }, 'push');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.outputs).toMatchObject({ applied: '1' });
    expect(second.summary).toContain(
      "- ✅ `warehouse.sales.public.orders.dataContract_orders` 0.4 → 0.4 (kept: the catalog folded this change into that version, as it does with one user's changes within ten minutes) (`contracts/orders.yaml`)",
    );
    // A change inside a long text is its line diff, never the same cut text twice.
    expect(second.summary).toContain(
      '  - `description`:\n\n    ```diff\n    - Orders placed in the web shop, one row per order, loaded every hour from the shop database.\n    + Orders placed in the web shop, one row per order, loaded each hour from the shop database.\n    ```',
    );
    // The first apply's changes to orders are in the catalog's changeDescription, not in this report.
    expect(second.summary).not.toContain('entityStatus');
  });

  it('a cancelled job (SIGTERM) mid-apply: what is in flight finishes, nothing further is sent, the summary says what happened, the step fails', async () => {
    const s = await setup({ openmetadata: true });
    s.sandbox.setFaults({ seed: 1, rules: [], latencyMs: [300, 300] });
    let terminated = false;
    const run = await runAction(s, { COMMAND: 'apply' }, 'push', (stdout, child) => {
      if (!terminated && /✓ |\+ /.test(stdout)) {
        terminated = true;
        child.kill('SIGTERM');
      }
    });
    expect(terminated).toBe(true);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('Terminated (SIGTERM): finishing what is in flight');
    expect(run.stdout).toContain('apply interrupted (SIGTERM)');
    expect(run.summary).toContain('### Data contracts applied');
    const writes = s.sandbox
      .requests()
      .filter(
        (r) => r.method === 'PATCH' || (r.method === 'POST' && !r.path.endsWith('/validate')),
      );
    // Four contracts to write; the job stopped after the first two at most.
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.length).toBeLessThan(4);
  });

  it('a cancelled job (SIGTERM) while it plans ends the step at once: it says nothing was sent, exits 143, and the catalog sees no write', async () => {
    const s = await setup({ openmetadata: true });
    s.sandbox.setFaults({ seed: 1, rules: [], latencyMs: [1500, 1500] });
    let terminated = false;
    const run = await runAction(s, { COMMAND: 'apply' }, 'push', (_stdout, child) => {
      if (terminated) return;
      terminated = true;
      // Once the catalog has a request: the step is reading it to plan.
      const poll = setInterval(() => {
        if (s.sandbox.requests().length === 0) return;
        clearInterval(poll);
        child.kill('SIGTERM');
      }, 20);
    });
    expect(terminated).toBe(true);
    expect(run.code, run.stdout + run.stderr).toBe(143);
    expect(run.stdout).toContain(
      '::error::Interrupted (SIGTERM) before anything was sent: nothing was sent to the catalog.',
    );
    expect(writesAmong(s.sandbox.requests())).toEqual([]);
  });

  it('fails with the partial report and annotates the failed contract when apply stops', async () => {
    // dave's token may not search, so plan cannot see that b's table lacks a column: the catalog says so.
    const s = await setup({
      examples: false,
      files: threeFiles(true),
      seed: threeSeed(),
      user: 'dave',
    });
    const run = await runAction(s, { COMMAND: 'apply' }, 'push');
    expect(run.code).toBe(1);
    expect(run.outputs.applied).toBe('1');
    expect(run.summary).toContain(
      '**Apply stopped:** `db.s.b.dataContract_b` failed with 400 BAD_REQUEST; no further changes were sent.',
    );
    expect(run.summary).toContain(
      '- ⏭️ `db.s.c.dataContract_c` not attempted (`contracts/c.yaml`)',
    );
    expect(run.stdout).toContain(
      '::error title=apply failed for db.s.b.dataContract_b,file=contracts/b.yaml,line=2,col=1::400 BAD_REQUEST: Schema validation failed.',
    );
    expect(run.stdout).toContain(
      '::error::apply stopped: db.s.b.dataContract_b failed with 400 BAD_REQUEST',
    );
    expect(
      s.sandbox
        .requests()
        .filter((r) => r.method === 'PATCH')
        .map((r) => r.status),
    ).toEqual([200, 400]);
  });

  it('drift reports the contracts that differ from git and sets has-changes', async () => {
    const s = await setup();
    const run = await runAction(s, { COMMAND: 'drift' }, 'push');
    expect(run.code).toBe(0);
    expect(run.outputs['has-changes']).toBe('true');
    expect(run.summary).toContain('### Data contract drift');
    expect(run.summary).toContain('4 contracts in the catalog differ from git.');
  });

  it('takes open-pull-request with drift only, and pull-request-branch only as a branch name git takes', async () => {
    const s = await setup();
    const drift = await runAction(
      s,
      { COMMAND: 'drift', 'OPEN-PULL-REQUEST': 'true', 'PULL-REQUEST-BRANCH': 'contracts/drift' },
      'push',
    );
    // Accepted; this checkout has no origin to push the pulled files to, which is said.
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(
      '::error::the checkout has no remote origin to push the branch contracts/drift to (actions/checkout sets it)',
    );
    expect(drift.outputs['pull-request']).toBe('');
    const plan = await runAction(s, { COMMAND: 'plan', 'OPEN-PULL-REQUEST': 'true' });
    expect(plan.code).not.toBe(0);
    expect(plan.stdout).toContain(
      "::error::input open-pull-request works only with command: drift (it proposes the catalog's edits), not with command: plan",
    );
    for (const [branch, why] of [
      ['-f', "it starts with '-'"],
      ['contracts/../main', "it holds '..'"],
      ['drift branch', 'it holds a space'],
    ]) {
      const run = await runAction(
        s,
        { COMMAND: 'drift', 'OPEN-PULL-REQUEST': 'true', 'PULL-REQUEST-BRANCH': branch! },
        'push',
      );
      expect(run.code).not.toBe(0);
      expect(run.stdout).toContain(
        `::error::input pull-request-branch must be a git branch name, got '${branch!}': ${why!}`,
      );
      expect(run.outputs['has-changes']).toBeUndefined();
    }
    expect(s.github.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('hostile names in the pull request comment', () => {
  /** A contract file named and a contract named to break out of the comment's markup. */
  const FILE = 'contracts/a`b<img src=x onerror=alert(1)>.yaml';
  const FQN =
    'warehouse.sales.public.orders.dataContract_x@octocat</summary><script>alert(1)</script>';

  /** The text of the comment outside HTML comments (the sticky comment's marker). */
  const bodyOf = (s: Setup): string => s.github.comments[0]!.body.replace(/<!--[^]*?-->/g, '');

  /** Every tag of `markdown`, by name: what GitHub would render as HTML. */
  const tags = (markdown: string): string[] =>
    [...markdown.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());

  it('a file name with backticks and a tag, a contract name closing <summary>: no raw tag, the blocks intact', async () => {
    const orders = await readFile(path.join(root, 'contracts', 'orders.yaml'), 'utf8');
    const s = await setup({
      files: {
        [FILE]: orders
          .replace(/^name: orders$/m, 'name: x')
          .replace(/^fullyQualifiedName: .*$/m, `fullyQualifiedName: ${JSON.stringify(FQN)}`)
          .replace(
            /^ {2}fullyQualifiedName: .*$/m,
            '  fullyQualifiedName: warehouse.sales.public.x',
          ),
      },
    });
    const run = await runAction(s, { COMMAND: 'plan' });
    expect(run.code, run.stderr).toBe(1); // The hostile contract cannot be planned: an error.
    expect(s.github.comments).toHaveLength(1);
    for (const markdown of [bodyOf(s), run.summary]) {
      // Only the tags the renderer writes itself: no img, no script, no summary closed early.
      expect(new Set(tags(markdown))).toEqual(new Set(['details', 'summary', 'code']));
      expect(markdown).not.toContain('onerror=alert(1)>');
      const opened = markdown.match(/<details>/g)!.length;
      expect(markdown.match(/<\/details>/g)).toHaveLength(opened);
      expect(markdown.match(/<summary>/g)).toHaveLength(opened);
      // Each summary opens and closes on its line, and nothing follows it there.
      for (const line of markdown.split('\n').filter((l) => l.includes('<summary>')))
        expect(line).toMatch(/^<details><summary>[^<]*(<code>[^<]*<\/code>[^<]*)?<\/summary>$/);
      // The table keeps its six columns on every row.
      for (const row of markdown.split('\n').filter((l) => l.startsWith('| ')))
        expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(8);
      // The names are there, escaped: the file as code, the contract in its summary.
      expect(markdown).toContain(
        '<code>contracts/a\\`b&lt;img src=x onerror=alert(1)&gt;.yaml</code>',
      );
      expect(markdown).toContain(
        '<code>warehouse.sales.public.orders.dataContract_x@octocat&lt;/summary&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>',
      );
      // A name from the catalog's words in plain text mentions no one.
      expect(markdown).not.toMatch(/\*\*Error:\*\*[^\n]*@octocat/);
    }
  });
});
