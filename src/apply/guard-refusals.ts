// How apply reads a PATCH the catalog refused, and the contract read back after it: whether a
// guard refused it, whether the contract still is as the patch was made from, and the same patch
// guarded again by a fresh read when only what it does not touch moved.
import { isDeepStrictEqual } from 'node:util';
import type { LiveContract } from '../catalog/client.js';
import { MANAGED_FIELDS, type DesiredContract, type Shape } from '../model/contract.js';
import { diffContract } from '../diff/diff-contract.js';
import { STORE_GUARD_PATHS, storeGuards } from '../diff/guard.js';
import type { Operation } from '../model/operation.js';
import { applyToCopy } from '../diff/verify.js';
import { CatalogError, InternalError, NetworkError } from '../model/errors.js';

/** Whether `failed` is the catalog refusing the PATCH's If-Match. */
export function refusedEtag(failed: unknown): boolean {
  return failed instanceof CatalogError && failed.status === 412;
}

/** Whether `ops` (guards included) apply to `contract`: false when a guard no longer holds. */
export function applies(contract: LiveContract, ops: readonly Operation[]): boolean {
  try {
    applyToCopy(contract, ops);
    return true;
  } catch (error) {
    if (error instanceof InternalError) return false;
    throw error;
  }
}

/** Whether `contract` already has the target's managed fields. */
export function reached(
  contract: LiveContract,
  target: DesiredContract,
  shapes: ReadonlyMap<string, Shape>,
): boolean {
  return diffContract(contract, target, shapes).length === 0;
}

/** `operations` guarded by the version and update time of `fresh` instead of those it had. */
export function rebase(operations: readonly Operation[], fresh: LiveContract): Operation[] {
  const stored = (op: Operation): boolean =>
    op.op === 'test' && STORE_GUARD_PATHS.includes(op.path);
  return [...storeGuards(fresh), ...operations.filter((op) => !stored(op))];
}

/** Whether `fresh` is `base` in identity and in every field a file manages. */
export function sameManaged(fresh: LiveContract, base: LiveContract): boolean {
  return ['id', 'name', 'entity', ...MANAGED_FIELDS].every((field) =>
    isDeepStrictEqual(fresh[field], base[field]),
  );
}

/**
 * Whether `failed` is OpenMetadata refusing a `test` op: JSON-P's JsonException, which no mapper
 * of its takes, so every release answers it 500 with JSON-P's own words. The PATCH was refused
 * before anything was stored, so it is no lost answer.
 */
export function failedTest(failed: CatalogError): boolean {
  return (
    failed.status === 500 && /JSON Patch operation '?test'? failed/i.test(failed.serverMessage)
  );
}

/**
 * Whether a write that failed with `failed` may have landed all the same: no answer came (a
 * network error), the catalog answered 5xx (other than a refused `test`), or it answered 2xx
 * with a body that cannot be read (cut short, or a proxy's HTML page). The contract is read back.
 */
export function answerLost(failed: unknown): boolean {
  if (failed instanceof NetworkError) return !neverSent(failed);
  if (!(failed instanceof CatalogError)) return false;
  // 2xx unreadable, or a redirect a write does not follow: the catalog may have kept it.
  if (failed.status >= 200 && failed.status < 400) return true;
  return failed.status >= 500 && !failedTest(failed);
}

/** Connection errors that happen before a request is sent: the catalog never saw it. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether `failed` happened before the request reached the catalog (no connection was made). */
export function neverSent(failed: NetworkError): boolean {
  const code = (failed.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}

/** Statuses a catalog answers when a guard of the patch (a `test`, or If-Match) failed. */
export const GUARD_STATUSES: ReadonlySet<number> = new Set([400, 409, 412]);
