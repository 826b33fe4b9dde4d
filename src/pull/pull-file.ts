// One file pulled: the fields its live contract holds otherwise than the file (those the file
// sets, as plan compares them), the file's text edited to hold the catalog's values there and
// nowhere else, and the proof that it does: the new text is read as every command reads a file
// and planned against the same live contract, which must leave nothing to change in those
// fields. Pure: the file's text and the live contract in, the new text out.
import { ARRAY_KEYS, FIELD_SHAPES, type DesiredContract } from '../model/contract.js';
import { isPlainObject, topMember, type JsonObject } from '../model/json-value.js';
import { diffContract } from '../diff/diff-contract.js';
import { project } from '../diff/project.js';
import { parseContract } from '../contract/parse.js';
import { contractForProfile } from '../contract/odcs-file.js';
import { toOdcs } from '../contract/to-odcs.js';
import type { Codec } from '../profile/codec.js';
import { withoutMarker } from '../read/marker.js';
import { mergeThreeWay } from './three-way.js';
import { editYaml, yamlValue, type ItemKey } from './yaml-edit.js';

export interface FileToPull {
  /** The file's path, as it is read (an ODCS file is told by its name or its content). */
  file: string;
  text: string;
  /** The file's contract, in the file's model (an ODCS file's as read). */
  contract: DesiredContract;
  format: 'native' | 'odcs';
  /** The live contract, as the catalog answered it. */
  live: JsonObject;
  codec: Codec;
  /** Pull only these of the differing fields (default: all of them). */
  only?: readonly string[];
}

export type FilePulled =
  | { kind: 'same' }
  | {
      kind: 'pulled';
      /** The top-level fields whose values came from the catalog. */
      fields: string[];
      text: string;
      /** The file was written again whole (its layout changed, its comments kept). */
      rewritten: boolean;
      /** Fields the file's format cannot hold as the catalog does, each with why (ODCS). */
      leftOut: string[];
    }
  | { kind: 'refused'; fields: string[]; reason: string };

/** The top-level fields where `live` differs from `contract`, as plan compares them. */
export function differingFields(
  contract: DesiredContract,
  live: JsonObject,
  codec: Codec,
): string[] {
  const ops = diffContract(
    withoutMarker(live),
    codec.toWire(withoutMarker(contract)),
    codec.shapes,
  );
  return [...new Set(ops.map((op) => topMember(op.path)))];
}

/** The catalog's values of `fields`, in the file's model: a list emptied, a value gone unset. */
function catalogValues(live: JsonObject, fields: readonly string[], codec: Codec): JsonObject {
  const model = withoutMarker(codec.fromWire(live));
  const values: JsonObject = {};
  for (const field of fields) {
    const shape = FIELD_SHAPES.get(field);
    const value = model[field];
    if (shape === undefined) continue;
    if (value !== undefined && value !== null) values[field] = project(value, shape);
    else if (shape.kind === 'array') values[field] = [];
  }
  return values;
}

/** `contract` holding the catalog's `values` of `fields` (a field without one: unset). */
function withValues(
  contract: JsonObject,
  fields: readonly string[],
  values: JsonObject,
): JsonObject {
  const out: JsonObject = { ...contract };
  for (const field of fields) {
    if (Object.hasOwn(values, field)) out[field] = values[field];
    else delete out[field];
  }
  return out;
}

/** Items of the file's model matched by the keys plan matches them by (columns by name, ...). */
const nativeKey: ItemKey = (path, item) => {
  const keys = path.length === 1 ? ARRAY_KEYS[String(path[0])] : undefined;
  if (keys === undefined || !isPlainObject(item)) return undefined;
  return JSON.stringify(keys.map((key) => item[key] ?? null));
};

/** Items of an ODCS document matched by their name (a member's username, a property's name). */
function odcsKey(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  if (typeof item.name === 'string') return `name:${item.name}`;
  if (typeof item.username === 'string') return `username:${item.username}`;
  if (typeof item.property === 'string') return `property:${item.property}`;
  return undefined;
}

/** The file's value holding the catalog's, and what its format cannot hold. */
function newValue(
  input: FileToPull,
  current: JsonObject,
  fields: readonly string[],
): { value: JsonObject; leftOut: string[] } {
  const values = catalogValues(input.live, fields, input.codec);
  if (input.format === 'native') return { value: withValues(current, fields, values), leftOut: [] };
  const said = (value: unknown): string =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const identity = { id: said(current.id), version: said(current.version) };
  const profile = input.codec.profile;
  const base = toOdcs(input.contract, identity, profile);
  const want = toOdcs(
    withValues(input.contract, fields, values) as DesiredContract,
    identity,
    profile,
  );
  const value = mergeThreeWay(current, base.document, want.document, odcsKey) as JsonObject;
  const leftOut = want.leftOut.filter(
    (said) => !base.leftOut.includes(said) && fields.some((field) => said.startsWith(field)),
  );
  return { value, leftOut };
}

/** `input`'s file edited to hold the catalog's values where they differ; or why it cannot be. */
export function pullFile(input: FileToPull): FilePulled {
  const only = input.only;
  const fields = differingFields(input.contract, input.live, input.codec).filter(
    (field) => only === undefined || only.includes(field),
  );
  if (fields.length === 0) return { kind: 'same' };
  const refused = (reason: string): FilePulled => ({ kind: 'refused', fields, reason });
  let current: JsonObject;
  try {
    current = yamlValue(input.text);
  } catch (error) {
    return refused((error as Error).message);
  }
  const { value, leftOut } = newValue(input, current, fields);
  let edited: { text: string; rewritten: boolean };
  try {
    edited = editYaml(
      input.text,
      value,
      input.format === 'native' ? nativeKey : (_, item) => odcsKey(item),
    );
  } catch (error) {
    return refused((error as Error).message);
  }
  // The proof: the new text, read as plan reads it, leaves nothing to change in those fields.
  const read = parseContract(edited.text, input.file);
  if (!read.ok)
    return refused(
      `the file would not validate with the catalog's values (${read.problems[0]!.message}); it is left as it is`,
    );
  const unheld = new Set(leftOut.map((said) => said.split(' ')[0]!));
  const still = differingFields(
    contractForProfile(read.value, input.codec.profile),
    input.live,
    input.codec,
  ).filter((field) => fields.includes(field) && !unheld.has(field));
  if (still.length > 0)
    return refused(
      `the file would still differ from the catalog in ${still.join(', ')} with the catalog's values written; it is left as it is`,
    );
  return { kind: 'pulled', fields, text: edited.text, rewritten: edited.rewritten, leftOut };
}
