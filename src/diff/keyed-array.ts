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
export function longestIncreasingSubsequence(sequence: ArrayLike<number>): number[] {
  const n = sequence.length;
  const tails = new Int32Array(n);
  const previous = new Int32Array(n);
  let length = 0;
  for (let i = 0; i < n; i++) {
    const value = sequence[i]!;
    // Most items stand in order: one that extends the longest run so far needs no search.
    let low = length > 0 && sequence[tails[length - 1]!]! < value ? length : 0;
    let high = length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sequence[tails[mid]!]! < value) low = mid + 1;
      else high = mid;
    }
    previous[i] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = i;
    if (low === length) length += 1;
  }
  const result = new Array<number>(length);
  let k = length > 0 ? tails[length - 1]! : -1;
  for (let i = length - 1; i >= 0; i--) {
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
  matchedLive: ArrayLike<number>;
  /** The desired indices diffed against a live item of another key (renames), if any. */
  renamed: ReadonlySet<number>;
}

const NO_RENAMES: ReadonlySet<number> = new Set();

const NONE = -1;

/**
 * Aligns live items with desired ones. Returns undefined when the arrays cannot be keyed
 * (an item without a key, a key the desired items use twice, or one the live items use twice and
 * the desired ones name): then the array is compared whole.
 *
 * The items both sides hold at the same place at the start and at the end (a common prefix and
 * suffix, as a local edit leaves most of them) stay where they are in every longest run, so only
 * the window between them is aligned (alignWindow), its indices then shifted back.
 */
export function alignKeyedArray(
  live: readonly unknown[],
  desired: readonly unknown[],
  keyFields: readonly string[],
): ArrayAlignment | undefined {
  const n = live.length;
  const m = desired.length;
  const liveKeys = new Array<string | undefined>(n);
  for (let i = 0; i < n; i++) liveKeys[i] = itemKey(live[i], keyFields);
  const desiredKeys = new Array<string | undefined>(m);
  for (let j = 0; j < m; j++) desiredKeys[j] = itemKey(desired[j], keyFields);
  // Fast path: the same keys in the same order (most edits leave the order alone).
  if (n === m) {
    let same = true;
    for (let i = 0; i < n && same; i++)
      same = liveKeys[i] !== undefined && liveKeys[i] === desiredKeys[i];
    if (same) {
      const identity = new Int32Array(n);
      for (let i = 0; i < n; i++) identity[i] = i;
      return {
        removals: [],
        moves: [],
        insertions: [],
        matchedLive: identity,
        renamed: NO_RENAMES,
      };
    }
  }
  const limit = Math.min(n, m);
  let prefix = 0;
  while (
    prefix < limit &&
    liveKeys[prefix] !== undefined &&
    liveKeys[prefix] === desiredKeys[prefix]
  )
    prefix += 1;
  let suffix = 0;
  while (
    suffix < limit - prefix &&
    liveKeys[n - 1 - suffix] !== undefined &&
    liveKeys[n - 1 - suffix] === desiredKeys[m - 1 - suffix]
  )
    suffix += 1;
  // Only a window much smaller than the arrays pays for checking the whole arrays apart.
  if (2 * (prefix + suffix) < Math.max(n, m)) {
    prefix = 0;
    suffix = 0;
  } else if (!keyable(liveKeys, desiredKeys)) return undefined;
  const window = alignWindow(
    prefix + suffix === 0 ? liveKeys : liveKeys.slice(prefix, n - suffix),
    prefix + suffix === 0 ? desiredKeys : desiredKeys.slice(prefix, m - suffix),
  );
  if (window === undefined) return undefined;
  const matchedLive = new Int32Array(m);
  for (let j = 0; j < prefix; j++) matchedLive[j] = j;
  for (let j = 0; j < window.matchedLive.length; j++) {
    const i = window.matchedLive[j]!;
    matchedLive[prefix + j] = i === NONE ? NONE : prefix + i;
  }
  for (let k = 0; k < suffix; k++) matchedLive[m - 1 - k] = n - 1 - k;
  return {
    removals: window.removals.map((i) => prefix + i),
    moves: window.moves.map(([from, to]): [number, number] => [prefix + from, prefix + to]),
    insertions: window.insertions.map((j) => prefix + j),
    matchedLive,
    renamed:
      window.renamed.size === 0 || prefix === 0
        ? window.renamed
        : new Set([...window.renamed].map((j) => prefix + j)),
  };
}

/** Each key's index, or undefined when a key is missing or used twice. */
function indexOfKeys(keys: readonly (string | undefined)[]): Map<string, number> | undefined {
  const index = new Map<string, number>();
  for (let j = 0; j < keys.length; j++) {
    const key = keys[j];
    if (key === undefined) return undefined;
    index.set(key, j);
    // One lookup, not two: a key seen before leaves the map as large as it was.
    if (index.size === j) return undefined;
  }
  return index;
}

/**
 * Whether every item of both arrays has a key, no key is used twice among the desired items, and
 * none of theirs twice among the live ones: what keyed alignment needs of the whole arrays.
 */
function keyable(
  liveKeys: readonly (string | undefined)[],
  desiredKeys: readonly (string | undefined)[],
): boolean {
  const named = indexOfKeys(desiredKeys);
  if (named === undefined) return false;
  const matched = new Uint8Array(desiredKeys.length);
  for (const key of liveKeys) {
    if (key === undefined) return false;
    const j = named.get(key);
    if (j === undefined) continue;
    if (matched[j] === 1) return false;
    matched[j] = 1;
  }
  return true;
}

/**
 * The alignment of two lists of keys; undefined when they cannot be keyed (a key missing, a key
 * the desired side uses twice, or one the live side uses twice that the desired side names).
 */
function alignWindow(
  liveKeys: readonly (string | undefined)[],
  desiredKeys: readonly (string | undefined)[],
): ArrayAlignment | undefined {
  const n = liveKeys.length;
  const m = desiredKeys.length;
  const desiredIndexByKey = indexOfKeys(desiredKeys);
  if (desiredIndexByKey === undefined) return undefined;
  // matchedLive[j] = live index for desired j; liveTarget[i] = desired index for live i.
  const matchedLive = new Int32Array(m).fill(NONE);
  const liveTarget = new Int32Array(n).fill(NONE);
  for (let i = 0; i < n; i++) {
    const key = liveKeys[i];
    if (key === undefined) return undefined;
    const j = desiredIndexByKey.get(key);
    if (j === undefined) continue;
    if (matchedLive[j] !== NONE) return undefined; // the live array repeats a key
    matchedLive[j] = i;
    liveTarget[i] = j;
  }

  const anchored = stationary(liveTarget);
  // Renames: within the gap between the same two stationary items, pair removed live items with
  // inserted desired items in order, so each pair becomes an in-place edit instead of remove+add.
  const removedByGap: number[][] = [];
  let gap = 0;
  let anyRemoved = false;
  let renamed: Set<number> | undefined;
  for (let i = 0; i < n; i++) {
    if (anchored[i] === 1) gap += 1;
    else if (liveTarget[i] === NONE) {
      (removedByGap[gap] ??= []).push(i);
      anyRemoved = true;
    }
  }
  if (anyRemoved) {
    gap = 0;
    const taken = new Int32Array(removedByGap.length);
    for (let j = 0; j < m; j++) {
      const i = matchedLive[j]!;
      if (i !== NONE && anchored[i] === 1) gap += 1;
      else if (i === NONE) {
        const candidates = removedByGap[gap];
        if (candidates !== undefined && taken[gap]! < candidates.length) {
          const partner = candidates[taken[gap]!]!;
          taken[gap] = taken[gap]! + 1;
          matchedLive[j] = partner;
          liveTarget[partner] = j;
          (renamed ??= new Set()).add(j);
          // Paired items keep the anchors' order on both sides (same gap, taken in order), so
          // they join the stationary set: any increasing run without them is one of the old
          // ones, so the old longest run plus every pair is still a longest run.
          anchored[partner] = 1;
        }
      }
    }
  }

  const removals: number[] = [];
  for (let i = n - 1; i >= 0; i--) if (liveTarget[i] === NONE) removals.push(i);

  // Working order of the kept items (by desired index) after the removals.
  const working: number[] = [];
  const stays = new Uint8Array(m);
  for (let i = 0; i < n; i++) {
    const j = liveTarget[i]!;
    if (j === NONE) continue;
    working.push(j);
    if (anchored[i] === 1) stays[j] = 1;
  }

  // Place each moving item right after its predecessor among kept items, in desired order; the
  // placed and stationary items then always stand in desired order, so the result is exact.
  const moves: [number, number][] = [];
  let previousKept = NONE;
  for (let j = 0; j < m; j++) {
    if (matchedLive[j] === NONE) continue;
    if (stays[j] === 0) {
      const from = working.indexOf(j);
      working.splice(from, 1);
      const to = previousKept === NONE ? 0 : working.indexOf(previousKept) + 1;
      working.splice(to, 0, j);
      if (from !== to) moves.push([from, to]);
    }
    previousKept = j;
  }

  const insertions: number[] = [];
  for (let j = 0; j < m; j++) if (matchedLive[j] === NONE) insertions.push(j);
  return { removals, moves, insertions, matchedLive, renamed: renamed ?? NO_RENAMES };
}

/** Flags (by live index) the items that stay in place: a longest run already in desired order. */
function stationary(liveTarget: Int32Array): Uint8Array {
  const keptLive = new Int32Array(liveTarget.length);
  const keptTargets = new Int32Array(liveTarget.length);
  let kept = 0;
  for (let i = 0; i < liveTarget.length; i++) {
    if (liveTarget[i] !== NONE) {
      keptLive[kept] = i;
      keptTargets[kept] = liveTarget[i]!;
      kept += 1;
    }
  }
  const flags = new Uint8Array(liveTarget.length);
  for (const k of longestIncreasingSubsequence(keptTargets.subarray(0, kept)))
    flags[keptLive[k]!] = 1;
  return flags;
}
