// plan and apply end to end against a real sandbox over HTTP: the demo converges, stale plans
// are refused, 400/401/403 stop apply with an exact partial report, reads survive a 503 storm,
// a lost PATCH response never applies a change twice, and the token never shows.
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan, type ContractResult } from '../src/apply/apply-plan.js';
import { planChecksum } from '../src/plan/create-plan.js';
import { printablePlan } from '../src/views/format-value.js';
import { renderPlanHuman } from '../src/views/render-human.js';
import { renderPlanMarkdown } from '../src/views/render-markdown.js';
import { loadContracts } from '../src/read/load.js';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { readAndPlanEach, type CatalogReader } from '../src/read/read-plan-inputs.js';
import type { DesiredContract } from '../src/model/contract.js';
import { CatalogClient } from '../src/catalog/client.js';
import { planFromFiles } from '../src/pipeline/plan-pipeline.js';
import { type FaultSpec, mintToken, type Sandbox } from '@contracts-gitops/sandbox';
import { arbitraryContract } from './helpers/arbitraries.js';
import { runCli } from '../src/cli/program.js';
import { PromptCancelled } from '../src/cli/io.js';
import { PLAIN } from '../src/views/colors.js';
import { captureIo } from './helpers/capture-io.js';
import { cli } from './helpers/cli.js';
import { catalogFromPairs } from './helpers/generated-catalog.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';
import { openSandbox, SECRET, editorSeed, writesAmong } from './helpers/sandbox.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function workspace(
  files: Record<string, string> = {},
  withExamples = true,
): Promise<TempDir> {
  const dir = await tempDir(files);
  if (withExamples)
    await cp(path.join(root, 'contracts'), path.join(dir.dir, 'contracts'), { recursive: true });
  cleanups.push(() => dir.remove());
  return dir;
}

async function catalog(
  options: Parameters<typeof openSandbox>[0] = {},
  user = 'alice',
): Promise<{ sandbox: Sandbox; env: Record<string, string>; token: string }> {
  const opened = await openSandbox(options);
  cleanups.push(() => opened.sandbox.close());
  const token = await opened.token(user);
  return {
    sandbox: opened.sandbox,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: token },
    token,
  };
}

const patches = (sandbox: Sandbox) => sandbox.requests().filter((r) => r.method === 'PATCH');

describe('plan and apply on the demo catalog', () => {
  it('plans, saves, applies and converges, for every example contract', async () => {
    const { sandbox, env, token } = await catalog();
    const dir = await workspace();
    const plan = await cli(['plan', '--json', '--out', 'plan.json', '--detailed-exitcode'], {
      cwd: dir.dir,
      env,
    });
    expect(plan.code).toBe(2);
    expect(plan.err).toBe('');
    const json = JSON.parse(plan.out);
    expect(json).toMatchObject({
      formatVersion: 2,
      catalogUrl: sandbox.url,
      summary: { create: 1, update: 3, noop: 2, error: 0, missing: 0 },
    });
    expect(typeof json.createdAt).toBe('string');
    for (const change of json.changes) {
      expect(Object.keys(change)).toEqual(
        expect.arrayContaining([
          'file',
          'fullyQualifiedName',
          'id',
          'action',
          'liveVersion',
          'liveHash',
          'patch',
          'breaking',
          'error',
        ]),
      );
      if (change.action !== 'create') expect(change.liveHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    const customers = json.changes.find(
      (c: { file: string }) => c.file === 'contracts/customers.yaml',
    );
    expect(customers.breaking).toEqual(['column phone removed']);
    const saved = await readFile(path.join(dir.dir, 'plan.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual(json);

    const apply = await cli(['apply', 'plan.json'], { cwd: dir.dir, env });
    expect(apply.err).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.out).toContain(
      '✓ warehouse.sales.public.orders.dataContract_orders  0.3 → 0.4  (contracts/orders.yaml)',
    );
    expect(apply.out).toContain('    entityStatus: Draft → Active');
    // Items by their name; an object changed, by the properties that changed; nothing cut.
    expect(apply.out).toContain('    + semantics["hasDescription"]\n');
    expect(apply.out).toContain('    - schema["phone"]\n');
    expect(apply.out).toContain('    ~ sla: availability: 99.5 → 99.9\n');
    expect(apply.out).toContain(
      '    + schema["currency"]: {"dataType":"CHAR","dataLength":3,"description":"ISO 4217 currency code."}\n',
    );
    expect(apply.out).not.toContain('…');
    expect(apply.out).toMatch(
      /\+ warehouse\.sales\.public\.order_items\.dataContract_order_items {2}created: id [0-9a-f-]{36}, version 0\.1 {2}\(contracts\/order-items\.yaml\)/,
    );
    expect(apply.out).toContain('Apply complete: 1 created, 3 changed, 2 unchanged.');
    expect(patches(sandbox)).toHaveLength(3);
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toHaveLength(1);

    const again = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(again.code).toBe(0);
    expect(again.out).toContain('Plan: 0 to change, 6 unchanged, 0 errors.');
    for (const text of [plan.out, plan.err, saved, apply.out, apply.err, again.out])
      expect(text).not.toContain(token);
  });

  it('refuses a stale plan and sends nothing', async () => {
    const { sandbox, env, token } = await catalog();
    const dir = await workspace();
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: dir.dir, env })).code).toBe(0);
    // Someone changes a contract the plan leaves alone, out of band.
    const live = (await (
      await fetch(
        `${sandbox.url}/v1/dataContracts/name/events.web.clickstream.dataContract_clickstream`,
        { headers: { authorization: `Bearer ${token}` } },
      )
    ).json()) as { id: string };
    const outOfBand = await fetch(`${sandbox.url}/v1/dataContracts/${live.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/description', value: 'edited in the UI' }]),
    });
    expect(outOfBand.status).toBe(200);
    sandbox.clearRequests();
    const apply = await cli(['apply', 'plan.json'], { cwd: dir.dir, env });
    expect(apply.code).toBe(1);
    expect(apply.err).toMatch(
      /^Error: plan is stale: re-run plan\. 1 contract changed since it was made: events\.web\.clickstream\.dataContract_clickstream \(version 0\.2 when planned, 0\.3 now\)\. Nothing was sent\.\n$/,
    );
    expect(patches(sandbox)).toEqual([]);
  });

  it('refuses a plan made against another catalog', async () => {
    const { env } = await catalog();
    const dir = await workspace();
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: dir.dir, env })).code).toBe(0);
    const other = await catalog();
    const apply = await cli(['apply', 'plan.json'], { cwd: dir.dir, env: other.env });
    expect(apply.code).toBe(1);
    expect(apply.err).toMatch(
      /the plan was made against http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:\d+; plan again/,
    );
    expect(patches(other.sandbox)).toEqual([]);
  });

  it('writes nothing for invalid files, and says only their problems', async () => {
    const { sandbox, env } = await catalog();
    const dir = await workspace({
      'contracts/zz-bad.yaml':
        'name: x\nfullyQualifiedName: y\nentity: { type: table, fullyQualifiedName: z }\nentityStatus: Live\n',
    });
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(args, { cwd: dir.dir, env });
      expect(run.code).toBe(1);
      expect(run.out).toContain(
        'contracts/zz-bad.yaml:4:15 entityStatus must be one of Draft, Active, Deprecated, In Review, Approved, Archived, Rejected or Unprocessed',
      );
      expect(run.out).not.toContain('Plan:');
    }
    expect(writesAmong(sandbox.requests())).toEqual([]);
  });

  it('asks before applying and never prompts without a terminal', async () => {
    const { sandbox, env } = await catalog();
    const dir = await workspace();
    const run = await cli(['apply'], { cwd: dir.dir, env });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'apply needs --auto-approve when stdin is not a terminal; nothing was sent',
    );
    expect(patches(sandbox)).toEqual([]);
  });

  it('reports missing configuration before sending anything', async () => {
    const dir = await workspace();
    const noUrl = await cli(['plan'], { cwd: dir.dir, env: { CATALOG_TOKEN: 'x' } });
    expect(noUrl.code).toBe(1);
    expect(noUrl.err).toMatch(/no catalog: set --catalog-url or CATALOG_URL/);
    const noToken = await cli(['plan', '--catalog-url', 'http://127.0.0.1:9'], {
      cwd: dir.dir,
      env: {},
    });
    expect(noToken.err).toMatch(/no token: set CATALOG_TOKEN/);
    const { sandbox, env } = await catalog();
    const wrongUrl = await cli(['plan', '--catalog-url', `${sandbox.url}/wrong`], {
      cwd: dir.dir,
      env,
    });
    expect(wrongUrl.code).toBe(1);
    expect(wrongUrl.err).toBe(
      `Error: ${sandbox.url}/wrong does not look like the catalog: GET /wrong/v1/tables answered 404. Check --catalog-url or CATALOG_URL (OpenMetadata's is http://HOST:8585/api).\n`,
    );
    expect(wrongUrl.out).toBe('');
  });
});

describe('apply stops on 400, 401 and 403 with an exact partial report', () => {
  it('400: the first is applied, the second fails, the third is not attempted', async () => {
    const { sandbox, env } = await catalog({ seed: threeSeed() }, 'dave');
    const dir = await workspace(threeFiles(true), false);
    const run = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      [
        'Apply stopped: db.s.b.dataContract_b failed with 400 BAD_REQUEST; no further changes were sent.',
        '  applied (1):',
        '    db.s.a.dataContract_a 0.1 → 0.2 (contracts/a.yaml)',
        '  failed (1):',
        '    db.s.b.dataContract_b: 400 BAD_REQUEST: Schema validation failed. The following fields specified in the data contract do not exist in the table: ghost (contracts/b.yaml)',
        '  not attempted (1):',
        '    db.s.c.dataContract_c (contracts/c.yaml)',
        '  unchanged (0)',
      ].join('\n'),
    );
    expect(patches(sandbox).map((r) => [r.path, r.status])).toEqual([
      ['/v1/dataContracts/1c000000-0000-4000-8000-000000000001', 200],
      ['/v1/dataContracts/1c000000-0000-4000-8000-000000000002', 400],
    ]);
    const json = await cli(['apply', '--auto-approve', '--json'], { cwd: dir.dir, env });
    const report = JSON.parse(json.out);
    expect(report.applied).toEqual([]);
    expect(
      report.failed.map((f: { fullyQualifiedName: string; httpStatus: number }) => [
        f.fullyQualifiedName,
        f.httpStatus,
      ]),
    ).toEqual([['db.s.b.dataContract_b', 400]]);
    expect(
      report.notAttempted.map((f: { fullyQualifiedName: string }) => f.fullyQualifiedName),
    ).toEqual(['db.s.c.dataContract_c']);
    expect(
      report.unchanged.map((f: { fullyQualifiedName: string }) => f.fullyQualifiedName),
    ).toEqual(['db.s.a.dataContract_a']);
  });

  it('403 for a token without EditDataContract: nothing after the first PATCH', async () => {
    const { sandbox } = await catalog({ seed: threeSeed() });
    const dir = await workspace(threeFiles(false), false);
    const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await mintToken('bob', SECRET) };
    const run = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      "Apply stopped: db.s.a.dataContract_a failed with 403 FORBIDDEN; no further changes were sent.\nThe token's user may not write this contract: it needs the permission to edit data contracts (EditDataContract; on OpenMetadata EditAll to change a contract, Create to create one).\n",
    );
    expect(run.out).toContain(
      "db.s.a.dataContract_a: 403 FORBIDDEN: Principal: CatalogPrincipal{name='bob'} operations [EditAll] not allowed (contracts/a.yaml)",
    );
    expect(run.out).toContain(
      '  not attempted (2):\n    db.s.b.dataContract_b (contracts/b.yaml)\n    db.s.c.dataContract_c (contracts/c.yaml)',
    );
    expect(patches(sandbox)).toHaveLength(1);
  });

  for (const [status, revoke] of [
    [401, (sandbox: Sandbox) => sandbox.store.users.delete('alice')],
    [
      403,
      (sandbox: Sandbox) => (sandbox.store.users.get('alice')!.permissions = ['ViewDataContract']),
    ],
  ] as const) {
    it(`${status} after the first contract: applied, failed, not attempted`, async () => {
      const { sandbox, token } = await catalog({ seed: threeSeed() });
      const dir = await workspace(threeFiles(false), false);
      const client = new CatalogClient({ baseUrl: sandbox.url, token });
      cleanups.push(() => client.close());
      const outcome = await planFromFiles(
        {
          paths: ['contracts'],
          cwd: dir.dir,
          catalogUrl: sandbox.url,
          gitCommit: null,
          keepLive: true,
        },
        client,
      );
      if (!outcome.ok) throw new Error('plan failed');
      const seen: ContractResult[] = [];
      const report = await applyPlan(outcome.plan, client, {
        liveContracts: outcome.liveContracts,
        onResult: (result) => {
          seen.push(result);
          if (seen.length === 1) revoke(sandbox);
        },
      });
      expect(report.results.map((r) => r.status)).toEqual(['applied', 'failed', 'not-attempted']);
      expect(report.stoppedBy).toMatchObject({
        fullyQualifiedName: 'db.s.b.dataContract_b',
        httpStatus: status,
        errorType: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
      });
      expect(patches(sandbox).map((r) => r.status)).toEqual([200, status]);
    });
  }
});

describe('faults', () => {
  it('reads are retried through a 503 storm', async () => {
    const faults: FaultSpec = {
      seed: 4,
      retryAfterSeconds: 0,
      // Three reads in ten answered 503: a read fails for good only after five in a row (about
      // one in 400), which the order the requests happen to arrive in cannot make likely.
      rules: [{ method: 'GET', kind: 'status', status: 503, rate: 0.3 }],
    };
    const { sandbox, env } = await catalog({ faults });
    const dir = await workspace();
    const run = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(run.err).toBe('');
    expect(run.code).toBe(2);
    expect(run.out).toContain('Plan: 1 to create, 3 to change, 2 unchanged, 0 errors.');
    expect(sandbox.faults!.injected.status).toBeGreaterThan(0);
  });

  it('a PATCH whose response is lost is confirmed by reading back, never sent twice', async () => {
    const faults: FaultSpec = {
      seed: 3,
      rules: [{ method: 'PATCH', kind: 'commit-drop', rate: 1 }],
    };
    const { sandbox, env, token } = await catalog({ faults });
    const dir = await workspace();
    const run = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      '(the response was lost; reading the contract back showed the change in place)',
    );
    expect(patches(sandbox)).toHaveLength(3);
    expect(patches(sandbox).every((r) => r.outcome === 'dropped')).toBe(true);
    const customers = (await (
      await fetch(
        `${sandbox.url}/v1/dataContracts/name/warehouse.sales.public.customers.dataContract_customers`,
        { headers: { authorization: `Bearer ${token}` } },
      )
    ).json()) as { semantics: { name: string }[]; version: number };
    expect(customers.semantics.map((r) => r.name)).toEqual(['hasOwner', 'hasDescription']);
    expect(customers.version).toBe(1.3);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env })).code).toBe(0);
  });
});

describe("someone else's seed and contract files", () => {
  it('plan --json gives patches that, applied, leave plan empty', async () => {
    const pairs = fc.sample(fc.tuple(arbitraryContract(), arbitraryContract()), {
      seed: 20261121,
      numRuns: 25,
    });
    const { assets, contracts, desired } = catalogFromPairs(pairs, 'warehouse.gen.public');
    const files: Record<string, string> = {};
    desired.forEach((contract, i) => {
      files[`contracts/c${String(i).padStart(2, '0')}.yaml`] = stringify(contract);
    });
    const { env } = await catalog({
      seed: editorSeed(assets, contracts),
    });
    const dir = await workspace(files, false);
    const plan = await cli(['plan', '--json', '--out', 'p.json'], { cwd: dir.dir, env });
    expect(plan.err).toBe('');
    expect(JSON.parse(plan.out).summary.error).toBe(0);
    const apply = await cli(['apply', 'p.json'], { cwd: dir.dir, env });
    expect(apply.out).toContain('Apply complete');
    expect(apply.code).toBe(0);
    const again = await cli(['plan', '--json', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(JSON.parse(again.out).summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      noop: 25,
      error: 0,
      missing: 0,
    });
    expect(again.code).toBe(0);
    await writeFile(path.join(dir.dir, 'again.json'), again.out);
  });
});

describe('--changed-since and colour', () => {
  /** The example files committed in a repository of their own, and git run there. */
  async function committedExamples(): Promise<{
    dir: TempDir;
    git: (...args: string[]) => string;
  }> {
    const dir = await workspace();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: dir.dir,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    return { dir, git };
  }

  it('plans only the files changed since a git ref, and says when the ref is unknown', async () => {
    const { env } = await catalog();
    const { dir } = await committedExamples();
    const orders = path.join(dir.dir, 'contracts', 'orders.yaml');
    await writeFile(
      orders,
      (await readFile(orders, 'utf8')).replace('loaded hourly', 'loaded every hour'),
    );
    const run = await cli(['plan', '--json', '--changed-since', 'HEAD'], { cwd: dir.dir, env });
    expect(JSON.parse(run.out).changes.map((c: { file: string }) => c.file)).toEqual([
      'contracts/orders.yaml',
    ]);
    const unknown = await cli(['plan', '--changed-since', 'no-such-ref'], { cwd: dir.dir, env });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("--changed-since: git does not know 'no-such-ref'");
  });

  it('says which contract files were deleted since the ref, and that their contracts stay', async () => {
    const { sandbox, env } = await catalog();
    const { dir } = await committedExamples();
    const customers = () =>
      JSON.stringify(
        [...sandbox.store.contracts.values()].find(
          (c) => c.fullyQualifiedName === 'warehouse.sales.public.customers.dataContract_customers',
        ),
      );
    const before = customers();
    await rm(path.join(dir.dir, 'contracts', 'customers.yaml'));
    // Moved without git's knowing: deleted and untracked, and its contract still has a file.
    await rename(
      path.join(dir.dir, 'contracts', 'payments.yaml'),
      path.join(dir.dir, 'contracts', 'billing.yaml'),
    );
    const said =
      'Deleted since HEAD: contracts/customers.yaml (contract warehouse.sales.public.customers.dataContract_customers). Its contract stays in the catalog as it is, and no file manages it any more: plan and apply with --prune to delete it (contracts managed from this repository only), or delete it in the catalog.';
    const human = await cli(['plan', '--changed-since', 'HEAD'], { cwd: dir.dir, env });
    expect(human.code, human.err).toBe(0);
    expect(human.out).toContain(`\n${said}\n`);
    expect(human.out).not.toContain('payments.yaml');
    const json = await cli(['plan', '--json', '--changed-since', 'HEAD'], { cwd: dir.dir, env });
    expect(JSON.parse(json.out).changes.map((c: { file: string }) => c.file)).toEqual([
      'contracts/billing.yaml',
    ]);
    expect(json.err).toContain(`Note: ${said}`);
    const markdown = await cli(['plan', '--markdown', '--changed-since', 'HEAD'], {
      cwd: dir.dir,
      env,
    });
    expect(markdown.out).toContain(
      '⚠️ Deleted since HEAD: `contracts/customers.yaml` (contract `warehouse.sales.public.customers.dataContract_customers`).',
    );
    // Without --changed-since nothing is compared, and nothing is said.
    expect((await cli(['plan'], { cwd: dir.dir, env })).out).not.toContain('Deleted since');
    const apply = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(apply.code, apply.err).toBe(0);
    expect(customers()).toBe(before);
    expect(before).toContain('"version"');
  });

  it('colours only a terminal, and never with NO_COLOR or --no-color', async () => {
    const { env } = await catalog();
    const dir = await workspace();
    const run = async (args: string[], extra: Record<string, string> = {}): Promise<string> => {
      const io = captureIo(dir.dir, { ...env, ...extra });
      (io.stdout as { isTTY?: boolean }).isTTY = true;
      await runCli(args, io);
      return io.out();
    };
    expect(await run(['plan'])).toContain('\u001b[');
    expect(await run(['plan'], { NO_COLOR: '1' })).not.toContain('\u001b[');
    expect(await run(['--no-color', 'plan'])).not.toContain('\u001b[');
    expect((await cli(['plan'], { cwd: dir.dir, env })).out).not.toContain('\u001b[');
  });
});

describe('the confirmation prompt', () => {
  it('applies only after "yes" on a terminal', async () => {
    const { sandbox, env } = await catalog();
    const dir = await workspace();
    const asked: string[] = [];
    const answering = (answer: string) => {
      const io = captureIo(dir.dir, env);
      return Object.assign(io, {
        stdinIsTTY: true,
        prompt: (question: string) => {
          asked.push(question);
          return Promise.resolve(answer);
        },
      });
    };
    const no = answering('no');
    expect(await runCli(['apply'], no)).toBe(1);
    expect(no.err()).toContain('Apply cancelled; nothing was sent.');
    expect(patches(sandbox)).toEqual([]);
    const yes = answering('yes');
    expect(await runCli(['apply'], yes)).toBe(0);
    expect(yes.out()).toContain('Apply complete: 1 created, 3 changed, 2 unchanged.');
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain(`Do you want to apply these changes to ${sandbox.url}?`);
  });

  it('Ctrl-C or Ctrl-D at the prompt cancels: exit 130, nothing sent', async () => {
    const { sandbox, env } = await catalog();
    const dir = await workspace();
    const io = Object.assign(captureIo(dir.dir, env), {
      stdinIsTTY: true,
      prompt: () => Promise.reject(new PromptCancelled()),
    });
    expect(await runCli(['apply'], io)).toBe(130);
    expect(io.err()).toContain('Apply cancelled; nothing was sent.');
    expect(io.err()).not.toContain('Internal error');
    expect(sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('memory', () => {
  it('plans each loaded file from one read of its contract, the same as from the parsed texts', async () => {
    const dir = await workspace();
    const { sandbox, token } = await catalog();
    const client = new CatalogClient({ baseUrl: sandbox.url, token });
    cleanups.push(() => client.close());
    const loaded = await loadContracts(['contracts'], dir.dir);
    const reads = new Map<string, number>();
    const counted = loaded.files.map((file) =>
      Object.defineProperty(Object.create(file) as ContractFile, 'contract', {
        get: () => {
          reads.set(file.file, (reads.get(file.file) ?? 0) + 1);
          return file.contract;
        },
      }),
    );
    const { changes } = await readAndPlanEach(counted, client, { keepLive: true });
    expect([...reads.values()]).toEqual(loaded.files.map(() => 1));
    const parsed = await Promise.all(
      loaded.files.map(async (file) => {
        const result = parseContract(await readFile(path.join(dir.dir, file.file)), file.file);
        if (!result.ok) throw new Error(`${file.file} does not parse`);
        return result.value;
      }),
    );
    expect(changes).toEqual((await readAndPlanEach(parsed, client)).changes);
    expect(changes.some((change) => change.action === 'update')).toBe(true);
  });
});

describe('reads while the tables are listed', () => {
  it('go on reading contracts until the lists answer, then plan them the same', async () => {
    // 150 tables in one database: listed, not searched, for the live-asset checks.
    const shape = (i: number): DesiredContract => ({
      name: `c${i}`,
      fullyQualifiedName: '',
      entity: { type: 'table', fullyQualifiedName: '' },
      description: i % 3 === 0 ? 'old' : 'same',
      schema: [{ name: 'id', dataType: 'VARCHAR' }],
    });
    const pairs = Array.from({ length: 150 }, (_, i) => {
      const desired = shape(i);
      return [shape(i), { ...desired, description: 'same' }] as const;
    });
    const { assets, contracts, desired } = catalogFromPairs(pairs, 'warehouse.gen.public');
    const files = desired.map((contract, i) => {
      const parsed = parseContract(stringify(contract), `contracts/c${i}.yaml`);
      if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
      return parsed.value;
    });
    const { sandbox, token } = await catalog({ seed: editorSeed(assets, contracts) });
    const client = new CatalogClient({ baseUrl: sandbox.url, token });
    cleanups.push(() => client.close());
    // The lists answer only once every contract has been asked for: planning that waited for
    // them with its reads held would never end.
    let asked = 0;
    let everyContractAsked!: () => void;
    const allAsked = new Promise<void>((resolve) => (everyContractAsked = resolve));
    const reader: CatalogReader = {
      getContractByName: (name, fields) => {
        asked += 1;
        if (asked === files.length) everyContractAsked();
        return client.getContractByName(name, fields);
      },
      getEffectiveContract: (id, type) => client.getEffectiveContract(id, type),
      fieldQuery: (query) => client.fieldQuery(query),
      redact: (text) => client.redact(text),
      listPage: async (resource, params, cursor) => {
        await allAsked;
        return client.listPage(resource, params, cursor);
      },
    };
    const { changes } = await readAndPlanEach(files, reader);
    expect(sandbox.requests().some((r) => r.path === '/v1/tables')).toBe(true);
    expect(changes).toEqual((await readAndPlanEach(files, client)).changes);
    expect(changes.filter((change) => change.action === 'update')).toHaveLength(50);
    expect(changes.every((change) => change.warnings.length === 0)).toBe(true);
  });

  it('once the lists answer, plan the contracts read meanwhile without holding the next reads', async () => {
    const pairs = Array.from({ length: 400 }, (_, i) => {
      const contract: DesiredContract = {
        name: `c${i}`,
        fullyQualifiedName: '',
        entity: { type: 'table', fullyQualifiedName: '' },
        schema: [{ name: 'id', dataType: 'VARCHAR' }],
      };
      return [contract, contract] as const;
    });
    const { assets, contracts, desired } = catalogFromPairs(pairs, 'warehouse.gen.public');
    const { sandbox, token } = await catalog({ seed: editorSeed(assets, contracts) });
    const client = new CatalogClient({ baseUrl: sandbox.url, token });
    cleanups.push(() => client.close());
    // What happens, in order: each contract asked for, and each planned (its file's contract read).
    const events: ('read' | 'planned')[] = [];
    const files = desired.map((contract, i) => {
      const parsed = parseContract(stringify(contract), `contracts/c${i}.yaml`);
      if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
      return Object.defineProperty(Object.create(parsed.value) as ContractFile, 'contract', {
        get: () => {
          events.push('planned');
          return parsed.value.contract;
        },
      });
    });
    // The lists answer once 150 contracts have been asked for: by then some 80 have been read
    // and wait for them. The reads after those go out only once every lookup has answered, so
    // that 250 reads are left to send after the lists are in.
    let asked = 0;
    let manyAsked!: () => void;
    const listable = new Promise<void>((resolve) => (manyAsked = resolve));
    let lookingUp = 0;
    let lookedUp!: () => void;
    const lookupsDone = new Promise<void>((resolve) => (lookedUp = resolve));
    const lookup = async <T>(ask: () => Promise<T>): Promise<T> => {
      await listable;
      lookingUp += 1;
      try {
        return await ask();
      } finally {
        lookingUp -= 1;
        // Another lookup may start from this one's answer: done only if none has a turn later.
        setImmediate(() => lookingUp === 0 && lookedUp());
      }
    };
    const reader: CatalogReader = {
      getContractByName: async (name, fields) => {
        events.push('read');
        asked += 1;
        if (asked === 150) manyAsked();
        if (asked > 150) await lookupsDone;
        return client.getContractByName(name, fields);
      },
      getEffectiveContract: (id, type) => client.getEffectiveContract(id, type),
      fieldQuery: (query) => lookup(() => client.fieldQuery(query)),
      redact: (text) => client.redact(text),
      listPage: (resource, params, cursor) =>
        lookup(() => client.listPage(resource, params, cursor)),
    };
    const { changes } = await readAndPlanEach(files, reader);
    expect(changes.every((change) => change.action === 'noop')).toBe(true);
    // Until the last read goes out, plans come between reads, never all the waiting ones at once.
    const untilLastRead = events.slice(0, events.lastIndexOf('read'));
    const longestRun = Math.max(
      ...untilLastRead
        .join('')
        .split('read')
        .map((run) => run.length / 'planned'.length),
    );
    expect(untilLastRead.filter((event) => event === 'planned').length).toBeGreaterThan(100);
    expect(longestRun).toBeLessThan(10);
  });
});

describe('a plan only shown', () => {
  /** A catalog, a workspace, a client of the catalog, and the request that plans the workspace. */
  async function planning() {
    const { sandbox, token } = await catalog();
    const dir = await workspace();
    const client = new CatalogClient({ baseUrl: sandbox.url, token });
    cleanups.push(() => client.close());
    const request = {
      paths: ['contracts'],
      cwd: dir.dir,
      catalogUrl: sandbox.url,
      gitCommit: null,
      now: () => new Date('2026-11-27T00:00:00Z'),
    };
    return { client, request };
  }

  it('hashes no live contract, and says everything else a saved plan says', async () => {
    const { client, request } = await planning();
    const shown = await planFromFiles({ ...request, sealed: false }, client);
    const saved = await planFromFiles(request, client);
    if (!shown.ok || !saved.ok) throw new Error('plan failed');
    const found = saved.plan.changes.filter((change) => change.id !== null);
    expect(found.length).toBeGreaterThan(0);
    for (const change of found) expect(change.liveHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(shown.plan.changes.every((change) => change.liveHash === null)).toBe(true);
    const withoutHashes = (changes: typeof found) =>
      changes.map((change) => ({ ...change, liveHash: null }));
    expect(withoutHashes(shown.plan.changes)).toEqual(withoutHashes(saved.plan.changes));
    // Its checksum is made when read, over what it says, and written last, as ever.
    expect(saved.plan.checksum).toBe(planChecksum(saved.plan));
    expect(Object.keys(JSON.parse(JSON.stringify(saved.plan)) as object).at(-1)).toBe('checksum');
  });

  it('is shown, in the terminal and in markdown, without its checksum being computed', async () => {
    const { client, request } = await planning();
    const planned = await planFromFiles({ ...request, sealed: false }, client);
    if (!planned.ok) throw new Error('plan failed');
    // The plan as made, each read of its checksum counted.
    let reads = 0;
    const plan = new Proxy(planned.plan, {
      get: (target, key, receiver) => {
        if (key === 'checksum') reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(renderPlanHuman(plan, PLAIN)).toContain('Plan:');
    expect(renderPlanMarkdown(plan)).toContain('contracts/');
    expect(reads).toBe(0);
    // A copy made printable still reads it when asked.
    expect(printablePlan(plan).checksum).toBe(planChecksum(planned.plan));
    expect(reads).toBe(1);
  });
});

describe('the plan checksum', () => {
  /** The text a plan's checksum has always been taken over: JSON with each object's keys sorted. */
  function sortedJson(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      return `{${Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}:${sortedJson(record[key])}`)
        .join(',')}}`;
    }
    return JSON.stringify(value);
  }
  const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

  it('is the SHA-256 of the plan as sorted-key JSON, however large, so saved plans still verify', () => {
    fc.assert(
      fc.property(
        // Long strings and many entries carry the text across the pieces it is hashed in.
        fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.nat({ max: 2_000 }),
        (changes, text, times) => {
          const plan = { formatVersion: 1, note: text.repeat(times), changes, checksum: 'x' };
          const { checksum: _ignored, ...content } = plan;
          expect(planChecksum(plan as never)).toBe(sha256(sortedJson(content)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
