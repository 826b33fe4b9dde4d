// The managed projection of a value: only the properties the contract schema declares.
// Whatever else a live value holds was added by the server and is neither compared nor removed.
import type { Shape } from '../model/contract.js';
import { isPlainObject, jsonEqual, setOwn, type JsonObject } from '../model/json-value.js';

/** Each object shape's properties as a list, made once: walked for every item of every array. */
const propertyLists = new WeakMap<Shape, readonly (readonly [string, Shape])[]>();

/** `shape`'s declared properties and their shapes, as a list (a Map's entries, kept). */
export function propertyList(
  shape: Extract<Shape, { kind: 'object' }>,
): readonly (readonly [string, Shape])[] {
  let list = propertyLists.get(shape);
  if (list === undefined) {
    list = [...shape.properties];
    propertyLists.set(shape, list);
  }
  return list;
}

/**
 * `value` cut to the properties `shape` declares, each mapping's in the schema's order; with
 * `order` 'own', in `value`'s own order instead: a live contract cut to what a file holds, for a
 * file written in the catalog's order.
 */
export function project(value: unknown, shape: Shape, order: 'schema' | 'own' = 'schema'): unknown {
  if (shape.kind === 'object' && isPlainObject(value)) {
    const out: JsonObject = {};
    // A declared property that is null is absent, as far as the contract is concerned.
    if (order === 'schema') {
      for (const [name, child] of propertyList(shape)) {
        const inner = value[name];
        if (inner !== undefined && inner !== null) out[name] = project(inner, child);
      }
    } else {
      for (const [name, inner] of Object.entries(value)) {
        const child = shape.properties.get(name);
        if (child !== undefined && inner !== undefined && inner !== null)
          out[name] = project(inner, child, order);
      }
    }
    return out;
  }
  if (shape.kind === 'array' && Array.isArray(value))
    return value.map((item) => project(item, shape.items, order));
  return value;
}

/**
 * Whether `project(value, shape)` equals `want` (jsonEqual), without building the projection:
 * the common question of planning, asked of every contract.
 */
export function projectsTo(value: unknown, want: unknown, shape: Shape): boolean {
  if (shape.kind === 'object' && isPlainObject(value)) {
    if (!isPlainObject(want)) return false;
    let present = 0;
    const properties = propertyList(shape);
    for (let k = 0; k < properties.length; k++) {
      const [name, child] = properties[k]!;
      const inner = value[name];
      if (inner === undefined || inner === null) continue;
      present += 1;
      if (!Object.hasOwn(want, name) || !projectsTo(inner, want[name], child)) return false;
    }
    return present === Object.keys(want).length;
  }
  if (shape.kind === 'array' && Array.isArray(value)) {
    if (!Array.isArray(want) || want.length !== value.length) return false;
    for (let i = 0; i < value.length; i++)
      if (!projectsTo(value[i], want[i], shape.items)) return false;
    return true;
  }
  return jsonEqual(value, want);
}

/** Whether `value` holds properties `shape` does not declare: ones the server added. */
export function hasServerProperties(value: unknown, shape: Shape): boolean {
  if (shape.kind !== 'object' || !isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!shape.properties.has(key)) return true;
  return false;
}

/** `desired` with the server-added properties of `live` kept, for replacing a whole object. */
export function withServerProperties(live: unknown, desired: unknown, shape: Shape): unknown {
  if (shape.kind !== 'object' || !isPlainObject(live) || !isPlainObject(desired)) return desired;
  let merged: JsonObject | undefined;
  for (const key of Object.keys(live)) {
    if (!shape.properties.has(key)) {
      merged ??= { ...desired };
      setOwn(merged, key, live[key]);
    }
  }
  return merged ?? desired;
}

/**
 * Whether `value`, a top-level field of `shape`, holds no items: a list field that is absent,
 * null or empty. OpenMetadata answers `[]` for owners and reviewers a contract has none of, and
 * counts no change between an empty list and none, so a PATCH between the two would be dropped.
 */
export function noItems(value: unknown, shape: Shape): boolean {
  return (
    shape.kind === 'array' &&
    (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
  );
}
