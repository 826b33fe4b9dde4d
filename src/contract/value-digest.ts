// A contract's value in a few bytes, kept from validation: the names of its top-level fields, in
// the file's order, and the SHA-256 of its JSON text. A value built from the catalog's contract
// with the same digest has the same JSON text as the file's contract (the same keys, in the same
// order, with the same values), so a plan can take it for the file's contract without reading
// the file again (read/known-from-live.ts).
import { hash } from 'node:crypto';

export interface ValueDigest {
  /** The contract's top-level field names, in the file's order, joined by commas. */
  fields: string;
  /** SHA-256 (base64) of the contract's JSON text. */
  digest: string;
}

/**
 * The digest of `value`'s JSON text. What JSON cannot say reads as what it writes instead (an
 * infinity as null, a negative zero as zero): a validated contract holds no infinity (the loader
 * refuses numbers JSON cannot carry), and the diff takes a negative zero for zero.
 */
export function digestOfValue(value: unknown): string {
  return hash('sha256', JSON.stringify(value), 'base64');
}

/** The digest of a contract as validated. */
export function valueDigest(contract: Record<string, unknown>): ValueDigest {
  return { fields: Object.keys(contract).join(','), digest: digestOfValue(contract) };
}
