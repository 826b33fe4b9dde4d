// Verify reads its own run, or says it could not. OpenMetadata answers `results/{resultId}` with the
// contract's latest run whatever id is asked for, and a new run aborts a running one: a run another
// writer starts while ours runs (the UI, another job, the scheduled validation) must never have its
// verdict reported as ours. A run needs EditAll on the contract; a contract at 0.1 moves to 0.2
// when it is run, and applies as usual after.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { idFor } from '@contracts-gitops/sandbox';
import { CatalogClient } from '../src/catalog/client.js';
import { failedVerification, verifyContracts } from '../src/verify/verify-contracts.js';
import { applyPlan } from '../src/apply/apply-plan.js';
import type { Operation } from '../src/model/operation.js';
import { parseContract } from '../src/contract/parse.js';
import { openMetadataCodec } from '../src/profile/codec.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { failures, renderVerificationHuman } from '../src/views/render-verify.js';
import { PLAIN } from '../src/views/colors.js';
import { cli } from './helpers/cli.js';
import { openSandbox, seed } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TABLE = '5b000000-0000-4000-8000-000000000001';
const CONTRACT = '5b000000-0000-4000-8000-000000000050';
const FQN = 'db.s.t.dataContract_t';
const COLUMNS = [{ name: 'id', dataType: 'BIGINT' }];
const EDIT = ['ViewDataContract', 'EditDataContract', 'SearchEntities'];

/** A request sent straight to the sandbox, as another client (a runner, the UI) sends it. */
async function call(
  url: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${url}/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** `client` whose first read of a run lets `meanwhile` (another writer) act first. */
function readAfter(
  client: CatalogClient,
  meanwhile: (id: string, resultId: string) => Promise<unknown>,
): CatalogClient {
  let done = false;
  return Object.assign(Object.create(client) as CatalogClient, {
    contractRun: async (id: string, resultId: string) => {
      if (!done) {
        done = true;
        await meanwhile(id, resultId);
      }
      return client.contractRun(id, resultId);
    },
  });
}

const NO_WAIT = { profile: 'openmetadata' as const, pollMs: 1, sleep: () => Promise.resolve() };

async function catalog() {
  const opened = await openSandbox({
    profile: 'openmetadata',
    seed: seed({
      users: [
        { name: 'alice', permissions: EDIT },
        { name: 'ui', permissions: EDIT },
        { name: 'viewer', permissions: ['ViewDataContract', 'SearchEntities'] },
      ],
      assets: [
        {
          id: TABLE,
          entityType: 'table',
          name: 't',
          fullyQualifiedName: 'db.s.t',
          columns: COLUMNS,
        },
      ],
      dataProducts: [],
      dataContracts: [
        {
          id: CONTRACT,
          name: 't',
          fullyQualifiedName: FQN,
          entity: { id: TABLE, type: 'table', name: 't', fullyQualifiedName: 'db.s.t' },
          schema: COLUMNS,
          // A quality test: the run stays Running until its suite is in, so it is polled.
          qualityExpectations: [
            {
              id: idFor('testCase', 'db.s.t.id.not_null'),
              type: 'testCase',
              fullyQualifiedName: 'db.s.t.id.not_null',
            },
          ],
          version: 0.1,
        },
      ],
      testCases: [{ fullyQualifiedName: 'db.s.t.id.not_null', testCaseStatus: 'Success' }],
    }),
  });
  cleanups.push(() => opened.sandbox.close());
  return opened;
}

describe('verify reads its own run', () => {
  it('a run another writer starts while ours runs: superseded, not verified, never its verdict', async () => {
    const { sandbox, token } = await catalog();
    const ours = new CatalogClient({ baseUrl: sandbox.url, token: await token('alice') });
    const theirs = new CatalogClient({ baseUrl: sandbox.url, token: await token('ui') });
    cleanups.push(
      () => ours.close(),
      () => theirs.close(),
    );
    let started = false;
    const runner = Object.assign(Object.create(ours) as CatalogClient, {
      contractRun: async (id: string, resultId: string) => {
        if (!started) {
          started = true;
          // The UI runs the contract too: ours is aborted, theirs is the latest.
          await theirs.runContract(id);
        }
        return ours.contractRun(id, resultId);
      },
    });
    const report = await verifyContracts(
      [{ file: 'contracts/t.yaml', fullyQualifiedName: FQN, id: CONTRACT }],
      runner,
      { profile: 'openmetadata', pollMs: 1, sleep: () => Promise.resolve() },
    );
    const [result] = report.results;
    expect(result).toMatchObject({
      status: 'superseded',
      message: expect.stringMatching(/^superseded by another run \(result [0-9a-f-]+\) /),
    });
    expect(result!.run).toBeUndefined();
    expect(failedVerification(result!)).toBe(true);
  });

  it('asked for an older result, the catalog answers its latest, as OpenMetadata does', async () => {
    const { sandbox, token } = await catalog();
    const client = new CatalogClient({ baseUrl: sandbox.url, token: await token('alice') });
    cleanups.push(() => client.close());
    const first = await client.runContract(CONTRACT);
    const second = await client.runContract(CONTRACT);
    const read = await client.contractRun(CONTRACT, first.id!);
    expect(read.id).toBe(second.id);
    expect(sandbox.store.contracts.get(CONTRACT)!.latestResult).toMatchObject({
      resultId: second.id,
    });
  });

  it('a token without EditAll: the message names it', async () => {
    const { sandbox, token } = await catalog();
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await mkdir(path.join(dir.dir, 'contracts'));
    await writeFile(
      path.join(dir.dir, 'contracts', 't.yaml'),
      stringify({
        name: 't',
        fullyQualifiedName: FQN,
        entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
        schema: COLUMNS,
      }),
    );
    const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await token('viewer') };
    const run = await cli(['verify', '--no-color'], { cwd: dir.dir, env });
    expect(run.code).toBe(1);
    expect(run.out + run.err).toContain('running a contract needs EditAll on it');
  });

  it('a run moves a contract at 0.1 to 0.2; apply after it converges', async () => {
    const { sandbox, token } = await catalog();
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await mkdir(path.join(dir.dir, 'contracts'));
    const file = (description: string) =>
      writeFile(
        path.join(dir.dir, 'contracts', 't.yaml'),
        stringify({
          name: 't',
          fullyQualifiedName: FQN,
          entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
          description,
          schema: COLUMNS,
          qualityExpectations: [{ fullyQualifiedName: 'db.s.t.id.not_null' }],
        }),
      );
    await file('Before.');
    const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await token('alice') };
    const saved = await cli(['plan', '--out', 'plan.json'], { cwd: dir.dir, env });
    expect(saved.code, saved.err).toBe(0);
    const verified = await cli(['verify'], { cwd: dir.dir, env });
    expect(verified.code, verified.out + verified.err).toBe(0);
    expect(sandbox.store.contracts.get(CONTRACT)!.version).toBe(0.2);
    const applied = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(applied.code, applied.out + applied.err).toBe(0);
    const again = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(again.code, again.out).toBe(0);
  });
});

describe('an SLA part in a run', () => {
  it('is said: which of refresh, latency and availability were not met', () => {
    expect(
      failures({
        contractExecutionStatus: 'Failed',
        slaValidation: { refreshFrequencyMet: false, latencyMet: false, actualLatency: 5400000 },
      }),
    ).toEqual([
      'SLA: the refresh frequency was not met',
      'SLA: the latency was not met (actual 5400000 ms)',
    ]);
  });
});

describe('runs as OpenMetadata keeps them', () => {
  it('a new run aborts a running one, saying why; the list shows both, newest first', async () => {
    const { sandbox, token } = await catalog();
    const alice = await token('alice');
    const first = await call(sandbox.url, alice, 'POST', `/dataContracts/${CONTRACT}/validate`);
    expect(first.body).toMatchObject({ contractExecutionStatus: 'Running' });
    const second = await call(sandbox.url, alice, 'POST', `/dataContracts/${CONTRACT}/validate`);
    const listed = await call(sandbox.url, alice, 'GET', `/dataContracts/${CONTRACT}/results`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: second.body.id, contractExecutionStatus: 'Running' }),
      expect.objectContaining({
        id: first.body.id,
        contractExecutionStatus: 'Aborted',
        result: 'Aborted due to new validation request',
      }),
    ]);
  });

  it('a run on a contract at 0.1 makes 0.2, its updatedAt and updatedBy as they were', async () => {
    const { sandbox, token } = await catalog();
    const before = { ...sandbox.store.contracts.get(CONTRACT)! };
    const run = await call(
      sandbox.url,
      await token('alice'),
      'POST',
      `/dataContracts/${CONTRACT}/validate`,
    );
    const after = sandbox.store.contracts.get(CONTRACT)!;
    expect(after).toMatchObject({
      version: 0.2,
      updatedAt: before.updatedAt,
      updatedBy: before.updatedBy,
      changeDescription: {
        fieldsAdded: [
          { name: 'latestResult', newValue: expect.objectContaining({ resultId: run.body.id }) },
        ],
        fieldsUpdated: [],
        fieldsDeleted: [],
        previousVersion: 0.1,
      },
    });
    // Past 0.1 a run is folded into the version: no new one.
    await call(sandbox.url, await token('ui'), 'POST', `/dataContracts/${CONTRACT}/validate`);
    expect(sandbox.store.contracts.get(CONTRACT)!.version).toBe(0.2);
  });

  it("a runner's result is stored as sent: under its id, aborting nothing; its fields required", async () => {
    const { sandbox, token } = await catalog();
    const alice = await token('alice');
    const route = `/dataContracts/${CONTRACT}/results`;
    const missing = await call(sandbox.url, alice, 'PUT', route, {
      contractExecutionStatus: 'Success',
    });
    expect(missing).toMatchObject({
      status: 400,
      body: {
        message:
          '[query param dataContractFQN must not be null, query param timestamp must not be null]',
      },
    });
    const run = await call(sandbox.url, alice, 'POST', `/dataContracts/${CONTRACT}/validate`);
    const stored = await call(sandbox.url, alice, 'PUT', route, {
      dataContractFQN: FQN,
      timestamp: (run.body.timestamp as number) + 1,
      contractExecutionStatus: 'Success',
    });
    expect(stored.status).toBe(200);
    expect(stored.body.id).not.toBe(run.body.id);
    const listed = await call(sandbox.url, alice, 'GET', `${route}?limit=0`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: stored.body.id, contractExecutionStatus: 'Success' }),
      expect.objectContaining({ id: run.body.id, contractExecutionStatus: 'Running' }),
    ]);
  });
});

describe('verify, when the run is not left alone', () => {
  it('ours completed by a runner with an SLA part: the SLA failure and its reason are said', async () => {
    const { sandbox, token } = await catalog();
    const alice = await token('alice');
    const client = new CatalogClient({ baseUrl: sandbox.url, token: alice });
    cleanups.push(() => client.close());
    const runner = readAfter(client, (id, resultId) =>
      call(sandbox.url, alice, 'PUT', `/dataContracts/${id}/results`, {
        id: resultId,
        dataContractFQN: FQN,
        timestamp: Date.now(),
        contractExecutionStatus: 'Failed',
        schemaValidation: { passed: 1, failed: 0, total: 1 },
        slaValidation: { refreshFrequencyMet: true, latencyMet: false, actualLatency: 7200000 },
      }),
    );
    const report = await verifyContracts(
      [{ file: 'contracts/t.yaml', fullyQualifiedName: FQN, id: CONTRACT }],
      runner,
      NO_WAIT,
    );
    expect(report.results[0]).toMatchObject({ status: 'Failed' });
    expect(failedVerification(report.results[0]!)).toBe(true);
    const text = renderVerificationHuman(report, PLAIN);
    expect(text).toContain('SLA: the latency was not met (actual 7200000 ms)');
    expect(text).not.toContain('refresh frequency');
  });

  it('ours read back aborted for a new validation request: superseded, never that verdict', async () => {
    const { sandbox, token } = await catalog();
    const alice = await token('alice');
    const client = new CatalogClient({ baseUrl: sandbox.url, token: alice });
    cleanups.push(() => client.close());
    // What the catalog keeps when the new run that aborted ours is not stored after it.
    const runner = readAfter(client, (id, resultId) =>
      call(sandbox.url, alice, 'PUT', `/dataContracts/${id}/results`, {
        id: resultId,
        dataContractFQN: FQN,
        timestamp: Date.now(),
        contractExecutionStatus: 'Aborted',
        result: 'Aborted due to new validation request',
      }),
    );
    const report = await verifyContracts(
      [{ file: 'contracts/t.yaml', fullyQualifiedName: FQN, id: CONTRACT }],
      runner,
      NO_WAIT,
    );
    expect(report.results[0]).toMatchObject({
      status: 'superseded',
      message: expect.stringMatching(/^superseded by another run: the catalog aborted this run/),
    });
    expect(failedVerification(report.results[0]!)).toBe(true);
  });

  it('a run moving the contract from 0.1 to 0.2 between plan and PATCH: sent once more, guarded by the fresh read', async () => {
    const { sandbox, token } = await catalog();
    const client = new CatalogClient({ baseUrl: sandbox.url, token: await token('alice') });
    const ui = new CatalogClient({ baseUrl: sandbox.url, token: await token('ui') });
    cleanups.push(
      () => client.close(),
      () => ui.close(),
    );
    const parsed = parseContract(
      stringify({
        name: 't',
        fullyQualifiedName: FQN,
        entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
        description: 'Mine.',
        schema: COLUMNS,
        qualityExpectations: [{ fullyQualifiedName: 'db.s.t.id.not_null' }],
      }),
      'contracts/t.yaml',
    );
    if (!parsed.ok) throw new Error('bad test contract');
    const { changes, liveForUpdates, desired } = await readAndPlanEach([parsed.value], client, {
      checkAssets: false,
      keepLive: true,
      codec: openMetadataCodec,
    });
    const plan = assemblePlan(changes, {
      catalogUrl: sandbox.url,
      catalogProfile: 'openmetadata',
      gitCommit: null,
      createdAt: '',
    });
    const sent: Operation[][] = [];
    let ran = false;
    const racing = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string, ops: Operation[], options?: { ifMatch?: string }) => {
        if (!ran) {
          ran = true;
          // The UI runs the contract after apply read it, before its PATCH.
          await ui.runContract(id);
        }
        sent.push(ops);
        return client.patchContract(id, ops, options);
      },
    });
    const report = await applyPlan(plan, racing, {
      liveContracts: liveForUpdates,
      desired,
      codec: openMetadataCodec,
    });
    expect(report.results[0]).toMatchObject({ status: 'applied', replannedAt: null });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContainEqual({ op: 'test', path: '/version', value: 0.1 });
    expect(sent[1]).toContainEqual({ op: 'test', path: '/version', value: 0.2 });
    expect(sandbox.store.contracts.get(CONTRACT)).toMatchObject({ description: 'Mine.' });
  });
});
