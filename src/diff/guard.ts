// Guards a minimal patch so that it can only land on the contract it was computed against: a
// `test` of the live version and of the time of its last update first (every stored write moves
// one of them); before every operation that addresses a keyed array item by index, a `test` of
// the key of the item at that index at that point of the patch; and before every operation that
// replaces or removes a text, number or boolean, a `test` of that value. A catalog whose contract
// moved then refuses the whole patch instead of applying it to the wrong items or over a value it
// never showed: the version alone does not say the contract moved, since OpenMetadata folds one
// user's changes within ten minutes into one version, and its 1.10.0–1.13.0 releases must not be
// sent If-Match.
// Pure; the diff itself stays minimal and knows nothing of guards.
import { applyPatch, Pointer } from 'rfc6902';
import { ARRAY_KEYS, REFERENCE_FIELDS } from '../model/contract.js';
import {
  copyJson,
  escapeToken,
  isPlainObject,
  topMember,
  type JsonObject,
} from '../model/json-value.js';
import type { ChangeOperation, Operation } from '../model/operation.js';

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

/** Lists of references: their items are guarded by their keys, never by a value inside them. */
const REFERENCE_LISTS: ReadonlySet<string> = new Set(REFERENCE_FIELDS);

/**
 * The text, number or boolean `op` overwrites or removes in `document`, boxed, when a `test` of it
 * guards the op: not inside a reference (the server adds to those what its GET shows differently)
 * nor under `extension` (whose numbers may be Java Doubles, which a test must write as 1.0).
 */
function overwrittenScalar(document: JsonObject, op: ChangeOperation): { value: unknown } | null {
  if (op.op !== 'replace' && op.op !== 'remove') return null;
  const member = topMember(op.path);
  if (REFERENCE_LISTS.has(member) || member === 'extension') return null;
  // The op's path is there: the patch was made for this document, op by op.
  const current: unknown = Pointer.fromJSON(op.path).get(document);
  return current === null || ['string', 'number', 'boolean'].includes(typeof current)
    ? { value: current }
    : null;
}

/** The fields every stored write moves: the version, and the time of the last update. */
export const STORE_GUARD_PATHS: readonly string[] = ['/version', '/updatedAt'];

/**
 * A `test` of each field every stored write moves that `live` has: its version, which a change
 * folded into the same version (one user's changes within ten minutes on OpenMetadata) does not
 * move, and its updatedAt, which that change does.
 */
export function storeGuards(live: Readonly<JsonObject>): Operation[] {
  return STORE_GUARD_PATHS.flatMap((path) => {
    const value = live[path.slice(1)];
    return typeof value === 'number' ? [{ op: 'test' as const, path, value }] : [];
  });
}

/**
 * `ops` (a patch for `live`) with guards: `test /version` and `test /updatedAt` first when the
 * live contract has them (storeGuards),
 * a `test` of each addressed keyed item's key fields, and a `test` of each text, number or
 * boolean an op replaces or removes. The result applies to `live` exactly as `ops` does.
 */
export function guardPatch(
  live: Readonly<JsonObject>,
  ops: readonly ChangeOperation[],
): Operation[] {
  if (ops.length === 0) return [];
  const guarded: Operation[] = [];
  guarded.push(...storeGuards(live));
  // A working copy, deep only in the arrays the patch reaches, to know which item each index
  // names at its point in the patch.
  const working: JsonObject = { ...live };
  for (const op of ops) {
    for (const pointer of op.op === 'move' ? [op.path, op.from] : [op.path]) {
      const member = topMember(pointer);
      if (Object.hasOwn(live, member) && working[member] === live[member])
        working[member] = copyJson(live[member]);
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
    const overwritten = overwrittenScalar(working, op);
    if (overwritten !== null) guarded.push({ op: 'test', path: op.path, value: overwritten.value });
    guarded.push(op);
    for (const field of tested.keys()) if (reshapes(op, field)) tested.delete(field);
    applyPatch(working, [copyJson(op)] as Parameters<typeof applyPatch>[1]);
  }
  return guarded;
}
