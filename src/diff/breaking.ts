// Classifies the changes from a live contract to a desired one that can break consumers.
import { FIELD_SHAPES, type DesiredContract } from '../contract/model.js';
import { isPlainObject, type JsonObject } from './json-value.js';
import { project } from './project.js';

const DURATION =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Seconds in an ISO 8601 duration (a year is 365 days, a month 30), or undefined. */
export function durationSeconds(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  const [y, mo, w, d, h, mi, s] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  return (((y! * 365 + mo! * 30 + w! * 7 + d!) * 24 + h!) * 60 + mi!) * 60 + s!;
}

function records(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function byName(items: JsonObject[]): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  for (const item of items) if (typeof item.name === 'string') map.set(item.name, item);
  return map;
}

/**
 * Columns that look renamed: a live column the desired schema drops, and a new desired column
 * in the same place (the same index) with the same type. Old name → new name.
 */
function renamedColumns(live: JsonObject[], desired: JsonObject[]): Map<string, string> {
  const liveNames = new Set(live.map((column) => column.name));
  const desiredNames = new Set(desired.map((column) => column.name));
  const renames = new Map<string, string>();
  live.forEach((column, i) => {
    const next = desired[i];
    if (
      next !== undefined &&
      typeof column.name === 'string' &&
      typeof next.name === 'string' &&
      !desiredNames.has(column.name) &&
      !liveNames.has(next.name) &&
      next.dataType === column.dataType
    )
      renames.set(column.name, next.name);
  });
  return renames;
}

const STRICT_CONSTRAINTS = new Set(['NOT_NULL', 'PRIMARY_KEY']);

/**
 * Human-readable breaking changes, in field order: columns removed or retyped, NOT_NULL or
 * PRIMARY_KEY dropped, semantics rules removed, SLA weakened, status to Deprecated.
 */
export function breakingChanges(
  liveContract: Readonly<JsonObject>,
  desiredContract: Readonly<DesiredContract>,
): string[] {
  const found: string[] = [];
  const desired = desiredContract as JsonObject;

  if (desired.entityStatus === 'Deprecated' && liveContract.entityStatus !== 'Deprecated') {
    found.push('status changed to Deprecated');
  }

  if (desired.schema !== undefined) {
    const wanted = byName(records(desired.schema));
    const liveColumns = records(project(liveContract.schema, FIELD_SHAPES.get('schema')!));
    const renames = renamedColumns(liveColumns, records(desired.schema));
    for (const column of liveColumns) {
      const name = String(column.name);
      const next = wanted.get(name);
      if (next === undefined) {
        const to = renames.get(name);
        found.push(
          to === undefined
            ? `column ${name} removed`
            : `column ${name} renamed to ${to} (consumers reading ${name} break)`,
        );
        continue;
      }
      if (next.dataType !== column.dataType) {
        found.push(
          `column ${name} type changed from ${String(column.dataType)} to ${String(next.dataType)}`,
        );
      }
      if (
        typeof column.constraint === 'string' &&
        STRICT_CONSTRAINTS.has(column.constraint) &&
        next.constraint !== column.constraint
      ) {
        found.push(`column ${name} constraint ${column.constraint} dropped`);
      }
    }
  }

  if (desired.semantics !== undefined) {
    const wanted = byName(records(desired.semantics));
    for (const rule of records(liveContract.semantics)) {
      if (typeof rule.name === 'string' && !wanted.has(rule.name))
        found.push(`semantics rule ${rule.name} removed`);
    }
  }

  if (desired.sla !== undefined && isPlainObject(liveContract.sla)) {
    const before = liveContract.sla;
    if (desired.sla === null) found.push('SLA removed');
    else if (isPlainObject(desired.sla)) {
      const after = desired.sla;
      if (typeof before.availability === 'number') {
        if (after.availability === undefined)
          found.push(`SLA availability ${before.availability} removed`);
        else if (
          typeof after.availability === 'number' &&
          after.availability < before.availability
        ) {
          found.push(
            `SLA availability lowered from ${before.availability} to ${after.availability}`,
          );
        }
      }
      for (const [field, label, verb] of [
        ['refreshFrequency', 'refresh frequency', 'slowed'],
        ['maxLatency', 'max latency', 'raised'],
      ] as const) {
        const was = durationSeconds(before[field]);
        if (was === undefined) continue;
        const now = durationSeconds(after[field]);
        if (after[field] === undefined) found.push(`SLA ${label} ${String(before[field])} removed`);
        else if (now !== undefined && now > was) {
          found.push(
            `SLA ${label} ${verb} from ${String(before[field])} to ${after[field] as string}`,
          );
        }
      }
    }
  }
  return found;
}
