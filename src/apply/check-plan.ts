// What apply checks of a plan before it sends anything: that it can be applied whole, and (for a
// saved plan) that no contract it names moved since it was made.
import type { LiveContract } from '../catalog/client.js';
import { ConfigError, NotFoundError, StalePlanError } from '../model/errors.js';
import { hashContract } from '../plan/create-plan.js';
import { CONTRACT_FIELDS, type CatalogReader } from '../read/read-plan-inputs.js';
import { walkList, type LiveReadMode } from '../read/listed-contracts.js';
import { listedEtag } from '../catalog/etag.js';
import type { Codec } from '../profile/codec-types.js';
import type { Plan } from '../plan/types.js';
import { track, type ProgressHooks } from '../support/progress.js';
import { movedCreates } from './create.js';

/** Refuses plans that cannot be applied whole: errors or missing contracts. */
export function assertApplicable(plan: Plan): void {
  const blocked = plan.changes.filter(
    (change) => change.action === 'error' || change.action === 'missing',
  );
  if (blocked.length > 0) {
    throw new ConfigError(
      `the plan has ${blocked.length} contract${blocked.length === 1 ? '' : 's'} that cannot be applied (${blocked
        .map((c) => `${c.fullyQualifiedName}: ${c.action}`)
        .join('; ')}); fix them and plan again. Nothing was sent.`,
    );
  }
}

/** How a saved plan's contracts are read again. */
export interface ReadingAgain {
  /**
   * The connected catalog's codec: with it, the contracts are read from the catalog's list where
   * its pages cost less than reads by name (read/listed-contracts.ts), each with the ETag a read
   * by name would have given; without it, by name.
   */
  codec?: Codec;
  /** Where a reading by name for want of the catalog's list is said, once. */
  notes?: string[];
  /** As the rule decides (the default), or one way (tests). */
  mode?: LiveReadMode;
}

/** Re-reads every planned contract; throws StalePlanError (nothing sent) when any moved. */
export async function readLiveForPlan(
  plan: Plan,
  reader: CatalogReader,
  progress?: ProgressHooks,
  again: ReadingAgain = {},
): Promise<Map<string, LiveContract>> {
  const planned = plan.changes.filter((change) => change.liveHash !== null);
  progress?.total?.(planned.length);
  const codec = again.codec;
  const listed =
    codec === undefined
      ? undefined
      : walkList(reader, Promise.resolve(planned.length), again.mode ?? 'auto', (contract) =>
          listedEtag(contract, codec),
        );
  listed?.onlyFor(new Set(planned.map((change) => change.fullyQualifiedName)));
  const byName = (fqn: string) =>
    reader.getContractByName(fqn, CONTRACT_FIELDS).catch((error: unknown) => {
      // Gone since the plan (deleted by someone, or by an earlier apply of this plan): stale.
      if (error instanceof NotFoundError) return null;
      throw error;
    });
  const live = await Promise.all(
    planned.map((change) =>
      track(progress, change.fullyQualifiedName, async () => {
        const fqn = change.fullyQualifiedName;
        return (await listed?.take(fqn)) ?? (await byName(fqn));
      }),
    ),
  );
  if (listed !== undefined) again.notes?.push(...listed.notes);
  const moved: string[] = [];
  const byFqn = new Map<string, LiveContract>();
  planned.forEach((change, i) => {
    const contract = live[i]!;
    if (contract === null) {
      moved.push(
        `${change.fullyQualifiedName} (version ${String(change.liveVersion)} when planned, not in the catalog now)`,
      );
      return;
    }
    byFqn.set(change.fullyQualifiedName, contract);
    if (change.id !== null && contract.id !== change.id) {
      throw new ConfigError(
        `the plan names contract id ${change.id} for ${change.fullyQualifiedName}, but the catalog's contract of that name has id ${contract.id}; the plan was edited or made against other contracts. Make a new plan. Nothing was sent.`,
      );
    }
    if (contract.version !== change.liveVersion || hashContract(contract) !== change.liveHash) {
      moved.push(
        `${change.fullyQualifiedName} (version ${String(change.liveVersion)} when planned, ${String(contract.version)} now${contract.version === change.liveVersion ? ', content changed' : ''})`,
      );
    }
  });
  moved.push(...(await movedCreates(plan, reader)));
  if (moved.length > 0) {
    throw new StalePlanError(
      `plan is stale: re-run plan. ${moved.length} contract${moved.length === 1 ? '' : 's'} changed since it was made: ${moved.join('; ')}. Nothing was sent.`,
    );
  }
  return byFqn;
}
