// A three-way merge of JSON values, for a file written in another format than the contract's
// model (ODCS): what the model's change made of the file's format (`base` → `want`) is carried
// onto the file as it is (`current`), so that what the file holds beyond the mapping — its own
// keys, its own items — stays. Pure.
import { isPlainObject, jsonEqual } from '../model/json-value.js';

/** The key an array item is matched by; undefined: by position. */
export type MergeKey = (item: unknown) => string | undefined;

/** `current` with the changes from `base` to `want`; items of arrays matched by `keyOf`. */
export function mergeThreeWay(
  current: unknown,
  base: unknown,
  want: unknown,
  keyOf: MergeKey,
): unknown {
  if (jsonEqual(base, want)) return current;
  if (isPlainObject(current) && isPlainObject(base) && isPlainObject(want)) {
    const out: Record<string, unknown> = { ...current };
    for (const key of new Set([...Object.keys(base), ...Object.keys(want)])) {
      if (!Object.hasOwn(want, key)) delete out[key];
      else if (!Object.hasOwn(base, key) || !Object.hasOwn(current, key)) out[key] = want[key];
      else out[key] = mergeThreeWay(current[key], base[key], want[key], keyOf);
    }
    return out;
  }
  if (Array.isArray(current) && Array.isArray(base) && Array.isArray(want))
    return mergeArrays(current, base, want, keyOf);
  return want;
}

function mergeArrays(
  current: unknown[],
  base: unknown[],
  want: unknown[],
  keyOf: MergeKey,
): unknown[] {
  const keys = (items: unknown[]): (string | undefined)[] => items.map(keyOf);
  const [currentKeys, baseKeys, wantKeys] = [keys(current), keys(base), keys(want)];
  const keyed = (list: (string | undefined)[]): boolean =>
    list.every((key) => key !== undefined) && new Set(list).size === list.length;
  // Items that cannot be told apart: the mapping's list, whole.
  if (!keyed(currentKeys) || !keyed(baseKeys) || !keyed(wantKeys)) return want;
  // The items the mapping made, in the order it now makes them, each merged with the file's own;
  // then the file's items the mapping never made, where they were.
  const merged = want.map((item, j) => {
    const key = wantKeys[j];
    const i = currentKeys.indexOf(key);
    const b = baseKeys.indexOf(key);
    return i === -1 ? item : b === -1 ? item : mergeThreeWay(current[i], base[b], item, keyOf);
  });
  current.forEach((item, i) => {
    const key = currentKeys[i];
    if (!baseKeys.includes(key) && !wantKeys.includes(key)) merged.splice(i, 0, item);
  });
  return merged;
}
