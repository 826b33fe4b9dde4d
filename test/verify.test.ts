// Proof after apply that a contract holds on its data, over HTTP against the sandbox:
// `apply --verify` stores a contract and runs it on its asset in the catalog; a semantics rule the
// asset breaks is reported failed (exit 1: stored, but it does not hold), a passing one exit 0 with
// its result; a result still running (quality tests) is read again until it is done; `contracts
// verify` does the same without applying; the spec profile says once it cannot, and fails nothing.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { sandboxWithFolder, seed } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const id = (n: number) => `5a000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const COLUMNS = [
  { name: 'id', dataType: 'BIGINT' },
  { name: 'amount', dataType: 'DECIMAL' },
];
/** A rule OpenMetadata's RuleEngine runs on the asset: it has an owner. */
const HAS_OWNER = {
  name: 'hasOwner',
  description: 'The table has an owner.',
  rule: '{">": [{"length": {"var": "owners"}}, 0]}',
  enabled: true,
};

function verifySeed() {
  return seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
    ],
    teams: [{ name: 'sales-data' }],
    assets: [
      {
        id: id(1),
        entityType: 'table',
        name: 'owned',
        fullyQualifiedName: 'db.s.owned',
        columns: COLUMNS,
        owners: [{ type: 'team', name: 'sales-data' }],
      },
      {
        id: id(2),
        entityType: 'table',
        name: 'orphan',
        fullyQualifiedName: 'db.s.orphan',
        columns: COLUMNS,
      },
    ],
    dataProducts: [],
    dataContracts: ['owned', 'orphan'].map((name, i) => ({
      id: id(50 + i),
      name,
      fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
      entity: { id: id(i + 1), type: 'table', name, fullyQualifiedName: `db.s.${name}` },
      schema: COLUMNS,
      version: 0.1,
    })),
    testCases: [
      { fullyQualifiedName: 'db.s.owned.id.not_null', testCaseStatus: 'Success' },
      { fullyQualifiedName: 'db.s.owned.amount.positive', testCaseStatus: 'Success' },
    ],
  });
}

async function folder(profile: 'spec' | 'openmetadata', files: Record<string, unknown>) {
  const opened = await sandboxWithFolder(cleanups, { profile, seed: verifySeed() });
  await mkdir(path.join(opened.cwd, 'contracts'));
  for (const [name, contract] of Object.entries(files))
    await writeFile(path.join(opened.cwd, 'contracts', `${name}.yaml`), stringify(contract));
  return { ...opened, run: (...args: string[]) => cli(args, { cwd: opened.cwd, env: opened.env }) };
}

const withRule = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
  entity: { type: 'table', fullyQualifiedName: `db.s.${name}` },
  schema: COLUMNS,
  semantics: [HAS_OWNER],
  ...extra,
});

describe('apply --verify', () => {
  it('a semantics rule the asset breaks: stored, reported failed, exit 1', async () => {
    const { run, sandbox } = await folder('openmetadata', { orphan: withRule('orphan') });
    const applied = await run('apply', '--auto-approve', '--verify');
    expect(applied.code).toBe(1);
    expect(applied.out).toContain('Apply complete: 1 changed, 0 unchanged.');
    expect(applied.out).toContain(
      '✗ db.s.orphan.dataContract_orphan  Failed (schema 2/2, semantics 0/1): Semantics validation failed',
    );
    expect(applied.out).toContain(
      'semantics: rule hasOwner does not hold: The table has an owner.',
    );
    expect(applied.out).toContain(
      'Verification failed for 1 of 1 contract: it is stored in the catalog, but does not hold on the data.',
    );
    // Stored all the same, with its latest result.
    const stored = sandbox.store.contractByFqn('db.s.orphan.dataContract_orphan')!;
    expect((stored.semantics as unknown[]).length).toBe(1);
    expect(stored.latestResult).toMatchObject({ status: 'Failed' });
    const json = JSON.parse((await run('verify', '--json')).out);
    expect(json.results[0]).toMatchObject({
      status: 'Failed',
      run: { semanticsValidation: { failed: 1 } },
    });
  });

  it('a passing one: exit 0, with its result; a result still running is read again until done', async () => {
    const { run, sandbox } = await folder('openmetadata', {
      owned: withRule('owned', {
        qualityExpectations: [
          { fullyQualifiedName: 'db.s.owned.id.not_null' },
          { fullyQualifiedName: 'db.s.owned.amount.positive' },
        ],
      }),
    });
    const applied = await run('apply', '--auto-approve', '--verify');
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain(
      '✓ db.s.owned.dataContract_owned  holds on its data (schema 2/2, semantics 1/1, quality 2/2)',
    );
    expect(applied.out).toContain('Verified: the contract holds on its data.');
    const reads = sandbox
      .requests()
      .filter((r) => r.path.includes('/results/'))
      .map((r) => r.status);
    // Running at first, then done.
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });
});

describe('contracts verify', () => {
  it('runs the files’ live contracts without applying; one the catalog lacks is an error', async () => {
    const { run, sandbox } = await folder('openmetadata', {
      owned: withRule('owned'),
      missing: {
        ...withRule('orphan'),
        fullyQualifiedName: 'db.s.orphan.dataContract_other',
        name: 'other',
      },
    });
    const verified = await run('verify');
    expect(verified.code).toBe(1);
    expect(verified.out).toContain(
      '✓ db.s.owned.dataContract_owned  holds on its data (schema 2/2)',
    );
    expect(verified.out).toContain(
      '✗ db.s.orphan.dataContract_other  error: the catalog has no such contract to run',
    );
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('spec profile: says once that contracts cannot be run, and nothing fails', async () => {
    const { run, sandbox } = await folder('spec', {
      owned: { ...withRule('owned'), semantics: [{ name: 'hasOwner' }] },
    });
    const applied = await run('apply', '--auto-approve', '--verify');
    expect(applied.code, applied.err).toBe(0);
    const said = 'Not verified: this catalog (spec profile) cannot run contracts on their data';
    expect(applied.out.split(said)).toHaveLength(2);
    const verified = await run('verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toContain(said);
    expect(sandbox.requests().some((r) => r.path.includes('/validate'))).toBe(false);
  });
});

describe('an interrupt while apply --verify waits for the runs', () => {
  it('stops waiting: the apply is reported as it ended, exit 130', async () => {
    const { cwd, env, sandbox } = await folder('openmetadata', {
      owned: withRule('owned', {
        qualityExpectations: [{ fullyQualifiedName: 'db.s.owned.id.not_null' }],
      }),
    });
    // The run is Running when it is answered, and read again until done: each read 1 s away.
    sandbox.setFaults({ seed: 1, rules: [], latencyMs: [1000, 1000] });
    let signalled = false;
    const run = await cliProcess(['apply', '--auto-approve', '--verify'], {
      cwd,
      env,
      onStart: (child) => {
        const poll = setInterval(() => {
          if (!sandbox.requests().some((r) => r.path.endsWith('/validate'))) return;
          clearInterval(poll);
          signalled = true;
          // The run was answered Running: verify now waits on its result.
          setTimeout(() => child.kill('SIGINT'), 300);
        }, 10);
        child.once('close', () => clearInterval(poll));
      },
    });
    expect(signalled, run.out + run.err).toBe(true);
    expect(run.code, run.out + run.err).toBe(130);
    expect(run.err).toContain(
      "Interrupted: no longer waiting for the contracts' runs; what was applied stands",
    );
    expect(run.out).toContain('Apply complete: 1 changed, 0 unchanged.');
    expect(run.out).not.toContain('holds on its data');
  }, 30_000);
});
