// Convergence under the openmetadata profile: for generated pairs of contracts OpenMetadata can
// store (one live in the catalog, one in a file), plan and apply against the sandbox serving
// OpenMetadata's shapes, then plan again. The second plan must find nothing to change, and the
// stored contract must hold what the file says, in OpenMetadata's shapes; the same under faults,
// retried until done; a live contract written by import plans to nothing; and three appliers racing
// within one user's session (whose changes OpenMetadata folds into one version) lose and double
// nothing. OM_CONVERGENCE_RUNS (default 25) sets the number of runs of each property; a failure
// prints fast-check's seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../src/apply/apply-plan.js';
import { CatalogClient } from '../src/catalog/client.js';
import { CatalogError, NetworkError, StalePlanError } from '../src/model/errors.js';
import { FIELD_SHAPES } from '../src/model/contract.js';
import { noItems, project } from '../src/diff/project.js';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { openMetadataCodec } from '../src/profile/codec.js';
import { assemblePlan } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { contractFileText } from '../src/import/import-contracts.js';
import {
  type FaultSpec,
  mintToken,
  type Sandbox,
  seededRandom,
  startSandbox,
} from '@contracts-gitops/sandbox';
import { networkFaults } from './helpers/network-faults.js';
import {
  contractArb,
  fileOf,
  openMetadataWorkspace,
  pairArb,
  storableOn,
  withFqn,
  type Pair,
} from './helpers/openmetadata-workspace.js';

const RUNS = Number(process.env.OM_CONVERGENCE_RUNS ?? 25);
const SECRET = 'openmetadata-convergence-secret';

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? [...(value as { type?: string; name?: string; fullyQualifiedName?: string }[])].sort(
        (a, b) =>
          JSON.stringify([a.type, a.name ?? a.fullyQualifiedName]) <
          JSON.stringify([b.type, b.name ?? b.fullyQualifiedName])
            ? -1
            : 1,
      )
    : value;

/** Faults a real catalog across a network shows, and a create kept with its answer lost. */
function faultsFor(seedValue: number): FaultSpec {
  return networkFaults(
    seedValue,
    seededRandom(seedValue),
    [0, 2],
    [[{ method: 'POST', kind: 'commit-drop' }, 0.35]],
  );
}

/**
 * Runs `body` with a sandbox under the openmetadata profile holding `pairs`' live contracts (and
 * their tables, users, teams and test cases), a client of it, and the pairs' files.
 */
async function withCatalog(
  pairs: Pair[],
  faults: FaultSpec | undefined,
  body: (sandbox: Sandbox, catalog: CatalogClient, files: ContractFile[]) => Promise<void>,
): Promise<void> {
  const workspace = openMetadataWorkspace(pairs);
  const files = workspace.files;
  const sandbox = await startSandbox({
    profile: 'openmetadata',
    secret: SECRET,
    seed: workspace.seed,
    ...(faults === undefined ? {} : { faults }),
  });
  const catalog = new CatalogClient({
    baseUrl: sandbox.url,
    token: await mintToken('alice', SECRET),
    ...(faults === undefined ? {} : { retries: 3, retryBaseMs: 1, retryMaxMs: 5 }),
  });
  try {
    await body(sandbox, catalog, files);
  } finally {
    await catalog.close();
    await sandbox.close();
  }
}

/**
 * Plans and applies `pairs` against the sandbox under the openmetadata profile; with `faults`,
 * again and again (at most 6 times) while requests fail, then once more without faults. Then
 * the next plan finds nothing and each stored contract holds what its file says.
 */
async function converges(pairs: Pair[], faults?: FaultSpec): Promise<void> {
  await withCatalog(pairs, faults, async (sandbox, catalog, files) => {
    /** The stored contract holds each field its file sets, in the file's terms (beside what the server added). */
    const expectStored = (fqn: string) => {
      const file = files.find((f) => f.contract.fullyQualifiedName === fqn)!;
      const stored = openMetadataCodec.fromWire(sandbox.store.contractByFqn(fqn)!) as Record<
        string,
        unknown
      >;
      for (const [field, value] of Object.entries(file.contract)) {
        if (['name', 'fullyQualifiedName', 'entity'].includes(field)) continue;
        const shape = FIELD_SHAPES.get(field)!;
        // No items wanted: none held, whether as an empty list or none.
        if (noItems(value, shape)) {
          expect(noItems(stored[field], shape), `${fqn} ${field}`).toBe(true);
          continue;
        }
        const kept = stored[field] === undefined ? undefined : project(stored[field], shape);
        expect(sorted(kept), `${fqn} ${field}`).toEqual(value === null ? undefined : sorted(value));
      }
    };
    const plan = async () => {
      const planned = await readAndPlanEach(files, catalog, {
        codec: openMetadataCodec,
        keepLive: true,
      });
      return {
        ...planned,
        plan: assemblePlan(planned.changes, {
          catalogUrl: sandbox.url,
          catalogProfile: 'openmetadata',
          gitCommit: null,
          createdAt: new Date().toISOString(),
        }),
      };
    };
    /** One plan and apply; null when a request failed on the way (under faults). */
    const attempt = async () => {
      try {
        const first = await plan();
        const errors = first.plan.changes.filter((c) => c.error !== null).map((c) => c.error);
        // Under faults a read may fail past its retries: that contract cannot be planned now.
        if (faults !== undefined && errors.length + first.plan.summary.missing > 0) return null;
        expect(errors).toEqual([]);
        return await applyPlan(first.plan, catalog, {
          codec: openMetadataCodec,
          liveContracts: first.liveForUpdates,
          desired: first.desired,
          concurrency: 2,
        });
      } catch (error) {
        if (
          faults !== undefined &&
          (error instanceof NetworkError ||
            error instanceof CatalogError ||
            error instanceof StalePlanError)
        )
          return null;
        throw error;
      }
    };
    const settled = (report: Awaited<ReturnType<typeof attempt>>) =>
      report !== null &&
      report.stoppedBy === null &&
      report.results.every((r) => r.status === 'applied' || r.status === 'unchanged');
    let done = false;
    for (let i = 0; faults !== undefined && i < 6 && !done; i++) {
      const report = await attempt();
      // A contract reported applied or unchanged is so, whatever failed around it.
      for (const result of report?.results ?? [])
        if (result.status === 'applied' || result.status === 'unchanged')
          expectStored(result.fullyQualifiedName);
      done = settled(report);
    }
    sandbox.setFaults(null);
    const report = await attempt();
    expect(
      report!.results.filter((r) => r.status !== 'applied' && r.status !== 'unchanged'),
    ).toEqual([]);
    const second = await plan();
    expect(
      second.plan.changes
        .filter((c) => c.action !== 'noop')
        .map((c) => ({ fqn: c.fullyQualifiedName, diff: c.diff, error: c.error })),
    ).toEqual([]);
    for (const file of files) expectStored(file.contract.fullyQualifiedName);
  });
}

describe('convergence under the openmetadata profile', () => {
  it("an owner or reviewer replaced in place by another is sent with its own id, not the old one's", async () => {
    const ref = (type: string, name: string) => withFqn([{ type, name }])[0]!;
    await converges([
      {
        entityType: 'table',
        live: { owners: [ref('user', 'ana')], reviewers: [ref('team', 'data-eng')] },
        extras: true,
        absent: false,
        wanted: { owners: [ref('user', 'ben')], reviewers: [ref('user', 'ana')] },
        nulls: [],
      },
    ]);
  });

  it('an empty list, or null, in the file against a contract holding none is no change', async () => {
    // OpenMetadata reads a contract without reviewers as `reviewers: []`, and drops a PATCH that
    // only adds an empty list: one sent would fail as not kept, on every apply.
    await converges([
      {
        entityType: 'table',
        live: {},
        extras: false,
        absent: false,
        wanted: { reviewers: [] },
        nulls: [],
      },
      {
        entityType: 'table',
        live: {},
        extras: false,
        absent: false,
        wanted: {},
        nulls: ['reviewers', 'schema'],
      },
    ]);
  });

  it(`property: ${RUNS} generated catalogs converge in one apply, and the next plan finds nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pairArb, { minLength: 1, maxLength: 3 }), (pairs) =>
        converges(pairs),
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it(`property: ${RUNS} imported contracts plan to nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pairArb, { minLength: 1, maxLength: 3 }), async (pairs) => {
        const present = pairs.map((pair) => ({ ...pair, absent: false }));
        await withCatalog(present, undefined, async (_sandbox, catalog, files) => {
          const imported = await Promise.all(
            files.map(async (file) => {
              const live = await catalog.getContractByName(file.contract.fullyQualifiedName, [
                'owners',
                'reviewers',
                'extension',
              ]);
              const { text } = contractFileText(live, 'schema.json', openMetadataCodec);
              const parsed = parseContract(text, file.file);
              if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
              return parsed.value;
            }),
          );
          const { changes } = await readAndPlanEach(imported, catalog, {
            codec: openMetadataCodec,
          });
          expect(
            changes
              .filter((c) => c.action !== 'noop')
              .map((c) => ({ action: c.action, diff: c.diff, error: c.error })),
          ).toEqual([]);
        });
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it(`property: ${RUNS} races of three appliers within one user's session lose and double nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(pairArb, contractArb, async (pair, other) => {
        await withCatalog(
          [{ ...pair, absent: false }],
          undefined,
          async (sandbox, catalog, files) => {
            const mine = files[0]!;
            const fqn = mine.contract.fullyQualifiedName;
            const { id } = sandbox.store.contractByFqn(fqn)!;
            // alice's session opens: her changes for the next ten minutes fold into its version,
            // so that the version alone never shows one job's change to another with her token.
            await catalog.patchContract(id, [{ op: 'add', path: '/description', value: 'open' }]);
            // The other file names only the asset's fields, so that the catalog refuses neither.
            const asset = sandbox.store.assets.values().next().value!;
            const schemaOf = (key: string) =>
              (asset[key] as { schemaFields?: { name: string }[] } | undefined)?.schemaFields;
            const fields =
              asset.columns ?? schemaOf('messageSchema') ?? schemaOf('responseSchema') ?? [];
            const known = new Set(fields.map((field) => field.name));
            const model = openMetadataCodec.fromWire({
              name: 'c',
              ...storableOn(pair.entityType, other),
            }) as Record<string, unknown>;
            if (Array.isArray(model.schema))
              model.schema = (model.schema as { name: string }[]).filter((c) => known.has(c.name));
            const theirs = fileOf(
              {
                ...model,
                name: mine.contract.name,
                fullyQualifiedName: fqn,
                entity: mine.contract.entity,
              },
              1,
            );
            const planOf = async (file: ContractFile) =>
              assemblePlan(
                (await readAndPlanEach([file], catalog, { codec: openMetadataCodec })).changes,
                {
                  catalogUrl: sandbox.url,
                  catalogProfile: 'openmetadata',
                  gitCommit: null,
                  createdAt: '',
                },
              );
            const plans = [await planOf(mine), await planOf(theirs)];
            expect(plans.flatMap((plan) => plan.changes.map((c) => c.error))).toEqual([null, null]);
            const runs = [plans[0]!, plans[0]!, plans[1]!];
            const token = await mintToken('alice', SECRET);
            const clients = runs.map(() => new CatalogClient({ baseUrl: sandbox.url, token }));
            try {
              const outcomes = await Promise.all(
                runs.map((plan, i) =>
                  plan.summary.update === 0
                    ? Promise.resolve('noop' as const)
                    : applyPlan(plan, clients[i]!, { codec: openMetadataCodec }).then(
                        (report) => report.results[0]!,
                        (error: unknown) => {
                          if (error instanceof StalePlanError) return 'stale' as const;
                          throw error;
                        },
                      ),
                ),
              );
              const applied = outcomes.flatMap((outcome, i) =>
                typeof outcome === 'object' && outcome.status === 'applied' ? [i] : [],
              );
              if (runs.some((plan) => plan.summary.update > 0))
                expect(applied, JSON.stringify(outcomes)).toHaveLength(1);
              for (const outcome of outcomes)
                if (typeof outcome === 'object' && outcome.status === 'failed')
                  expect(outcome.errorType, outcome.message).toBe('CONFLICT');
              // The contract is as the file of the one that applied says, with no item twice.
              const winner = applied.length === 0 ? undefined : [mine, mine, theirs][applied[0]!]!;
              const stored = sandbox.store.contractByFqn(fqn)!;
              for (const field of [
                'schema',
                'semantics',
                'owners',
                'reviewers',
                'qualityExpectations',
              ]) {
                const items = (stored[field] as Record<string, unknown>[] | undefined) ?? [];
                const keys = items.map((item) =>
                  JSON.stringify([item.type, item.name ?? item.fullyQualifiedName]),
                );
                expect(new Set(keys).size, `${field} repeats an item`).toBe(keys.length);
              }
              if (winner !== undefined) {
                const { changes } = await readAndPlanEach([winner], catalog, {
                  codec: openMetadataCodec,
                });
                expect(changes[0]!.action, JSON.stringify(changes[0]!.diff)).toBe('noop');
              }
            } finally {
              await Promise.all(clients.map((client) => client.close()));
            }
          },
        );
      }),
      { numRuns: RUNS },
    );
  }, 240_000);

  it(`property: ${RUNS} generated catalogs converge under faults, and what is reported applied is`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pairArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (pairs, faultSeed) => converges(pairs, faultsFor(faultSeed)),
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
