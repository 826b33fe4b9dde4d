// A data contract's version history as the catalog keeps it: who changed what, version by version
// (OpenMetadata's `GET /v1/dataContracts/{id}/versions`). Data only.

/** One stored version of a contract. */
export interface ContractVersion {
  version: number;
  updatedBy?: string;
  updatedAt?: number;
  /** Top-level field names the version changed, from its changeDescription (fieldsAdded/Updated/Deleted names, cut at the first '.'), sorted, unique. */
  fields: string[];
  /** The whole contract at that version, as the server gave it. */
  document: Record<string, unknown>;
}

/**
 * A contract's versions, newest first (`skipped` says, one sentence each, what the answer held
 * that was no version: a text that is not JSON, a version without a number, a user that is not a
 * name); or, where the catalog serves no history (a catalog without the route, the spec
 * profile), why there is none.
 */
export type ContractHistory =
  { versions: ContractVersion[]; skipped?: string[] } | { unavailable: string };

/** One change after a given version: who made it, when, and which top-level fields it touched. */
export interface ContractEdit {
  version: number;
  user: string | undefined;
  at: number | undefined;
  fields: string[];
}
