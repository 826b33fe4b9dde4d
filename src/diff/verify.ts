// Checks a patch before it is sent: applied to a copy of the live contract by an independent
// RFC 6902 implementation, it must give exactly the desired managed state and leave everything
// else as it was. A failure is a bug in the diff engine, never something to send.
import { applyPatch } from 'rfc6902';
import {
  FIELD_SHAPES,
  MANAGED_FIELDS,
  type DesiredContract,
  type Shape,
} from '../model/contract.js';
import { InternalError } from '../model/errors.js';
import {
  copyJson,
  isPlainObject,
  jsonEqual,
  own,
  topMember,
  type JsonObject,
} from '../model/json-value.js';
import { itemKey } from './keyed-array.js';
import type { Operation } from '../model/operation.js';
import { noItems, project, projectsTo } from './project.js';

/** Applies `ops` to a deep copy of `live` with the rfc6902 library; throws on any failing op. */
export function applyToCopy(live: Readonly<JsonObject>, ops: readonly Operation[]): JsonObject {
  // Nothing to apply: the live contract itself is the result (callers never modify it).
  if (ops.length === 0) return live;
  // A copy deep only where the patch can reach: the top-level members its paths name. The rest
  // is shared with `live`, which no operation addresses, so neither is modified.
  const copy: JsonObject = { ...live };
  for (const op of ops) {
    for (const pointer of 'from' in op ? [op.path, op.from] : [op.path]) {
      const member = topMember(pointer);
      if (Object.hasOwn(live, member) && copy[member] === live[member])
        copy[member] = copyJson(live[member]);
    }
  }
  const results = applyPatch(copy, ops as Parameters<typeof applyPatch>[1]);
  const failed = results.findIndex((result) => result !== null);
  if (failed !== -1) {
    throw new InternalError(
      `patch operation ${failed} (${JSON.stringify(ops[failed])}) does not apply to the live contract: ${results[failed]!.name}`,
    );
  }
  return copy;
}

/** Whether every server-added property of `live` is still in `after` (recursively, by key). */
function serverPropertiesKept(live: unknown, after: unknown, shape: Shape): boolean {
  if (shape.kind === 'object' && isPlainObject(live) && isPlainObject(after)) {
    for (const [key, value] of Object.entries(live)) {
      const child = shape.properties.get(key);
      if (child === undefined) {
        if (!jsonEqual(value, own(after, key))) return false;
      } else if (
        own(after, key) !== undefined &&
        !serverPropertiesKept(value, own(after, key), child)
      )
        return false;
    }
    return true;
  }
  if (shape.kind === 'array' && shape.key !== null && Array.isArray(live) && Array.isArray(after)) {
    const afterByKey = new Map<string, unknown>();
    for (const item of after) {
      const key = itemKey(item, shape.key);
      if (key !== undefined) afterByKey.set(key, item);
    }
    for (const item of live) {
      const key = itemKey(item, shape.key);
      const match = key === undefined ? undefined : afterByKey.get(key);
      if (match !== undefined && !serverPropertiesKept(item, match, shape.items)) return false;
    }
  }
  return true;
}

/**
 * Throws InternalError unless applying `ops` to `live` gives the desired managed fields, leaves
 * unmanaged and server-owned fields unchanged and keeps server-added properties. Returns the
 * patched copy.
 */
export function verifyPatch(
  live: Readonly<JsonObject>,
  desired: Readonly<DesiredContract>,
  ops: readonly Operation[],
  shapes: ReadonlyMap<string, Shape> = FIELD_SHAPES,
): JsonObject {
  const after = applyToCopy(live, ops);
  const managed = new Set(MANAGED_FIELDS.filter((field) => desired[field] !== undefined));
  for (const field of managed) {
    const want = desired[field];
    const shape = shapes.get(field)!;
    // No items wanted and none there (an empty list is no list): nothing to check.
    if (noItems(want, shape) && noItems(after[field], shape)) continue;
    if (want === null) {
      if (field in after)
        throw new InternalError(`patch leaves ${field} in place, but the file removes it`);
      continue;
    }
    if (!projectsTo(after[field], want, shape)) {
      throw new InternalError(
        `patch does not give the desired ${field}: got ${JSON.stringify(project(after[field], shape))}`,
      );
    }
    // Nothing was applied: the live contract is the result, so nothing else can have changed.
    if (ops.length === 0) continue;
    if (!serverPropertiesKept(live[field], after[field], shape)) {
      throw new InternalError(`patch removes properties the server added inside ${field}`);
    }
  }
  if (ops.length === 0) return after;
  for (const key of new Set([...Object.keys(live), ...Object.keys(after)])) {
    if (managed.has(key)) continue;
    if (!jsonEqual(own(live, key), own(after, key)))
      throw new InternalError(`patch changes ${key}, which the file does not manage`);
  }
  return after;
}
