// Stop means stop under concurrency, and the sandbox's --data file survives SIGKILL during a
// storm of PATCHes with every acknowledged change in it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../src/apply/apply-plan.js';
import { CatalogClient } from '../src/catalog/client.js';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { mintToken } from '@contracts-gitops/sandbox';
import { openSandbox, SECRET, seed } from './helpers/sandbox.js';
import { spawnSandboxProcess } from './helpers/sandbox-process.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const COUNT = 24;
const DENIED = 9;
const fqnOf = (i: number): string => `db.s.t${i}.dataContract_c${i}`;

function storm() {
  return seed({
    users: [
      {
        name: 'alice',
        permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
        denyEdit: [fqnOf(DENIED)],
      },
    ],
    assets: Array.from({ length: COUNT }, (_, i) => ({
      id: `9a000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      entityType: 'table',
      name: `t${i}`,
      fullyQualifiedName: `db.s.t${i}`,
    })),
    dataProducts: [],
    dataContracts: Array.from({ length: COUNT }, (_, i) => ({
      id: `9c000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `c${i}`,
      fullyQualifiedName: fqnOf(i),
      entity: {
        id: `9a000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        type: 'table',
        fullyQualifiedName: `db.s.t${i}`,
      },
      description: 'old',
      semantics: [{ name: 'hasOwner' }],
    })),
  });
}

function files(): ContractFile[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const parsed = parseContract(
      stringify({
        name: `c${i}`,
        fullyQualifiedName: fqnOf(i),
        entity: { type: 'table', fullyQualifiedName: `db.s.t${i}` },
        description: `new ${i}`,
        semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
      }),
      `contracts/c${String(i).padStart(2, '0')}.yaml`,
    );
    if (!parsed.ok) throw new Error('bad test contract');
    return parsed.value;
  });
}

describe('stop means stop under concurrency', () => {
  it('with 8 PATCHes in flight and a 403 on one contract, no PATCH starts after the 403', async () => {
    for (let round = 0; round < 5; round++) {
      const opened = await openSandbox({
        seed: storm(),
        faults: { seed: 100 + round, latencyMs: [2, 12], rules: [] },
      });
      cleanups.push(() => opened.sandbox.close());
      const client = new CatalogClient({
        baseUrl: opened.sandbox.url,
        token: await opened.token('alice'),
        concurrency: 8,
      });
      cleanups.push(() => client.close());
      const { changes, liveForUpdates } = await readAndPlanEach(files(), client, {
        checkAssets: false,
        keepLive: true,
      });
      const plan = assemblePlan(changes, {
        catalogUrl: opened.sandbox.url,
        catalogProfile: 'spec',
        gitCommit: null,
        createdAt: new Date().toISOString(),
      });
      let stopReceivedAt = Infinity;
      // Record when apply starts each PATCH, on the client, where "after the 403 was received" is observable.
      const patchStarts: number[] = [];
      const recording = Object.assign(Object.create(client) as CatalogClient, {
        patchContract: (id: string, ops: Parameters<CatalogClient['patchContract']>[1]) => {
          patchStarts.push(performance.now());
          return client.patchContract(id, ops);
        },
      });
      const report = await applyPlan(plan, recording, {
        liveContracts: liveForUpdates,
        concurrency: 8,
        onResult: (result) => {
          // The same monotonic clock as the in-process sandbox's request log.
          if (result.status === 'failed')
            stopReceivedAt = Math.min(stopReceivedAt, performance.now());
        },
      });

      expect(report.stoppedBy).toMatchObject({
        fullyQualifiedName: fqnOf(DENIED),
        httpStatus: 403,
        errorType: 'FORBIDDEN',
      });
      // Every contract in exactly one bucket.
      expect(report.results).toHaveLength(COUNT);
      const byStatus = (status: string) =>
        report.results.filter((r) => r.status === status).map((r) => r.fullyQualifiedName);
      expect(
        [...byStatus('applied'), ...byStatus('failed'), ...byStatus('not-attempted')].sort(),
      ).toEqual(Array.from({ length: COUNT }, (_, i) => fqnOf(i)).sort());
      expect(byStatus('failed')).toEqual([fqnOf(DENIED)]);
      expect(byStatus('not-attempted').length).toBeGreaterThan(0);

      const patches = opened.sandbox.requests().filter((r) => r.method === 'PATCH');
      const forbidden = patches.find((r) => r.status === 403)!;
      expect(stopReceivedAt).toBeGreaterThanOrEqual(forbidden.finishedAt);
      // No PATCH started after apply had the 403; the server received exactly the PATCHes apply
      // started, and applied exactly those apply reports as applied.
      expect(patchStarts.filter((t) => t > stopReceivedAt)).toEqual([]);
      expect(patches).toHaveLength(patchStarts.length);
      expect(patches.filter((r) => r.status === 200)).toHaveLength(byStatus('applied').length);
      for (const fqn of byStatus('not-attempted'))
        expect(opened.sandbox.store.contractByFqn(fqn)!.description).toBe('old');
      for (const fqn of byStatus('applied'))
        expect(opened.sandbox.store.contractByFqn(fqn)!.description).not.toBe('old');
    }
  });
});

describe('durability of --data', () => {
  it('keeps every acknowledged change after SIGKILL during a storm of PATCHes', async () => {
    const dir = await tempDir({ 'seed.json': JSON.stringify(storm()) });
    cleanups.push(() => dir.remove());
    const dataFile = path.join(dir.dir, 'state.json');
    const serve = () =>
      spawnSandboxProcess(['--seed', 'seed.json', '--data', dataFile, '--secret', SECRET], {
        cwd: dir.dir,
      });
    const token = await mintToken('alice', SECRET);
    const first = serve();
    const url = await first.url;
    const acknowledged: { id: string; rule: string }[] = [];
    let sent = 0;
    const exited = new Promise<void>((resolve) => first.child.once('exit', () => resolve()));
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let k = 0; ; k++) {
        const i = (w * 3 + k) % COUNT;
        if (i === DENIED) continue;
        const id = `9c000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        const rule = `rule_${w}_${k}`;
        sent += 1;
        if (sent === 120) first.child.kill('SIGKILL');
        try {
          const response = await fetch(`${url}/v1/dataContracts/${id}`, {
            method: 'PATCH',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json-patch+json',
            },
            body: JSON.stringify([{ op: 'add', path: '/semantics/-', value: { name: rule } }]),
          });
          if (response.status === 200) acknowledged.push({ id, rule });
          await response.text();
        } catch {
          return; // the server is gone
        }
      }
    });
    await Promise.all(workers);
    await exited;
    expect(acknowledged.length).toBeGreaterThan(20);
    // The file is whole JSON after the kill, and a restart serves every acknowledged change.
    expect(() => JSON.parse(readFileSync(dataFile, 'utf8'))).not.toThrow();
    const second = serve();
    const again = await second.url;
    cleanups.push(async () => {
      await second.stop();
    });
    for (const { id, rule } of acknowledged) {
      const contract = (await (
        await fetch(`${again}/v1/dataContracts/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { semantics: { name: string }[] };
      expect(contract.semantics.map((r) => r.name)).toContain(rule);
    }
  });
});
