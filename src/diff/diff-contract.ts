// Computes the smallest RFC 6902 patch that turns a live contract's managed fields into the
// desired ones, following the ownership rule: unmanaged, identity and server-owned fields and
// server-added properties are never touched.
import {
  FIELD_SHAPES,
  MANAGED_FIELDS,
  type DesiredContract,
  type Shape,
} from '../model/contract.js';
import { escapeToken, isPlainObject, type JsonObject } from '../model/json-value.js';
import { alignKeyedArray } from './keyed-array.js';
import type { ChangeOperation as Operation } from '../model/operation.js';
import {
  hasServerProperties,
  noItems,
  projectsTo,
  propertyList,
  withServerProperties,
} from './project.js';

function opSize(op: Operation): number {
  return JSON.stringify(op).length;
}

/** Appends to `ops` the operations that turn `live` (present) into `desired` at `path`. */
function diffValue(
  live: unknown,
  desired: unknown,
  shape: Shape,
  path: string,
  ops: Operation[],
): void {
  if (shape.kind === 'object' && isPlainObject(live) && isPlainObject(desired)) {
    diffObject(live, desired, shape, path, ops);
    return;
  }
  if (
    shape.kind === 'array' &&
    shape.key !== null &&
    Array.isArray(live) &&
    Array.isArray(desired)
  ) {
    if (diffKeyedArray(live, desired, shape, shape.key, path, ops)) return;
  }
  if (!projectsTo(live, desired, shape)) {
    ops.push({ op: 'replace', path, value: withServerProperties(live, desired, shape) });
  }
}

function diffObject(
  live: JsonObject,
  desired: JsonObject,
  shape: Extract<Shape, { kind: 'object' }>,
  path: string,
  ops: Operation[],
): void {
  let leafOps: Operation[] | undefined;
  const properties = propertyList(shape);
  for (let k = 0; k < properties.length; k++) {
    const [name, child] = properties[k]!;
    const desiredValue = desired[name];
    // A null property is absent: nothing to remove, and `add` sets it.
    const liveValue = live[name] === null ? undefined : live[name];
    // Equal primitives (and two absent values) are the common case: nothing to build.
    if (desiredValue === liveValue) continue;
    leafOps ??= [];
    const childPath = `${path}/${escapeToken(name)}`;
    if (desiredValue === undefined) leafOps.push({ op: 'remove', path: childPath });
    else if (liveValue === undefined)
      leafOps.push({ op: 'add', path: childPath, value: desiredValue });
    else if (
      child.kind === 'opaque' &&
      (desiredValue === null || typeof desiredValue !== 'object')
    ) {
      leafOps.push({ op: 'replace', path: childPath, value: desiredValue });
    } else diffValue(liveValue, desiredValue, child, childPath, leafOps);
  }
  if (leafOps === undefined || leafOps.length === 0) return;
  // One replace of the whole object when that is fewer operations (tie: fewer bytes).
  const whole: Operation = {
    op: 'replace',
    path,
    value: withServerProperties(live, desired, shape),
  };
  if (leafOps.length > 1 || opSize(whole) < opSize(leafOps[0]!)) ops.push(whole);
  else ops.push(...leafOps);
}

/** Returns false when the live array cannot be keyed; the caller then compares it whole. */
function diffKeyedArray(
  live: readonly unknown[],
  desired: readonly unknown[],
  shape: Extract<Shape, { kind: 'array' }>,
  keyFields: readonly string[],
  path: string,
  ops: Operation[],
): boolean {
  const alignment = alignKeyedArray(live, desired, keyFields);
  if (alignment === undefined) return false;
  for (const index of alignment.removals) ops.push({ op: 'remove', path: `${path}/${index}` });
  for (const [from, to] of alignment.moves)
    ops.push({ op: 'move', from: `${path}/${from}`, path: `${path}/${to}` });
  let length = live.length - alignment.removals.length;
  for (const j of alignment.insertions) {
    ops.push({ op: 'add', path: j === length ? `${path}/-` : `${path}/${j}`, value: desired[j] });
    length += 1;
  }
  for (let j = 0; j < desired.length; j++) {
    const i = alignment.matchedLive[j]!;
    if (i === -1) continue;
    // A renamed item (another key in the same place) is another column, owner or rule. When the
    // server added properties to the old one (a reference's id, a column's fullyQualifiedName),
    // which name the old entity, it is replaced whole by the desired one, keeping none of them.
    if (alignment.renamed.has(j) && hasServerProperties(live[i], shape.items))
      ops.push({ op: 'replace', path: `${path}/${j}`, value: desired[j] });
    else diffValue(live[i], desired[j], shape.items, `${path}/${j}`, ops);
  }
  return true;
}

/**
 * The minimal patch from `liveContract` (as the catalog returns it) to `desiredContract` (as
 * the file states it, in the catalog's wire shape: `shapes` declares what the catalog stores,
 * the file's own shapes by default). Only managed fields (those the file sets) are compared; `null` in the
 * file removes the field. Identity (name, fullyQualifiedName, entity) is checked by the planner,
 * not patched here. Pure and synchronous; the inputs are not modified.
 */
export function diffContract(
  liveContract: Readonly<JsonObject>,
  desiredContract: Readonly<DesiredContract>,
  shapes: ReadonlyMap<string, Shape> = FIELD_SHAPES,
): Operation[] {
  const ops: Operation[] = [];
  for (const field of MANAGED_FIELDS) {
    const desiredValue = desiredContract[field];
    if (desiredValue === undefined) continue;
    const liveValue = liveContract[field];
    const path = `/${field}`;
    const shape = shapes.get(field)!;
    // An empty list is no list: "no owners" is what a catalog holding none says, whichever way.
    if (noItems(desiredValue, shape) && noItems(liveValue, shape)) continue;
    if (desiredValue === null) {
      if (liveValue !== undefined) ops.push({ op: 'remove', path });
    } else if (liveValue === undefined) {
      ops.push({ op: 'add', path, value: desiredValue });
    } else {
      diffValue(liveValue, desiredValue, shape, path, ops);
    }
  }
  return ops;
}
