// Convergence under faults: seeded, randomized plan/apply runs against a sandbox that drops,
// resets, delays and fails requests. Whatever happens, a contract reported applied is applied, a
// later apply finishes the job, the final state equals the files, and no list item is doubled.
// SOAK_RUNS (default 200) and SOAK_SEED set the number of runs and the first seed; a failing run
// prints its seed so it can be replayed.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyReport } from '../src/apply/apply-plan.js';
import { CatalogClient } from '../src/catalog/client.js';
import { ARRAY_KEYS, type DesiredContract } from '../src/model/contract.js';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { diffContract } from '../src/diff/diff-contract.js';
import { applyToCopy } from '../src/diff/verify.js';
import { itemKey } from '../src/diff/keyed-array.js';
import { NetworkError, CatalogError, StalePlanError } from '../src/model/errors.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import {
  type FaultSpec,
  mintToken,
  type Sandbox,
  seededRandom,
  startSandbox,
} from '@contracts-gitops/sandbox';
import { arbitraryContract } from './helpers/arbitraries.js';
import { catalogFromPairs } from './helpers/generated-catalog.js';
import { networkFaults } from './helpers/network-faults.js';
import { seed as checkedSeed } from './helpers/sandbox.js';

const RUNS = Number(process.env.SOAK_RUNS ?? 200);
/** Runs of concurrent appliers (SOAK_CONCURRENT_RUNS, default 100). */
const CONCURRENT_RUNS = Number(process.env.SOAK_CONCURRENT_RUNS ?? 100);
const FIRST_SEED = Number(process.env.SOAK_SEED ?? 20261121);
const SECRET = 'convergence-secret';
const CONTRACTS = 4;

interface Scenario {
  files: ContractFile[];
  seed: ReturnType<typeof checkedSeed>;
  faults: FaultSpec;
  concurrency: number;
}

function scenario(seed: number): Scenario {
  const next = seededRandom(seed);
  const pairs = fc.sample(fc.tuple(arbitraryContract(), arbitraryContract()), {
    seed,
    numRuns: CONTRACTS,
  });
  const { assets, contracts, desired } = catalogFromPairs(pairs, 'db.s');
  const files = desired.map((contract, i): ContractFile => {
    const parsed = parseContract(stringify(contract), `contracts/c${i}.yaml`);
    if (!parsed.ok)
      throw new Error(`generated contract is invalid: ${parsed.problems[0]!.message}`);
    return parsed.value;
  });
  const faults = networkFaults(
    seed,
    next,
    [0, Math.floor(next() * 3)],
    [[{ method: 'GET', kind: 'status', status: 504 }, 0.1]],
  );
  return {
    files,
    seed: checkedSeed({
      users: [
        { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      ],
      assets,
      dataProducts: [],
      dataContracts: contracts,
    }),
    faults,
    concurrency: 1 + Math.floor(next() * 4),
  };
}

function client(sandbox: Sandbox, token: string): CatalogClient {
  return new CatalogClient({
    baseUrl: sandbox.url,
    token,
    retries: 3,
    retryBaseMs: 1,
    retryMaxMs: 5,
  });
}

/** Plans and applies once; returns the report, or null when the run could not get that far. */
async function attempt(
  sandbox: Sandbox,
  token: string,
  files: ContractFile[],
  concurrency: number,
): Promise<ApplyReport | null> {
  const catalog = client(sandbox, token);
  try {
    const { changes, liveForUpdates } = await readAndPlanEach(files, catalog, {
      checkAssets: false,
      keepLive: true,
    });
    const plan = assemblePlan(changes, {
      catalogUrl: sandbox.url,
      catalogProfile: 'spec',
      gitCommit: null,
      createdAt: new Date().toISOString(),
    });
    if (plan.summary.error + plan.summary.missing > 0) return null;
    return await applyPlan(plan, catalog, {
      liveContracts: liveForUpdates,
      concurrency,
      recoveryAttempts: 2,
    });
  } catch (error) {
    if (
      error instanceof NetworkError ||
      error instanceof CatalogError ||
      error instanceof StalePlanError
    )
      return null;
    throw error;
  } finally {
    await catalog.close();
  }
}

function expectNoDoubledItems(sandbox: Sandbox): void {
  for (const contract of sandbox.store.contracts.values()) {
    for (const [field, keys] of Object.entries(ARRAY_KEYS)) {
      const items = contract[field];
      if (!Array.isArray(items)) continue;
      const seen = items.map((item) => itemKey(item, keys));
      expect(new Set(seen).size, `${contract.fullyQualifiedName}.${field} repeats an item`).toBe(
        seen.length,
      );
    }
  }
}

/** Runs one scenario; returns how many faults the sandbox injected. */
async function oneRun(seed: number): Promise<number> {
  const s = scenario(seed);
  const sandbox = await startSandbox({ seed: s.seed, secret: SECRET, faults: s.faults });
  const token = await mintToken('alice', SECRET);
  let injected = 0;
  try {
    let done = false;
    for (let i = 0; i < 6 && !done; i++) {
      const report = await attempt(sandbox, token, s.files, s.concurrency);
      if (report === null) continue;
      // Every contract in exactly one bucket; every contract reported applied really is.
      expect(report.results).toHaveLength(s.files.length);
      for (const [index, result] of report.results.entries()) {
        expect(['applied', 'failed', 'not-attempted', 'unchanged']).toContain(result.status);
        if (result.status === 'applied' || result.status === 'unchanged') {
          const live = sandbox.store.contractByFqn(s.files[index]!.contract.fullyQualifiedName)!;
          expect(
            diffContract(live, s.files[index]!.contract),
            `${result.fullyQualifiedName} reported ${result.status}`,
          ).toEqual([]);
        }
      }
      expectNoDoubledItems(sandbox);
      done =
        report.stoppedBy === null &&
        report.results.every((r) => r.status === 'applied' || r.status === 'unchanged');
    }
    // Without faults, one more apply finishes whatever is left, and then nothing is left.
    const counts = sandbox.faults!.injected;
    injected = counts.status + counts.reset + counts['commit-drop'];
    sandbox.setFaults(null);
    const finish = await attempt(sandbox, token, s.files, s.concurrency);
    expect(finish).not.toBeNull();
    expect(finish!.results.every((r) => r.status === 'applied' || r.status === 'unchanged')).toBe(
      true,
    );
    const last = await attempt(sandbox, token, s.files, s.concurrency);
    expect(last!.results.every((r) => r.status === 'unchanged')).toBe(true);
    expectNoDoubledItems(sandbox);
  } finally {
    await sandbox.close();
  }
  return injected;
}

describe('convergence under faults', () => {
  it(`${RUNS} seeded plan/apply runs from seed ${FIRST_SEED} converge`, async () => {
    let faults = 0;
    for (let run = 0; run < RUNS; run++) {
      const seed = FIRST_SEED + run;
      try {
        faults += await oneRun(seed);
      } catch (error) {
        throw new Error(
          `run with seed ${seed} failed (replay: SOAK_SEED=${seed} SOAK_RUNS=1): ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    // The runs must really have been faulty, or they prove nothing.
    expect(faults).toBeGreaterThan(RUNS);
  }, 600_000);
});

/**
 * Three appliers at once on one contract: the same saved plan twice and a different plan. The
 * contract must end exactly as one plan's patch leaves it, with exactly one applier reporting it
 * applied; the others fail as stale or as changed since their plan, and nothing is doubled.
 */
async function concurrentRun(seed: number): Promise<{ conflicts: number }> {
  const [live, first, second] = fc.sample(arbitraryContract(), { seed, numRuns: 3 }) as [
    DesiredContract,
    DesiredContract,
    DesiredContract,
  ];
  const { assets, contracts, desired } = catalogFromPairs([[live, first]], 'db.s');
  // The table has the columns of the second plan too, so neither plan is refused for its schema.
  const asset = assets[0] as { columns: { name: string; dataType: string }[] };
  const names = new Set(asset.columns.map((c) => c.name));
  for (const column of (second.schema as { name: string }[] | null | undefined) ?? [])
    if (!names.has(column.name)) asset.columns.push({ name: column.name, dataType: 'VARCHAR' });
  const other: DesiredContract = {
    ...second,
    name: desired[0]!.name,
    fullyQualifiedName: desired[0]!.fullyQualifiedName,
    entity: desired[0]!.entity,
  };
  const sandbox = await startSandbox({
    seed: checkedSeed({
      users: [
        { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      ],
      assets,
      dataProducts: [],
      dataContracts: contracts,
    }),
    secret: SECRET,
    faults: { seed, latencyMs: [0, 3], rules: [] },
  });
  const token = await mintToken('alice', SECRET);
  const clients = [0, 1, 2].map(() => client(sandbox, token));
  try {
    const fqn = desired[0]!.fullyQualifiedName;
    const start = structuredClone(sandbox.store.contractByFqn(fqn)!);
    const planFor = async (contract: DesiredContract) => {
      const parsed = parseContract(stringify(contract), 'contracts/c.yaml');
      if (!parsed.ok)
        throw new Error(`generated contract is invalid: ${parsed.problems[0]!.message}`);
      const { changes } = await readAndPlanEach([parsed.value], clients[0]!, {
        checkAssets: false,
      });
      return assemblePlan(changes, {
        catalogUrl: sandbox.url,
        catalogProfile: 'spec',
        gitCommit: null,
        createdAt: '',
      });
    };
    const plans = [await planFor(desired[0]!), await planFor(other)];
    const runs = [plans[0]!, plans[0]!, plans[1]!];
    const outcomes = await Promise.all(
      runs.map((plan, i) =>
        plan.summary.update === 0
          ? Promise.resolve('noop' as const)
          : applyPlan(plan, clients[i]!).then(
              (report) => report.results[0]!,
              (error: unknown) => {
                if (error instanceof StalePlanError) return 'stale' as const;
                throw error;
              },
            ),
      ),
    );
    const end = sandbox.store.contractByFqn(fqn)!;
    const applied = outcomes.flatMap((outcome, i) =>
      typeof outcome === 'object' && outcome.status === 'applied' ? [i] : [],
    );
    const changing = runs.filter((plan) => plan.summary.update > 0).length;
    if (changing > 0) expect(applied, JSON.stringify(outcomes)).toHaveLength(1);
    for (const outcome of outcomes) {
      if (typeof outcome === 'object' && outcome.status === 'failed')
        expect(outcome.errorType, outcome.message).toBe('CONFLICT');
    }
    // Exactly one plan's patch, applied to the contract as it started, and nothing else.
    const expected =
      applied.length === 0 ? start : applyToCopy(start, runs[applied[0]!]!.changes[0]!.patch);
    const { version: _v, updatedAt: _u, updatedBy: _b, changeDescription: _c, ...state } = end;
    const {
      version: _v2,
      updatedAt: _u2,
      updatedBy: _b2,
      changeDescription: _c2,
      ...wanted
    } = expected as typeof end;
    // As JSON, which is what travels: -0 in a patch arrives as 0.
    expect(JSON.parse(JSON.stringify(state))).toEqual(JSON.parse(JSON.stringify(wanted)));
    expectNoDoubledItems(sandbox);
    return {
      conflicts: outcomes.filter((o) => typeof o === 'object' && o.status === 'failed').length,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox.close();
  }
}

describe('concurrent appliers', () => {
  it(`${CONCURRENT_RUNS} runs of three appliers on one contract lose and corrupt nothing`, async () => {
    let conflicts = 0;
    for (let run = 0; run < CONCURRENT_RUNS; run++) {
      const seed = FIRST_SEED + run;
      try {
        conflicts += (await concurrentRun(seed)).conflicts;
      } catch (error) {
        throw new Error(
          `concurrent run with seed ${seed} failed (replay: SOAK_SEED=${seed} SOAK_CONCURRENT_RUNS=1): ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    // The guards must really have been tried, or the runs prove nothing.
    expect(conflicts).toBeGreaterThan(CONCURRENT_RUNS / 2);
  }, 600_000);
});
