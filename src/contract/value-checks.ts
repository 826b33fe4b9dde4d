// Checks on a contract's values that JSON Schema cannot make: numbers JSON cannot carry,
// forbidden keys however written, nesting depth, and repeated keys of keyed list items.
import type { Document } from 'yaml';
import { ARRAY_KEYS } from '../model/contract.js';
import { locate, nodeStart, type Position, type Segment } from './positions.js';
import { dottedPath, type Problem } from '../model/problem.js';

/** Keys no contract may hold, however they are written. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);
/** Deepest nesting of mappings and lists a contract file may have, in every command. */
export const MAX_NESTING = 64;
export const NESTING_MESSAGE = `nesting deeper than ${MAX_NESTING} levels; a contract file needs only a few`;

type OddNode = {
  segments: Segment[];
  kind: 'non-finite' | 'forbidden-key' | 'too-deep';
  value: unknown;
};

/**
 * Values a contract may not hold, however the YAML wrote them, in document order and at most
 * `max`: numbers JSON cannot carry (Infinity, NaN), forbidden keys (`__proto__`, also when written
 * with escapes), and nesting deeper than MAX_NESTING. Iterative, so no input can exhaust the stack.
 */
function oddNodes(value: unknown, max: number): OddNode[] {
  const found: OddNode[] = [];
  const stack: { node: unknown; segments: Segment[] }[] = [{ node: value, segments: [] }];
  while (stack.length > 0 && found.length < max) {
    const { node, segments } = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) found.push({ segments, kind: 'non-finite', value: node });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (segments.length >= MAX_NESTING) {
      found.push({ segments, kind: 'too-deep', value: node });
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        stack.push({ node: node[i], segments: [...segments, i] });
      continue;
    }
    if (Object.getPrototypeOf(node) !== Object.prototype) {
      found.push({ segments: [...segments, '__proto__'], kind: 'forbidden-key', value: node });
      continue;
    }
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (FORBIDDEN_KEYS.has(key))
        found.push({ segments: [...segments, key], kind: 'forbidden-key', value: node });
      else
        stack.push({ node: (node as Record<string, unknown>)[key], segments: [...segments, key] });
    }
  }
  return found;
}

/**
 * Whether `value` holds anything oddNodes finds, at `depth` levels down. It asks only yes or no,
 * so it builds no paths; the recursion ends at MAX_NESTING levels, so no input can exhaust the
 * stack.
 */
export function hasOddNode(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_NESTING) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (hasOddNode(item, depth + 1)) return true;
    return false;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return true;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (FORBIDDEN_KEYS.has(key) || hasOddNode(record[key], depth + 1)) return true;
  return false;
}

/** Every value of `value` a contract may not hold (see oddNodes), at its position. */
export function oddNodeProblems(
  value: unknown,
  locateProblem: (segments: readonly Segment[], pointAtKey: boolean, message: string) => Problem,
): Problem[] {
  return oddNodes(value, 100).map(({ segments, kind, value: node }) => {
    switch (kind) {
      case 'non-finite':
        return locateProblem(
          segments,
          false,
          `${dottedPath(segments)} must be a finite number, got ${String(node)}; JSON cannot carry it`,
        );
      case 'forbidden-key':
        return locateProblem(
          segments,
          true,
          `the key ${String(segments[segments.length - 1])} is not allowed in a contract file`,
        );
      case 'too-deep':
        return locateProblem(segments, false, NESTING_MESSAGE);
    }
  });
}

/** Whether a keyed array repeats a key (the positional path reports it with both places). */
export function hasRepeatedItemKeys(value: Record<string, unknown>): boolean {
  for (const [field, keyFields] of Object.entries(ARRAY_KEYS)) {
    const items = value[field];
    if (!Array.isArray(items)) continue;
    const seen = new Set<string>();
    for (const item of items as Record<string, unknown>[]) {
      const key = keyFields.map((k) => String(item[k])).join('\u0000');
      if (seen.has(key)) return true;
      seen.add(key);
    }
  }
  return false;
}

export function duplicateItemProblems(
  value: Record<string, unknown>,
  doc: Document,
  pos: (offset: number) => Position,
  locateProblem: (segments: readonly Segment[], pointAtKey: boolean, message: string) => Problem,
): Problem[] {
  const problems: Problem[] = [];
  for (const [field, keyFields] of Object.entries(ARRAY_KEYS)) {
    const items = value[field];
    if (!Array.isArray(items)) continue;
    const seen = new Map<string, number>();
    items.forEach((item: unknown, index) => {
      if (item === null || typeof item !== 'object') return;
      const fields = keyFields.map((k) => (item as Record<string, unknown>)[k]);
      if (!fields.every((f) => typeof f === 'string')) return;
      const key = JSON.stringify(fields);
      const earlier = seen.get(key);
      if (earlier === undefined) {
        seen.set(key, index);
        return;
      }
      const earlierLine = pos(nodeStart(locate(doc, [field, earlier]).found.node)).line;
      const keyText = fields.join(' ');
      const lastKey = keyFields[keyFields.length - 1]!;
      problems.push(
        locateProblem(
          [field, index, lastKey],
          false,
          `${dottedPath([field, index])} repeats ${keyFields.join('+')} '${keyText}' of ${dottedPath([field, earlier])} (line ${earlierLine}); items of ${field} are matched by ${keyFields.join(' and ')}, so each must be unique`,
        ),
      );
    });
  }
  return problems;
}
