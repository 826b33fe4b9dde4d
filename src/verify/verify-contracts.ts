// Proof that a stored contract holds on its data: each contract is run on its asset by the catalog
// (OpenMetadata's `POST /v1/dataContracts/{id}/validate`), and a result still queued or running
// (its quality tests run in a pipeline) is read again, with a bounded poll, until it is done. A
// catalog that cannot run contracts (the spec profile, a release without the route) is said once,
// and fails nothing.
import type { ApplyReport } from '../apply/results.js';
import type { ContractRun } from '../catalog/types.js';
import type { Plan } from '../plan/types.js';
import { AuthError, CatalogError, ForbiddenError, NetworkError } from '../model/errors.js';
import type { Profile } from '../model/profile.js';

/** What OpenMetadata adds to a running result a new run aborts (`abortRunningValidation`). */
const ABORTED_BY_NEW_RUN = 'Aborted due to new validation request';

/** What a catalog needs to run contracts. CatalogClient provides it. */
export interface ContractRunner {
  runContract(id: string): Promise<ContractRun>;
  contractRun(id: string, resultId: string): Promise<ContractRun>;
  redact(text: string): string;
}

export interface VerifyTarget {
  file: string;
  fullyQualifiedName: string;
  /** The live contract's id; null when the catalog has no such contract. */
  id: string | null;
}

/**
 * One contract's verification: the catalog's verdict (`Success`, `Failed`, `Aborted`,
 * `PartialSuccess`), a run that did not finish within the poll (`Running`), a run another one
 * replaced before its verdict could be read (`superseded`), or one that could not be asked for
 * (`error`).
 */
export interface Verification {
  file: string;
  fullyQualifiedName: string;
  status: string;
  /** The catalog's result, as it answered it. */
  run?: ContractRun;
  /** Why there is no verdict (error, still running). */
  message?: string;
}

export interface VerifyReport {
  results: Verification[];
  /** Why no contract could be run on this catalog; said once, failing nothing. */
  unavailable?: string;
}

export interface VerifyOptions {
  profile: Profile;
  /** How long to wait for a queued or running result, in all (default 60 s). */
  timeoutMs?: number;
  /** The first wait between reads of a running result; it doubles up to 5 s (default 500 ms). */
  pollMs?: number;
  /** Contracts run at once (default 4). */
  concurrency?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const UNFINISHED = new Set(['Running', 'Queued']);

/** The contracts an apply of `plan` stored (created or changed), with their ids, to verify. */
export function appliedTargets(report: ApplyReport, plan: Plan): VerifyTarget[] {
  const ids = new Map(plan.changes.map((change) => [change.fullyQualifiedName, change.id]));
  return report.results.flatMap((result) =>
    result.status === 'applied' && result.deleted === undefined
      ? [
          {
            file: result.file,
            fullyQualifiedName: result.fullyQualifiedName,
            id: result.createdId ?? ids.get(result.fullyQualifiedName) ?? null,
          },
        ]
      : [],
  );
}

/** Whether a verification fails a command: anything but Success (PartialSuccess included). */
export function failedVerification(verification: Verification): boolean {
  return verification.status !== 'Success';
}

/** Why a contract has no verdict: the catalog's status, the request it answered, its message. */
function failureText(error: unknown, redact: (text: string) => string): string {
  if (error instanceof CatalogError)
    return `${error.status} ${error.errorType} from ${error.request}: ${redact(error.serverMessage)}`;
  return redact(error instanceof Error ? error.message : String(error));
}

export async function verifyContracts(
  targets: readonly VerifyTarget[],
  runner: ContractRunner,
  options: VerifyOptions,
): Promise<VerifyReport> {
  if (targets.length === 0) return { results: [] };
  if (options.profile !== 'openmetadata')
    return {
      results: [],
      unavailable:
        'this catalog (spec profile) cannot run contracts on their data, so nothing was verified',
    };
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const timeout = options.timeoutMs ?? 60_000;
  let unavailable: string | undefined;
  const results = new Array<Verification>(targets.length);
  const verifyOne = async (target: VerifyTarget): Promise<Verification> => {
    const names = { file: target.file, fullyQualifiedName: target.fullyQualifiedName };
    if (target.id === null)
      return { ...names, status: 'error', message: 'the catalog has no such contract to run' };
    let run: ContractRun;
    try {
      run = await runner.runContract(target.id);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      // No such route: this release cannot run contracts (said once for the run).
      if (error instanceof CatalogError && (error.status === 404 || error.status === 405)) {
        unavailable ??= `the catalog does not run contracts (POST /v1/dataContracts/{id}/validate answered ${error.status}), so nothing was verified`;
        return { ...names, status: 'unavailable' };
      }
      if (error instanceof CatalogError || error instanceof NetworkError)
        return {
          ...names,
          status: 'error',
          message: `${failureText(error, runner.redact.bind(runner))}${error instanceof ForbiddenError ? '; running a contract needs EditAll on it (`contracts doctor` checks the token)' : ''}`,
        };
      throw error;
    }
    const ours = run.id;
    const started = now();
    let wait = options.pollMs ?? 500;
    while (UNFINISHED.has(run.contractExecutionStatus) && typeof run.id === 'string') {
      if (now() - started >= timeout)
        return {
          ...names,
          status: run.contractExecutionStatus,
          run,
          message: `still ${run.contractExecutionStatus.toLowerCase()} after ${Math.round(timeout / 1000)} s: not verified`,
        };
      await sleep(Math.min(wait, Math.max(0, timeout - (now() - started))));
      wait = Math.min(wait * 2, 5_000);
      try {
        run = await runner.contractRun(target.id, run.id);
      } catch (error) {
        if (error instanceof AuthError) throw error;
        if (error instanceof CatalogError || error instanceof NetworkError)
          return {
            ...names,
            status: 'error',
            run,
            message: failureText(error, runner.redact.bind(runner)),
          };
        throw error;
      }
      // OpenMetadata answers a contract's latest run whatever run is asked for: another run
      // started meanwhile (the UI, another job, the scheduled validation) aborted ours, and its
      // verdict is not ours to report. Ours read back aborted for that run (the new one not
      // stored after it) is no verdict either.
      if (typeof run.id === 'string' && run.id !== ours)
        return {
          ...names,
          status: 'superseded',
          message: `superseded by another run (result ${run.id}) before this run's verdict could be read: another run aborts a running one, and the catalog answers only the latest; not verified, run verify again`,
        };
      if (run.contractExecutionStatus === 'Aborted' && run.result?.includes(ABORTED_BY_NEW_RUN))
        return {
          ...names,
          status: 'superseded',
          message: `superseded by another run: the catalog aborted this run (result ${run.id}) for a new validation request before its verdict could be read; not verified, run verify again`,
        };
    }
    return { ...names, status: run.contractExecutionStatus, run };
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const index = next++;
      results[index] = await verifyOne(targets[index]!);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency ?? 4, targets.length) }, worker),
  );
  const done = results.filter((result) => result.status !== 'unavailable');
  return unavailable === undefined ? { results: done } : { results: done, unavailable };
}
