// A saved plan is applied only as its own inputs make it: before anything is sent, every patch and
// create body in it is made again from the contract files it names and the live contracts, and
// any difference refuses the whole plan. A checksum alone cannot tell an edited plan whose
// checksum was made again; the files and the catalog can.
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { LiveContract } from '../catalog/client.js';
import { ConfigError, StalePlanError } from '../model/errors.js';
import type { CatalogReader } from '../read/read-plan-inputs.js';
import type { Plan, PlannedChange } from '../plan/types.js';
import type { ProfileSetting } from '../model/profile.js';
import type { ProgressHooks } from '../support/progress.js';
import { planFromFiles } from './plan-pipeline.js';
import type { Repository } from '../git/repository.js';
import { deletionGuard, present } from '../prune/proof.js';
import { contractsNamedInCheckout } from '../prune/declared.js';

/** `reader`, serving each contract in `live` once from there instead of the catalog. */
function readingFirst(
  live: ReadonlyMap<string, LiveContract>,
  reader: CatalogReader,
): CatalogReader {
  const unread = new Map(live);
  return Object.assign(Object.create(reader) as CatalogReader, {
    getContractByName: (
      fqn: string,
      ...rest: Parameters<CatalogReader['getContractByName']> extends [string, ...infer R]
        ? R
        : never
    ) => {
      const contract = unread.get(fqn);
      if (contract === undefined) return reader.getContractByName(fqn, ...rest);
      unread.delete(fqn);
      return Promise.resolve(contract);
    },
  });
}

/** What of a change apply acts on: its file, its action, the contract's id, and what it sends. */
function acted(change: PlannedChange): unknown {
  return {
    file: change.file,
    action: change.action,
    id: change.id,
    patch: change.patch,
    create: change.create?.body ?? null,
  };
}

/**
 * Makes `plan` again from the files it names (relative to `cwd`) against the catalog, and refuses
 * it (ConfigError, nothing sent) unless every change apply would act on comes out the same. The
 * live contracts read on the way are returned, for applying without reading them once more.
 */
export async function checkSavedPlan(
  plan: Plan,
  options: {
    cwd: string;
    reader: CatalogReader;
    profile: ProfileSetting;
    /** The live contracts just read for the plan (readLiveForPlan): not read a second time. */
    live?: ReadonlyMap<string, LiveContract>;
    progress?: ProgressHooks;
    /** The repository the files are in, whose marker the plan's changes carry. */
    repository?: Promise<Repository | undefined>;
  },
): Promise<Map<string, LiveContract>> {
  // A deletion stands only while its file stays gone: one brought back manages its contract.
  const back: string[] = [];
  for (const change of plan.changes)
    if (change.action === 'delete' && (await present(path.resolve(options.cwd, change.file))))
      back.push(`${change.fullyQualifiedName} (${change.file} is here again)`);
  if (back.length > 0)
    throw new StalePlanError(
      `plan is stale: re-run plan. It deletes contracts whose files are back: ${back.join('; ')}. Nothing was sent.`,
    );
  await checkDeletions(plan, options);
  const files = [
    ...new Set(
      plan.changes.filter((change) => change.action !== 'delete').map((change) => change.file),
    ),
  ];
  if (files.length === 0) return new Map(options.live ?? []);
  let again;
  try {
    again = await planFromFiles(
      {
        paths: files,
        cwd: options.cwd,
        catalogUrl: plan.catalogUrl,
        gitCommit: null,
        keepLive: true,
        profile: options.profile,
        // What apply sends is compared, not who it reaches: no lineage is read again.
        consumers: false,
        // The contracts just read are not read again: by name, from them.
        ...(options.live === undefined ? {} : { liveReads: 'by-name' as const }),
        ...(options.progress === undefined ? {} : { progress: options.progress }),
        ...(options.repository === undefined ? {} : { repository: options.repository }),
      },
      options.live === undefined ? options.reader : readingFirst(options.live, options.reader),
    );
  } catch (error) {
    if (!(error instanceof ConfigError) || !/does not exist|not found|no such/i.test(error.message))
      throw error;
    throw new ConfigError(
      `the plan names contract files that are not here (${error.message}); apply a saved plan in the checkout it was made in, or make a new plan. Nothing was sent.`,
    );
  }
  if (!again.ok)
    throw new ConfigError(
      `the contract files the plan was made from no longer load (${again.problems.length} problem${again.problems.length === 1 ? '' : 's'}, the first: ${again.problems[0]!.file}:${again.problems[0]!.line}:${again.problems[0]!.column} ${again.problems[0]!.message}); make a new plan. Nothing was sent.`,
    );
  const made = new Map(again.plan.changes.map((change) => [change.fullyQualifiedName, change]));
  const differing = plan.changes.filter((change) => {
    if (change.action === 'delete') return false;
    const now = made.get(change.fullyQualifiedName);
    return now === undefined || !isDeepStrictEqual(acted(change), acted(now));
  });
  // A contract that moved while the plan was being made again (another apply, say): stale.
  const moved = differing.filter((change) => {
    const now = made.get(change.fullyQualifiedName);
    return (
      now !== undefined &&
      (now.liveVersion !== change.liveVersion || now.liveHash !== change.liveHash)
    );
  });
  if (moved.length > 0)
    throw new StalePlanError(
      `plan is stale: re-run plan. ${moved.length} contract${moved.length === 1 ? '' : 's'} changed since it was made: ${moved.map((change) => change.fullyQualifiedName).join('; ')}. Nothing was sent.`,
    );
  if (differing.length > 0)
    throw new ConfigError(
      `the plan does not match what its contract files and the catalog make now for ${differing.map((change) => change.fullyQualifiedName).join(', ')}: it was edited, or the files or the catalog changed since it was made. Make a new plan. Nothing was sent.`,
    );
  // The deletions' live contracts were read and checked with the rest (readLiveForPlan).
  const live = again.liveContracts;
  for (const change of plan.changes) {
    const contract = options.live?.get(change.fullyQualifiedName);
    if (change.action === 'delete' && contract !== undefined)
      live.set(change.fullyQualifiedName, contract);
  }
  return live;
}

/**
 * Refuses `plan` (ConfigError, nothing sent) unless each of its deletions is one a fresh plan
 * would make of the contract just read: this repository's history proves it (prune/proof.ts),
 * for the file the deletion names, and no file of the checkout names the contract.
 */
async function checkDeletions(
  plan: Plan,
  options: {
    cwd: string;
    live?: ReadonlyMap<string, LiveContract>;
    repository?: Promise<Repository | undefined>;
  },
): Promise<void> {
  const deletions = plan.changes.filter((change) => change.action === 'delete');
  if (deletions.length === 0) return;
  const refuse = (entry: PlannedChange, why: string): never => {
    throw new ConfigError(
      `the plan deletes ${entry.fullyQualifiedName} (${entry.file}), which a plan made now would not: ${why}. Make a new plan. Nothing was sent.`,
    );
  };
  const repository = options.repository ?? Promise.resolve(undefined);
  const guard = deletionGuard(options.cwd, repository);
  for (const entry of deletions) {
    const contract = options.live?.get(entry.fullyQualifiedName);
    if (contract === undefined) refuse(entry, 'its contract was not read again');
    const refusal = await guard.refusal(contract!, entry);
    if (refusal !== undefined) refuse(entry, refusal);
  }
  const known = await repository;
  if (known === undefined) return;
  const named = await contractsNamedInCheckout(
    known.top,
    new Set(deletions.map((change) => change.fullyQualifiedName)),
  );
  for (const entry of deletions) {
    const file = named.get(entry.fullyQualifiedName);
    if (file !== undefined) refuse(entry, `${file} names its contract`);
  }
}
