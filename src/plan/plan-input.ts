// What the planner is given for one contract file (read before, by contract-inputs.ts), and how
// it is asked to plan.
import type { ContractFile } from '../contract/parse.js';
import type { JsonObject } from '../model/json-value.js';
import type { Found } from '../model/finding.js';
import type { PolicyCheck } from '../policy/policies.js';
import type { Codec } from '../profile/codec.js';
import type { ReferenceIds } from '../profile/references.js';
import type { AssetRules } from './asset-rules.js';
import type { LackingColumns } from './refusal-text.js';

/** What was read from the catalog for one contract file. */
export type LiveResult =
  | { kind: 'found'; contract: JsonObject & { id: string; version: number } }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

export interface PlanInput {
  file: ContractFile;
  /**
   * The file without the marker this run adds to a live contract that carries none of the tool's
   * (read/marker.ts): what is planned when the marker would be the only change, so that adopting
   * a catalog plans back to no changes; the marker then rides along with the first real change.
   */
  unmarked?: ContractFile;
  /** Why no marker is written for the file (no checkout, an origin no forge's): said with a change. */
  unmarkedBecause?: string;
  live: LiveResult;
  /** Notes found while reading (inheritance, skipped checks). */
  notes?: string[];
  /** Warnings found while reading: types that differ from the asset's, what stays only in git. */
  warnings?: Found[];
  /** The asset itself is missing from the catalog. */
  assetError?: string;
  /** The asset's id, when it was found (a contract the catalog lacks is created on it). */
  assetId?: string;
  /** The asset's columns tagged PII, for the policies that ask. */
  piiColumns?: string[];
  /** Columns of the file its asset lacks, which the catalog refuses. */
  lackingColumns?: LackingColumns;
  /**
   * The ids of the users, teams and test cases the file names (a catalog that stores references
   * by id), for what is sent.
   */
  referenceIds?: ReferenceIds;
  /**
   * Why they could not all be found, and what the catalog refuses in the file's `extension`:
   * said with whatever else the catalog would refuse in the contract.
   */
  referenceError?: Found;
  /**
   * Why the catalog would refuse to create the contract the catalog lacks: its asset's own
   * contract has another name, or a deleted contract keeps this one's.
   */
  createBlocked?: string;
  /**
   * What the asset's contract in force takes from its data product (the catalog's wire shape):
   * the team's policies weigh the contract in force, and say where a value comes from.
   */
  inherited?: { product: string; values: JsonObject };
  /** The catalog's data asset rules in force for data contracts (OpenMetadata), or why unknown. */
  assetRules?: AssetRules;
}

export interface PlanOptions {
  /** Live-asset warnings are errors. */
  strict?: boolean;
  /** The connected catalog's codec (the spec profile's by default). */
  codec?: Codec;
  /** The team's policies (`policies:` of .contracts.yaml), checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /**
   * Hash each live contract read (`liveHash`), which a saved plan and apply are checked against
   * (default true). A plan that is only shown, never saved or applied, leaves it null: with the
   * plan's checksum, made only when read, that is about 5% of the CPU of a plan of 10,000.
   */
  sealed?: boolean;
}
