// Guards a minimal patch so that it can only land on the contract it was computed against: a
// `test` of the live version first, and before every operation that addresses a keyed array item
// by index, a `test` of the key of the item at that index at that point of the patch. A catalog
// whose contract moved then refuses the whole patch instead of applying it to the wrong items.
// Pure; the diff itself stays minimal and knows nothing of guards.
import { applyPatch } from 'rfc6902';
import { ARRAY_KEYS } from '../contract/model.js';
import { escapeToken, isPlainObject, topMember, type JsonObject } from './json-value.js';
import type { ChangeOperation, Operation } from './operation.js';

/** `{field, index}` when `pointer` addresses an item (or a place inside it) of a keyed array. */
function keyedItem(pointer: string): { field: string; index: number } | undefined {
  const match = /^\/([^/]+)\/(\d+)(?:\/|$)/.exec(pointer);
  if (match === null) return undefined;
  const field = topMember(pointer);
  return Object.hasOwn(ARRAY_KEYS, field) ? { field, index: Number(match[2]) } : undefined;
}

/**
 * Whether `op` can change which item an index of `/field` names, or an item's key: it adds,
 * removes, moves or replaces an item or the whole array, or writes a key field.
 */
function reshapes(op: ChangeOperation, field: string): boolean {
  const keys = ARRAY_KEYS[field]!;
  return (op.op === 'move' ? [op.path, op.from] : [op.path]).some((pointer) => {
    if (topMember(pointer) !== field) return false;
    const depth = pointer.split('/').length - 1;
    return (
      depth <= 2 || (depth === 3 && keys.includes(pointer.slice(pointer.lastIndexOf('/') + 1)))
    );
  });
}

/**
 * `ops` (a patch for `live`) with guards: `test /version` first when the live contract has one,
 * and a `test` of each addressed keyed item's key fields. The result applies to `live` exactly as
 * `ops` does.
 */
export function guardPatch(
  live: Readonly<JsonObject>,
  ops: readonly ChangeOperation[],
): Operation[] {
  if (ops.length === 0) return [];
  const guarded: Operation[] = [];
  if (typeof live.version === 'number')
    guarded.push({ op: 'test', path: '/version', value: live.version });
  // A working copy, deep only in the arrays the patch reaches, to know which item each index
  // names at its point in the patch.
  const working: JsonObject = { ...live };
  for (const op of ops) {
    for (const pointer of op.op === 'move' ? [op.path, op.from] : [op.path]) {
      const member = topMember(pointer);
      if (Object.hasOwn(live, member) && working[member] === live[member])
        working[member] = structuredClone(live[member]);
    }
  }
  /** Key pointers already tested, by array, still true at this point of the patch. */
  const tested = new Map<string, Set<string>>();
  for (const op of ops) {
    for (const pointer of op.op === 'move' ? [op.from, op.path] : [op.path]) {
      const addressed = keyedItem(pointer);
      if (addressed === undefined) continue;
      const items = working[addressed.field];
      const item = Array.isArray(items) ? (items[addressed.index] as unknown) : undefined;
      if (!isPlainObject(item)) continue;
      let done = tested.get(addressed.field);
      if (done === undefined) tested.set(addressed.field, (done = new Set()));
      for (const keyField of ARRAY_KEYS[addressed.field]!) {
        const value = item[keyField];
        const path = `/${escapeToken(addressed.field)}/${addressed.index}/${escapeToken(keyField)}`;
        if (typeof value !== 'string' || done.has(path)) continue;
        guarded.push({ op: 'test', path, value });
        done.add(path);
      }
    }
    guarded.push(op);
    for (const field of tested.keys()) if (reshapes(op, field)) tested.delete(field);
    applyPatch(working, [structuredClone(op)] as Parameters<typeof applyPatch>[1]);
  }
  return guarded;
}
