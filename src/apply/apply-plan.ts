// Executes a plan: its contracts in file order, a few at once, each change by apply-change.ts,
// each create by create.ts and each deletion by delete.ts; no write starts after a 400, 401 or
// 403, and every contract ends in exactly one of applied, failed, not attempted or unchanged.
import type { LiveContract } from '../catalog/client.js';
import type { DesiredContract } from '../model/contract.js';
import { specCodec, type Codec } from '../profile/codec.js';
import type { Plan } from '../plan/types.js';
import type { AssetRules } from '../plan/asset-rules.js';
import { applyCreate } from './create.js';
import { applyDelete } from './delete.js';
import type { DeletionGuard } from '../prune/proof.js';
import { assertApplicable, readLiveForPlan } from './check-plan.js';
import {
  applyChange,
  IF_MATCH_DROPPED_NOTE,
  ifMatchRunOf,
  targetOf,
  type CatalogWriter,
} from './apply-change.js';
import { stops, type ApplyReport, type ContractResult } from './results.js';
import { track, type ProgressHooks } from '../support/progress.js';

export { targetOf, type CatalogWriter } from './apply-change.js';
export { STOP_STATUSES, type ApplyReport, type ContractResult } from './results.js';
export { assertApplicable, readLiveForPlan } from './check-plan.js';

export interface ApplyOptions {
  /** PATCHes in flight at once (default 1: strictly one after another). */
  concurrency?: number;
  /** Re-reads after a lost response before giving up on a contract (default 2). */
  recoveryAttempts?: number;
  /**
   * The live contracts the plan was made from, when they were just read (plan and apply in one
   * run). Without them every contract is read again and the plan refused if any moved.
   */
  liveContracts?: ReadonlyMap<string, LiveContract>;
  /**
   * The files' desired contracts by FQN (plan and apply in one run). A contract that moved after
   * the plan was made is then planned again, once, against its file; without them (a saved plan)
   * it fails as stale.
   */
  desired?: ReadonlyMap<string, DesiredContract>;
  /** Said in the report's notes: what the run said of its reading before the apply. */
  notes?: readonly string[];
  /** The connected catalog's codec (the spec profile's by default). */
  codec?: Codec;
  /** The data asset rules the plan weighed (OpenMetadata): a change planned again is weighed too. */
  assetRules?: AssetRules;
  /**
   * Aborted when the person interrupts (Ctrl-C): no contract starts after it, and each request in
   * flight finishes (or is read back) as usual.
   */
  signal?: AbortSignal;
  /** Called as each contract's result is known. */
  onResult?: (result: ContractResult) => void;
  /** Told as each contract's create or PATCH starts and ends. */
  progress?: ProgressHooks;
  /**
   * What becomes of the plan's deletions: sent (`apply`), or kept, each reported unchanged as
   * declined (`decline`: the person said no to them). Sent by default.
   */
  deletions?: 'apply' | 'decline';
  /** Deletions are hard (`--hard-delete`): the catalog keeps nothing to restore. */
  hardDelete?: boolean;
  /**
   * What proves each deletion just before it is sent (prune/proof.ts); without it no deletion
   * is sent, each failing as not proven.
   */
  deletionGuard?: DeletionGuard;
}

/**
 * Applies `plan`. Contracts start in file order, at most `concurrency` at once; after a 400, 401
 * or 403 no further PATCH starts, and every contract ends in exactly one of applied, failed, not
 * attempted or unchanged.
 */
export async function applyPlan(
  plan: Plan,
  catalog: CatalogWriter,
  options: ApplyOptions = {},
): Promise<ApplyReport> {
  assertApplicable(plan);
  const codec = options.codec ?? specCodec;
  const { shapes } = codec;
  /** What the run says of its reading (a catalog read by name for want of its list). */
  const notes: string[] = [...(options.notes ?? [])];
  const liveContracts =
    options.liveContracts ??
    (await readLiveForPlan(plan, catalog, undefined, {
      ...(options.codec === undefined ? {} : { codec: options.codec }),
      notes,
    }));
  // Each patch's target, before anything is sent: working it out also checks that a saved plan's
  // patch (which could have been edited) still applies to the contract it was made for.
  const targets = new Map<string, DesiredContract>();
  for (const change of plan.changes) {
    if (change.action === 'update')
      targets.set(
        change.fullyQualifiedName,
        targetOf(liveContracts.get(change.fullyQualifiedName)!, change.patch, shapes),
      );
  }
  const results = new Array<ContractResult>(plan.changes.length);
  const ifMatchRun = ifMatchRunOf(catalog);
  let stoppedBy: ApplyReport['stoppedBy'] = null;
  let next = 0;
  const concurrency = options.concurrency ?? 1;
  const record = (index: number, result: ContractResult): void => {
    results[index] = result;
    options.onResult?.(result);
  };
  const worker = async (): Promise<void> => {
    while (next < plan.changes.length) {
      const index = next++;
      const change = plan.changes[index]!;
      const names = { file: change.file, fullyQualifiedName: change.fullyQualifiedName };
      if (change.action === 'delete' && options.deletions === 'decline') {
        record(index, { status: 'unchanged', ...names, reason: 'its deletion was declined' });
        continue;
      }
      if (change.action !== 'update' && change.action !== 'create' && change.action !== 'delete') {
        record(index, { status: 'unchanged', ...names });
        continue;
      }
      if (stoppedBy !== null || options.signal?.aborted === true) {
        record(index, { status: 'not-attempted', ...names });
        continue;
      }
      const result = await track(options.progress, change.fullyQualifiedName, () =>
        change.action === 'create'
          ? applyCreate(change, catalog, options.recoveryAttempts ?? 2, codec)
          : change.action === 'delete'
            ? applyDelete(change, catalog, options.hardDelete === true, options.deletionGuard)
            : applyChange({
                change,
                live: liveContracts.get(change.fullyQualifiedName)!,
                target: targets.get(change.fullyQualifiedName)!,
                desired: options.desired?.get(change.fullyQualifiedName),
                catalog,
                attempts: options.recoveryAttempts ?? 2,
                shapes,
                codec,
                assetRules: options.assetRules,
                ifMatchRun,
              }),
      );
      if (result.status === 'failed' && stops(result)) stoppedBy ??= result;
      record(index, result);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    results,
    stoppedBy,
    ...(options.signal?.aborted === true ? { interrupted: true } : {}),
    ...(notes.length > 0 || ifMatchRun.dropped
      ? { notes: [...notes, ...(ifMatchRun.dropped ? [IF_MATCH_DROPPED_NOTE] : [])] }
      : {}),
  };
}
