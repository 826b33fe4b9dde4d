// Executes a plan: PATCHes in file order, stops on 400/401/403, and after a timeout or 5xx
// re-reads the contract and re-diffs instead of sending the same patch again.
import type { ChangeDescription, LiveContract, PatchedContract } from '../catalog/client.js';
import { FIELD_SHAPES, MANAGED_FIELDS, type DesiredContract } from '../contract/model.js';
import { diffContract } from '../diff/diff-contract.js';
import { topMember } from '../diff/json-value.js';
import type { Operation } from '../diff/operation.js';
import { project } from '../diff/project.js';
import { applyToCopy, verifyPatch } from '../diff/verify.js';
import { CatalogError, ConfigError, NetworkError, StalePlanError } from '../errors.js';
import { hashContract } from '../plan/create-plan.js';
import { CONTRACT_FIELDS, type CatalogReader } from '../plan/read-plan-inputs.js';
import type { Plan, PlannedChange } from '../plan/types.js';

/** The catalog calls apply needs. CatalogClient provides them. */
export interface CatalogWriter extends CatalogReader {
  getContractById(id: string, fields?: readonly string[]): Promise<LiveContract>;
  patchContract(id: string, operations: readonly Operation[]): Promise<PatchedContract>;
}

/** Statuses after which no further PATCH is sent. */
export const STOP_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

export type ContractResult =
  | {
      status: 'applied';
      file: string;
      fullyQualifiedName: string;
      oldVersion: number | null;
      newVersion: number | null;
      changeDescription: ChangeDescription | null;
      /** The response was lost; reading the contract back showed the change in place. */
      confirmedByReread: boolean;
    }
  | {
      status: 'failed';
      file: string;
      fullyQualifiedName: string;
      httpStatus: number | null;
      errorType: string;
      message: string;
    }
  | { status: 'not-attempted'; file: string; fullyQualifiedName: string }
  | { status: 'unchanged'; file: string; fullyQualifiedName: string };

export interface ApplyReport {
  /** One result per change of the plan, in file order. */
  results: ContractResult[];
  /** The failure that stopped the run (400, 401 or 403), if any. */
  stoppedBy: Extract<ContractResult, { status: 'failed' }> | null;
}

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
  /** Called as each contract's result is known. */
  onResult?: (result: ContractResult) => void;
}

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

/** Re-reads every planned contract; throws StalePlanError (nothing sent) when any moved. */
export async function readLiveForPlan(
  plan: Plan,
  reader: CatalogReader,
): Promise<Map<string, LiveContract>> {
  const planned = plan.changes.filter((change) => change.liveHash !== null);
  const live = await Promise.all(
    planned.map((change) => reader.getContractByName(change.fullyQualifiedName, CONTRACT_FIELDS)),
  );
  const moved: string[] = [];
  const byFqn = new Map<string, LiveContract>();
  planned.forEach((change, i) => {
    const contract = live[i]!;
    byFqn.set(change.fullyQualifiedName, contract);
    if (contract.version !== change.liveVersion || hashContract(contract) !== change.liveHash) {
      moved.push(
        `${change.fullyQualifiedName} (version ${String(change.liveVersion)} when planned, ${String(contract.version)} now${contract.version === change.liveVersion ? ', content changed' : ''})`,
      );
    }
  });
  if (moved.length > 0) {
    throw new StalePlanError(
      `plan is stale: re-run plan. ${moved.length} contract${moved.length === 1 ? '' : 's'} changed since it was made: ${moved.join('; ')}. Nothing was sent.`,
    );
  }
  return byFqn;
}

/** The desired state a patch leads to, for the fields it touches (for re-diffing after a failure). */
export function targetOf(live: LiveContract, patch: readonly Operation[]): DesiredContract {
  const after = applyToCopy(live, patch);
  const touched = new Set<string>();
  for (const op of patch) {
    touched.add(topMember(op.path));
    if (op.op === 'move') touched.add(topMember(op.from));
  }
  const target: DesiredContract = {
    name: live.name,
    fullyQualifiedName: live.fullyQualifiedName,
    entity: { type: live.entity.type, fullyQualifiedName: live.entity.fullyQualifiedName },
  };
  for (const field of MANAGED_FIELDS) {
    if (!touched.has(field)) continue;
    target[field] =
      after[field] === undefined ? null : project(after[field], FIELD_SHAPES.get(field)!);
  }
  return target;
}

function failure(
  change: PlannedChange,
  error: unknown,
  redact: (text: string) => string,
): Extract<ContractResult, { status: 'failed' }> {
  const base = {
    status: 'failed' as const,
    file: change.file,
    fullyQualifiedName: change.fullyQualifiedName,
  };
  if (error instanceof CatalogError)
    return {
      ...base,
      httpStatus: error.status,
      errorType: error.errorType,
      message: redact(error.serverMessage),
    };
  if (error instanceof NetworkError)
    return {
      ...base,
      httpStatus: null,
      errorType: error.name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK',
      message: redact(error.message),
    };
  throw error;
}

async function applyChange(
  change: PlannedChange,
  target: DesiredContract,
  catalog: CatalogWriter,
  attempts: number,
): Promise<ContractResult> {
  let operations: readonly Operation[] = change.patch;
  for (let attempt = 0; ; attempt++) {
    try {
      const patched = await catalog.patchContract(change.id!, operations);
      return {
        status: 'applied',
        file: change.file,
        fullyQualifiedName: change.fullyQualifiedName,
        oldVersion: change.liveVersion,
        newVersion: typeof patched.version === 'number' ? patched.version : null,
        changeDescription: patched.changeDescription ?? null,
        confirmedByReread: false,
      };
    } catch (error) {
      const lost =
        error instanceof NetworkError || (error instanceof CatalogError && error.status >= 500);
      if (!lost || attempt >= attempts) return failure(change, error, catalog.redact.bind(catalog));
    }
    // The PATCH may or may not have landed: read the contract back and diff again, so an
    // `add /semantics/-` can never be applied twice.
    let fresh: LiveContract;
    try {
      fresh = await catalog.getContractById(change.id!, CONTRACT_FIELDS);
    } catch (error) {
      return failure(change, error, catalog.redact.bind(catalog));
    }
    operations = diffContract(fresh, target);
    verifyPatch(fresh, target, operations);
    if (operations.length === 0) {
      return {
        status: 'applied',
        file: change.file,
        fullyQualifiedName: change.fullyQualifiedName,
        oldVersion: change.liveVersion,
        newVersion: fresh.version,
        changeDescription: null,
        confirmedByReread: true,
      };
    }
  }
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
  const liveContracts = options.liveContracts ?? (await readLiveForPlan(plan, catalog));
  // Each patch's target, before anything is sent: working it out also checks that a saved plan's
  // patch (which could have been edited) still applies to the contract it was made for.
  const targets = new Map<string, DesiredContract>();
  for (const change of plan.changes) {
    if (change.action === 'update')
      targets.set(
        change.fullyQualifiedName,
        targetOf(liveContracts.get(change.fullyQualifiedName)!, change.patch),
      );
  }
  const results = new Array<ContractResult>(plan.changes.length);
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
      if (change.action !== 'update') {
        record(index, { status: 'unchanged', ...names });
        continue;
      }
      if (stoppedBy !== null) {
        record(index, { status: 'not-attempted', ...names });
        continue;
      }
      const result = await applyChange(
        change,
        targets.get(change.fullyQualifiedName)!,
        catalog,
        options.recoveryAttempts ?? 2,
      );
      if (
        result.status === 'failed' &&
        result.httpStatus !== null &&
        STOP_STATUSES.has(result.httpStatus)
      )
        stoppedBy ??= result;
      record(index, result);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { results, stoppedBy };
}
