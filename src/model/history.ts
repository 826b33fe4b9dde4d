// A contract's version history, as the catalog keeps it (OpenMetadata's `/versions`): who made
// each version and which fields it changed. Data only.

export interface ContractVersion {
  version: number;
  updatedBy?: string;
  updatedAt?: number;
  /** Top-level field names the version changed, from its changeDescription, sorted, unique. */
  fields: string[];
  /** The whole contract at that version, as the server gave it. */
  document: Record<string, unknown>;
}

/** A contract's versions, newest first; or why the catalog gives none. */
export type ContractHistory = { versions: ContractVersion[] } | { unavailable: string };
