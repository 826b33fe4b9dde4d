// What apply reports for each contract, and the failures that stop it.
import type { ChangeDescription } from '../catalog/client.js';
import { neverSent } from './guard-refusals.js';
import { CatalogError, NetworkError, errorMessage } from '../model/errors.js';
import type { PlannedChange } from '../plan/types.js';

/** Statuses after which no further PATCH is sent. */
export const STOP_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

export type ContractResult =
  | {
      status: 'applied';
      file: string;
      fullyQualifiedName: string;
      oldVersion: number | null;
      newVersion: number | null;
      /**
       * What this apply changed: the catalog's incrementalChangeDescription when it sends one,
       * else its changeDescription.
       */
      changeDescription: ChangeDescription | null;
      /**
       * The catalog folded the change into the version it already had (OpenMetadata: one user's
       * changes within ten minutes make one version), so the version did not move.
       */
      folded?: true;
      /** The response was lost; reading the contract back showed the change in place. */
      confirmedByReread: boolean;
      /**
       * The contract moved after the plan was made; the patch sent was planned again against it
       * (its live version then), from the contract file.
       */
      replannedAt: number | null;
      /** The id of a contract this apply created (absent for a change to an existing one). */
      createdId?: string;
      /** A contract this apply deleted (`--prune`): soft (restorable) or hard. */
      deleted?: 'soft' | 'hard';
      /** The id of the contract deleted, which a restore names. */
      deletedId?: string;
      /** What the catalog did beside the change that the person should know (it lost a part). */
      warnings?: string[];
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
  | {
      status: 'unchanged';
      file: string;
      fullyQualifiedName: string;
      /** Why a contract the plan would change needed nothing after all. */
      reason?: string;
    };

export interface ApplyReport {
  /** One result per change of the plan, in file order. */
  results: ContractResult[];
  /** The failure that stopped the run (400, 401 or 403), if any. */
  stoppedBy: Extract<ContractResult, { status: 'failed' }> | null;
  /** The run was interrupted: what was in flight finished, nothing new was sent. */
  interrupted?: boolean;
  /** What the run learnt of the catalog and says once (a change sent with If-Match dropped). */
  notes?: string[];
}

/** A failure after which no further PATCH is sent: 400, 401, 403, or a contract that moved. */
export function stops(result: Extract<ContractResult, { status: 'failed' }>): boolean {
  return (
    result.errorType === 'CONFLICT' ||
    (result.httpStatus !== null && STOP_STATUSES.has(result.httpStatus))
  );
}

export function failure(
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
  if (error instanceof NetworkError) {
    const notSent = neverSent(error);
    return {
      ...base,
      httpStatus: null,
      errorType: error.name === 'TimeoutError' && !notSent ? 'TIMEOUT' : 'NETWORK',
      message: `${redact(error.message)}${notSent ? '; no connection was made, so the catalog never received it: nothing was applied' : ''}`,
    };
  }
  throw error;
}

export function failureText(error: unknown, redact: (text: string) => string): string {
  if (error instanceof CatalogError) return `${error.status} ${error.errorType}`;
  return errorMessage(error, redact);
}
