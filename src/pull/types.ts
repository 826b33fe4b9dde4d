// What `contracts pull` reports: for each file whose live contract differs from it, what came
// back from the catalog, who changed it there, and what was in conflict with git. Data only.
import type { ContractEdit } from '../model/history.js';

/** What the catalog's history says of a pulled contract's edits. */
export type EditHistory =
  | {
      /** The version the catalog last agreed with the file as applied; null: none found. */
      since: number | null;
      /** The versions after it, oldest first, each with the pulled fields it changed. */
      edits: ContractEdit[];
    }
  | { unavailable: string };

export type PulledStatus =
  /** The file now holds the catalog's values (with --check: would). */
  | 'pulled'
  /** Only git changed what differs (changes not applied yet): nothing to pull. */
  | 'ahead'
  /** The file could not be made to hold them; it is left as it is. */
  | 'refused'
  /** The catalog has no contract of the file's name: the file is kept. */
  | 'not-in-catalog'
  /** The contract could not be planned (the plan's error). */
  | 'error';

export interface PulledContract {
  /** The file, relative to the working directory. */
  file: string;
  fullyQualifiedName: string;
  status: PulledStatus;
  /** The live contract's version (null when there is none). */
  liveVersion: number | null;
  /** The top-level fields whose values came (or would come) from the catalog. */
  fields: string[];
  /**
   * Fields changed both in git since the last apply and in the catalog: the catalog's value is
   * written, and the pull request is where a person decides.
   */
  conflicts: string[];
  /**
   * Fields the file changed in git since the last apply that the catalog did not: changes not
   * applied yet, which pull leaves in the file (apply sends them).
   */
  notApplied: string[];
  /** Fields the file's format cannot hold as the catalog does (ODCS), each with why. */
  leftOut: string[];
  /** The file was written again whole (its layout changed; comments kept). */
  rewritten: boolean;
  /** The commit of the last apply, from the contract's marker; null when it names none. */
  appliedAt: string | null;
  history: EditHistory | null;
  /** Why it was refused, why it is not in the catalog, or its error. */
  message: string | null;
}

export interface PullReport {
  catalogUrl: string;
  /** `--check`: nothing was written. */
  check: boolean;
  /** Each file whose contract differs from it (or could not be pulled), in path order. */
  contracts: PulledContract[];
  /** How many files already hold what the catalog holds. */
  unchanged: number;
}

/** The files pull wrote (or, with --check, would write). */
export function pulledFiles(report: PullReport): PulledContract[] {
  return report.contracts.filter((contract) => contract.status === 'pulled');
}
