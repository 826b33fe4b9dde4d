// Minimal patches for arrays whose items are matched by a key (schema columns by name, ...).
// Removals go highest index first; items that keep their relative order (a longest increasing
// subsequence) stay put and only the others are moved; an item removed and another inserted in
// the same gap is a rename and is diffed in place; new items are inserted at their position.

/** Identity of an item, or undefined when the item cannot be keyed (not an object, key missing). */
export function itemKey(item: unknown, keyFields: readonly string[]): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  if (keyFields.length === 1) {
    const value = record[keyFields[0]!];
    return typeof value === 'string' ? value : undefined;
  }
  let key = '';
  for (const field of keyFields) {
    const value = record[field];
    if (typeof value !== 'string') return undefined;
    key += `${value}\u0000`;
  }
  return key;
}

/** Indices (into `sequence`) of one longest strictly increasing subsequence. O(n log n). */
export function longestIncreasingSubsequence(sequence: readonly number[]): number[] {
  const tails: number[] = [];
  const previous = new Array<number>(sequence.length).fill(-1);
  for (let i = 0; i < sequence.length; i++) {
    const value = sequence[i]!;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sequence[tails[mid]!]! < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  }
  const result = new Array<number>(tails.length);
  let k = tails.length > 0 ? tails[tails.length - 1]! : -1;
  for (let i = tails.length - 1; i >= 0; i--) {
    result[i] = k;
    k = previous[k]!;
  }
  return result;
}

/** The structural plan for one keyed array. */
export interface ArrayAlignment {
  /** Live indices to remove, highest first. */
  removals: number[];
  /** Moves as [from, to] indices, applied in order after the removals. */
  moves: [number, number][];
  /** Desired indices to insert (ascending), after the moves. */
  insertions: number[];
  /** For each desired index, the live index of the item it is diffed against, or -1 if inserted. */
  matchedLive: number[];
}

/**
 * Aligns live items with desired ones. Returns undefined when the live array cannot be keyed
 * (an item without a key, or two items with the same key): then it is compared whole.
 */
export function alignKeyedArray(
  live: readonly unknown[],
  desired: readonly unknown[],
  keyFields: readonly string[],
): ArrayAlignment | undefined {
  const liveKeys: string[] = new Array<string>(live.length);
  const liveIndexByKey = new Map<string, number>();
  for (let i = 0; i < live.length; i++) {
    const key = itemKey(live[i], keyFields);
    if (key === undefined || liveIndexByKey.has(key)) return undefined;
    liveKeys[i] = key;
    liveIndexByKey.set(key, i);
  }
  const desiredKeys: string[] = new Array<string>(desired.length);
  const desiredIndexByKey = new Map<string, number>();
  for (let j = 0; j < desired.length; j++) {
    const key = itemKey(desired[j], keyFields);
    if (key === undefined || desiredIndexByKey.has(key)) return undefined;
    desiredKeys[j] = key;
    desiredIndexByKey.set(key, j);
  }

  // matchedLive[j] = live index for desired j; liveTarget[i] = desired index for live i (-1 = removed).
  const matchedLive = new Array<number>(desired.length).fill(-1);
  const liveTarget = new Array<number>(live.length).fill(-1);
  for (let i = 0; i < live.length; i++) {
    const j = desiredIndexByKey.get(liveKeys[i]!);
    if (j !== undefined) {
      matchedLive[j] = i;
      liveTarget[i] = j;
    }
  }

  let anchors = stationary(liveTarget);
  // Renames: within the gap between the same two stationary items, pair removed live items with
  // inserted desired items in order, so each pair becomes an in-place edit instead of remove+add.
  const removedByGap = new Map<number, number[]>();
  let gap = 0;
  for (let i = 0; i < live.length; i++) {
    if (anchors.has(i)) gap += 1;
    else if (liveTarget[i] === -1) pushTo(removedByGap, gap, i);
  }
  gap = 0;
  let paired = false;
  for (let j = 0; j < desired.length; j++) {
    const i = matchedLive[j]!;
    if (i !== -1 && anchors.has(i)) gap += 1;
    else if (i === -1) {
      const candidates = removedByGap.get(gap);
      const partner = candidates?.shift();
      if (partner !== undefined) {
        matchedLive[j] = partner;
        liveTarget[partner] = j;
        paired = true;
      }
    }
  }
  if (paired) anchors = stationary(liveTarget);

  const removals: number[] = [];
  for (let i = live.length - 1; i >= 0; i--) if (liveTarget[i] === -1) removals.push(i);

  // Working order of the kept items (by desired index) after the removals.
  const working: number[] = [];
  for (let i = 0; i < live.length; i++) if (liveTarget[i] !== -1) working.push(liveTarget[i]!);
  const stationaryTargets = new Set<number>();
  for (const i of anchors) stationaryTargets.add(liveTarget[i]!);

  // Place each moving item right after its predecessor among kept items, in desired order; the
  // placed and stationary items then always stand in desired order, so the result is exact.
  const moves: [number, number][] = [];
  let previousKept = -1;
  for (let j = 0; j < desired.length; j++) {
    if (matchedLive[j] === -1) continue;
    if (!stationaryTargets.has(j)) {
      const from = working.indexOf(j);
      working.splice(from, 1);
      const to = previousKept === -1 ? 0 : working.indexOf(previousKept) + 1;
      working.splice(to, 0, j);
      if (from !== to) moves.push([from, to]);
    }
    previousKept = j;
  }

  const insertions: number[] = [];
  for (let j = 0; j < desired.length; j++) if (matchedLive[j] === -1) insertions.push(j);
  return { removals, moves, insertions, matchedLive };
}

/** Live indices that stay in place: a longest run of kept items already in desired order. */
function stationary(liveTarget: readonly number[]): Set<number> {
  const keptLive: number[] = [];
  const keptTargets: number[] = [];
  for (let i = 0; i < liveTarget.length; i++) {
    if (liveTarget[i] !== -1) {
      keptLive.push(i);
      keptTargets.push(liveTarget[i]!);
    }
  }
  const lis = longestIncreasingSubsequence(keptTargets);
  return new Set(lis.map((k) => keptLive[k]!));
}

function pushTo(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
