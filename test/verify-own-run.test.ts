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
import { failures } from '../src/views/render-verify.js';
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
