// A codec per catalog profile: the contract file is one format; each profile stores it in its own
// wire shape. Diff and verification run on wire shapes (toWire of the file, the live contract as
// read); breaking-change rules, import and rendering run on the file's model (fromWire).
import type { DesiredContract, Shape } from '../model/contract.js';
import { positionOf, type ContractFile } from '../contract/parse.js';
import type { Problem } from '../model/problem.js';
import type { JsonObject } from '../model/json-value.js';
import type { Found } from '../model/finding.js';
import type { Profile } from '../model/profile.js';
import type { ReferenceIds } from './references.js';
import type { ReleaseVersion } from './releases.js';

/** A value a catalog cannot store: where it is in the contract, and what to do about it. */
export interface Unstorable {
  pointer: string;
  message: string;
}

/** A field of a live contract the catalog refuses on every PATCH (Codec.refusedLive). */
export interface RefusedLive {
  field: string;
  /** Why the catalog refuses it, as a clause. */
  why: string;
  /** What the file can say to remove or replace it with the change, as a clause. */
  mend: string;
}

export interface Codec {
  readonly profile: Profile;
  /** The OpenMetadata release connected to, as it reports itself (null: the spec, or not said). */
  readonly release: ReleaseVersion;
  /**
   * Whether a PATCH carries the `If-Match` of the contract it was made from: not to an
   * OpenMetadata release that drops contract changes sent with it (releases.ts).
   */
  readonly sendsIfMatch: boolean;
  /** Declared shapes of the managed fields on the wire (server-added properties are ignored). */
  readonly shapes: ReadonlyMap<string, Shape>;
  /** The statuses this catalog stores. */
  readonly statuses: readonly string[];
  /** The values of a valid contract this catalog cannot store (see storageProblems). */
  unstorable(contract: DesiredContract): Unstorable[];
  /**
   * The values the connected release refuses that a newer one stores (`Archived` before
   * OpenMetadata 1.13.0), each naming the release; known once the catalog said which it is.
   */
  refusedByRelease?(contract: DesiredContract): Found[];
  /**
   * What of a PATCH leading from `live` to `patched` (both in the wire's shape) this catalog would
   * answer and not keep, as one warning at the first thing it names (a pointer into `patched`,
   * whose columns are in the file's order); undefined when it keeps all of it.
   */
  unkept?(live: JsonObject, patched: JsonObject): Found | undefined;
  /**
   * The fields of `live` (the wire's shape) this catalog refuses as they are, which it checks on
   * every PATCH, and which `desired` leaves as they are (sets no value for them): the contract can
   * then take no change. Each with why, and how a file mends it with the change.
   */
  refusedLive?(live: JsonObject, desired: DesiredContract): RefusedLive[];
  /** The desired contract in the catalog's wire shape; only for a file without problems. */
  toWire(desired: DesiredContract): DesiredContract;
  /** A live contract with its managed fields in the file's model. */
  fromWire(live: JsonObject): JsonObject;
  /**
   * Whether this catalog stores references by id, so that what is sent carries the id of each
   * user, team and test case a contract names (looked up by name when the live contract lacks it).
   */
  readonly referencesById: boolean;
  /**
   * The body of `POST /v1/dataContracts` that creates the desired contract on `asset`, its
   * references carrying the ids in `ids`.
   */
  createBody(
    desired: DesiredContract,
    asset: { id: string; type: string },
    ids?: ReferenceIds,
  ): JsonObject;
}

/** The managed fields a file sets (not null), as a create body carries them. */
export function setFields(contract: JsonObject, managed: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const field of managed)
    if (contract[field] !== undefined && contract[field] !== null) out[field] = contract[field];
  return out;
}

/** `found` in `file` (`codec.unstorable` of its contract) as problems, each at its position. */
export function storageProblems(file: ContractFile, found: readonly Unstorable[]): Problem[] {
  return found.map(({ pointer, message }) => {
    const at = positionOf(file, pointer, true);
    return { file: file.file, line: at.line, column: at.column, path: pointer, message };
  });
}
