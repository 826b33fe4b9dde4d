// What changed where since the last apply, field by field: the file as the apply sent it (at the
// commit its marker records), the file now, and the live contract. A field the catalog changed
// is pulled; one git changed too is a conflict (the catalog's value is written, and said); one
// only git changed is a change not applied yet, which pull leaves for apply to send. Pure.
import type { DesiredContract } from '../model/contract.js';
import { jsonEqual, type JsonObject } from '../model/json-value.js';
import type { ContractVersion } from '../model/history.js';
import type { Codec } from '../profile/codec.js';
import { withoutMarker } from '../read/marker.js';
import { differingFields } from './pull-file.js';
import { editsSince } from '../catalog/contract-history.js';
import type { EditHistory } from './types.js';

export interface FieldsSinceApply {
  /** Fields to bring back from the catalog. */
  pull: string[];
  /** Of those, the ones git changed too. */
  conflicts: string[];
  /** Fields only git changed: not applied yet. */
  notApplied: string[];
}

/**
 * The fields where `live` differs from the file now (`current`), told apart by the file as last
 * applied (`applied`; undefined when unknown: every difference is then pulled).
 */
export function fieldsSinceApply(
  current: DesiredContract,
  applied: DesiredContract | undefined,
  live: JsonObject,
  codec: Codec,
): FieldsSinceApply {
  const differing = differingFields(current, live, codec);
  if (applied === undefined) return { pull: differing, conflicts: [], notApplied: [] };
  const catalogChanged = new Set(differingFields(applied, live, codec));
  const now = codec.toWire(withoutMarker(current));
  const then = codec.toWire(withoutMarker(applied));
  const gitChanged = (field: string): boolean => !jsonEqual(now[field], then[field]);
  const pull = differing.filter((field) => catalogChanged.has(field));
  return {
    pull,
    conflicts: pull.filter(gitChanged),
    notApplied: differing.filter((field) => !catalogChanged.has(field)),
  };
}

/**
 * Who changed `fields` in the catalog since it last agreed with `agreed` (the file as applied):
 * the versions after the newest one holding `agreed`'s values of those fields, oldest first, each
 * with the pulled fields it changed.
 */
export function catalogEditsSince(
  versions: readonly ContractVersion[],
  agreed: DesiredContract,
  fields: readonly string[],
  codec: Codec,
): EditHistory {
  const holds = (version: ContractVersion): boolean =>
    !differingFields(agreed, version.document, codec).some((field) => fields.includes(field));
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const agreeing = newestFirst.find(holds);
  const since = agreeing?.version ?? null;
  const edits = editsSince(newestFirst, since ?? -Infinity)
    .map((edit) => ({ ...edit, fields: edit.fields.filter((field) => fields.includes(field)) }))
    .filter((edit) => edit.fields.length > 0);
  return { since, edits };
}
