// The entities a contract names by reference (owners, reviewers, quality expectations) and the ids
// OpenMetadata knows them by. A file names them by name; what is sent carries their ids, found on
// the live contract or looked up by name before anything is sent.
import { REFERENCE_FIELDS } from '../model/contract.js';
import type { ChangeOperation } from '../model/operation.js';
import { isPlainObject, type JsonObject } from '../model/json-value.js';

export { REFERENCE_FIELDS };

/** The kinds of entity a contract's references name. */
export type ReferenceType = 'user' | 'team' | 'testCase';

export type ReferenceField = (typeof REFERENCE_FIELDS)[number];

/** One reference of a contract: where it is, and the entity it names. */
export interface NamedReference {
  field: ReferenceField;
  index: number;
  type: ReferenceType;
  fullyQualifiedName: string;
}

/** Ids by referenceKey. */
export type ReferenceIds = ReadonlyMap<string, string>;

export const referenceKey = (type: string, fullyQualifiedName: string): string =>
  `${type}\u0000${fullyQualifiedName}`;

/** The entity `item` of `field` names (a user's or team's FQN is its name), if it names one. */
function named(
  field: ReferenceField,
  item: unknown,
): { type: ReferenceType; fullyQualifiedName: string } | undefined {
  if (!isPlainObject(item)) return undefined;
  const type = field === 'qualityExpectations' ? 'testCase' : item.type;
  const fqn = field === 'qualityExpectations' ? item.fullyQualifiedName : item.name;
  if ((type !== 'user' && type !== 'team' && type !== 'testCase') || typeof fqn !== 'string')
    return undefined;
  return { type, fullyQualifiedName: fqn };
}

/** Every reference of `contract` (the file's model or the catalog's), in field order. */
export function namedReferences(contract: JsonObject): NamedReference[] {
  const found: NamedReference[] = [];
  for (const field of REFERENCE_FIELDS) {
    const list = contract[field];
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => {
      const entity = named(field, item);
      if (entity !== undefined) found.push({ field, index, ...entity });
    });
  }
  return found;
}

/** Adds to `ids` the id each of `items` (references of `field`) carries. */
function collectIds(ids: Map<string, string>, field: ReferenceField, items: unknown[]): void {
  for (const item of items) {
    const entity = named(field, item);
    if (entity !== undefined && isPlainObject(item) && typeof item.id === 'string')
      ids.set(referenceKey(entity.type, entity.fullyQualifiedName), item.id);
  }
}

/** The ids a stored contract's references carry. */
export function storedReferenceIds(live: JsonObject): Map<string, string> {
  const ids = new Map<string, string>();
  for (const field of REFERENCE_FIELDS) {
    const list = live[field];
    if (Array.isArray(list)) collectIds(ids, field, list);
  }
  return ids;
}

/** `item` of `field` with the id of the entity it names first, when `ids` has it. */
function withId(field: ReferenceField, item: unknown, ids: ReferenceIds): unknown {
  const entity = named(field, item);
  if (entity === undefined || !isPlainObject(item) || item.id !== undefined) return item;
  const id = ids.get(referenceKey(entity.type, entity.fullyQualifiedName));
  return id === undefined ? item : { id, ...item };
}

/** A field's value (its list of references) with their ids. */
export function referencesWithIds(
  field: ReferenceField,
  value: unknown,
  ids: ReferenceIds,
): unknown {
  return Array.isArray(value) ? value.map((item) => withId(field, item, ids)) : value;
}

const REFERENCE_PATH = /^\/(owners|reviewers|qualityExpectations)(\/(?:0|[1-9]\d*|-))?$/;

/**
 * `ops` with the ids of the references they add or replace: a whole list (`/owners`) or one of
 * its items (`/owners/2`, `/owners/-`). Nothing else changes, so what the diff engine made and
 * verification checks stays as it is on the fields the diff compares.
 */
export function operationsWithIds(
  ops: readonly ChangeOperation[],
  ids: ReferenceIds,
): ChangeOperation[] {
  return ops.map((op) => {
    if (op.op !== 'add' && op.op !== 'replace') return op;
    const match = REFERENCE_PATH.exec(op.path);
    if (match === null) return op;
    const field = match[1] as ReferenceField;
    const value =
      match[2] === undefined
        ? referencesWithIds(field, op.value, ids)
        : withId(field, op.value, ids);
    return value === op.value ? op : { ...op, value };
  });
}

/** The ids that the references `ops` add or replace carry (a planned patch's, to send again). */
export function idsOfOperations(
  ops: readonly { op: string; path: string; value?: unknown }[],
): Map<string, string> {
  const ids = new Map<string, string>();
  for (const op of ops) {
    const match = op.op === 'add' || op.op === 'replace' ? REFERENCE_PATH.exec(op.path) : null;
    if (match === null) continue;
    const whole = match[2] === undefined && Array.isArray(op.value);
    collectIds(ids, match[1] as ReferenceField, whole ? (op.value as unknown[]) : [op.value]);
  }
  return ids;
}
