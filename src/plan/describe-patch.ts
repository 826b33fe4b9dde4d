// Turns a patch into lines people read: `~ schema["amount"].dataType: "INT" → "BIGINT"`. Keyed
// array items are named by their key, not their index, since indices shift as the patch runs.
import { applyPatch } from 'rfc6902';
import { ARRAY_KEYS, FIELD_SHAPES } from '../model/contract.js';
import { project } from '../diff/project.js';
import type { Operation } from '../model/operation.js';
import {
  copyJson,
  isPlainObject,
  jsonEqual,
  own,
  unescapeToken,
  type JsonObject,
} from '../model/json-value.js';
import type { DiffLine } from './types.js';

function valueAt(document: unknown, segments: readonly string[]): unknown {
  let current = document;
  for (const segment of segments) {
    if (Array.isArray(current))
      current = current[segment === '-' ? current.length : Number(segment)];
    else if (current !== null && typeof current === 'object')
      current = own(current as JsonObject, segment);
    else return undefined;
  }
  return current;
}

function itemLabel(item: unknown, keys: readonly string[]): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const parts = keys.map((key) => (item as JsonObject)[key]);
  return parts.every((p) => typeof p === 'string') ? parts.join(':') : undefined;
}

/** `schema["amount"].dataType` for `/schema/3/dataType`, read against the document before the op. */
function label(document: JsonObject, pointer: string, added?: unknown): string {
  const segments = pointer.split('/').slice(1).map(unescapeToken);
  let out = '';
  let current: unknown = document;
  segments.forEach((segment, depth) => {
    const keys = depth === 1 ? ARRAY_KEYS[segments[0]!] : undefined;
    if (Array.isArray(current)) {
      const items = current as unknown[];
      const isLast = depth === segments.length - 1;
      const item =
        segment === '-' || (isLast && added !== undefined) ? added : items[Number(segment)];
      const key = keys === undefined ? undefined : itemLabel(item, keys);
      out +=
        key === undefined
          ? `[${segment === '-' ? current.length : segment}]`
          : `[${JSON.stringify(key)}]`;
      current = segment === '-' ? undefined : items[Number(segment)];
    } else {
      out += /^[A-Za-z_$][\w$]*$/.test(segment)
        ? `${out === '' ? '' : '.'}${segment}`
        : `[${JSON.stringify(segment)}]`;
      current =
        current !== null && typeof current === 'object'
          ? own(current as JsonObject, segment)
          : undefined;
    }
  });
  return out;
}

/** A removed array item as the file would write it: without the properties the server adds. */
function managedView(segments: readonly string[], value: unknown): unknown {
  const shape = FIELD_SHAPES.get(segments[0]!);
  if (segments.length === 2 && shape?.kind === 'array') return project(value, shape.items);
  if (segments.length === 1 && shape !== undefined) return project(value, shape);
  return value;
}

/** `sla.refreshFrequency`, or `x["odd key"]`, for a property of the value at `field`. */
function propertyLabel(field: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${field}.${key}` : `${field}[${JSON.stringify(key)}]`;
}

/**
 * A replace as people read it: an object replaced by an object is one line per property that
 * changes (a reviewer reads `~ sla.refreshFrequency: PT6H → PT12H`, not two whole objects).
 */
function replaceLines(field: string, before: unknown, after: unknown): DiffLine[] {
  if (!isPlainObject(before) || !isPlainObject(after))
    return [{ symbol: '~', field, before, after }];
  const lines: DiffLine[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, now] = [own(before, key), own(after, key)];
    if (jsonEqual(was, now)) continue;
    const name = propertyLabel(field, key);
    if (now === undefined) lines.push({ symbol: '-', field: name, before: was });
    else if (was === undefined) lines.push({ symbol: '+', field: name, after: now });
    else lines.push({ symbol: '~', field: name, before: was, after: now });
  }
  return lines;
}

/** Where an item added at `segments` (a keyed array's index) goes among the items already there. */
function addedPosition(document: JsonObject, segments: readonly string[]): string | undefined {
  const keys = ARRAY_KEYS[segments[0]!];
  const items = document[segments[0]!];
  if (segments.length !== 2 || keys === undefined || !Array.isArray(items) || items.length === 0)
    return undefined;
  const at = segments[1] === '-' ? items.length : Number(segments[1]);
  if (at === 0) return 'first';
  const before = itemLabel(items[at - 1], keys);
  return before === undefined ? `at position ${at}` : `after ${JSON.stringify(before)}`;
}

/** Readable lines for `ops` applied in order to `live` (which is not modified); guards show nothing. */
export function describePatch(live: Readonly<JsonObject>, ops: readonly Operation[]): DiffLine[] {
  if (ops.length === 0) return [];
  const working = copyJson(live) as JsonObject;
  const lines: DiffLine[] = [];
  for (const op of ops) {
    const segments = op.path.split('/').slice(1).map(unescapeToken);
    switch (op.op) {
      case 'add': {
        const position = addedPosition(working, segments);
        lines.push({
          symbol: '+',
          field: label(working, op.path, op.value),
          after: op.value,
          ...(position === undefined ? {} : { position }),
        });
        break;
      }
      case 'remove':
        lines.push({
          symbol: '-',
          field: label(working, op.path),
          before: managedView(segments, valueAt(working, segments)),
        });
        break;
      case 'replace':
        lines.push(...replaceLines(label(working, op.path), valueAt(working, segments), op.value));
        break;
      case 'test':
        continue;
      case 'move': {
        const from = op.from.split('/');
        lines.push({
          symbol: '↕',
          field: label(working, op.from),
          before: Number(from[from.length - 1]),
          after: Number(segments[segments.length - 1]),
        });
        break;
      }
    }
    applyPatch(working, [op]);
  }
  return lines;
}
