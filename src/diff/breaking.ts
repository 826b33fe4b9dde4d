// Classifies the changes from a live contract to a desired one that can break consumers.
import { FIELD_SHAPES, type DesiredContract } from '../model/contract.js';
import { pointerTo, type FindingCode, type Found } from '../model/finding.js';
import { isPlainObject, type JsonObject } from '../model/json-value.js';
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

/** The sentences of breakingFindings, in order. */
export function breakingChanges(
  liveContract: Readonly<JsonObject>,
  desiredContract: Readonly<DesiredContract>,
): string[] {
  return breakingFindings(liveContract, desiredContract).map((found) => found.message);
}

/**
 * Breaking changes, in field order, each at the field of the desired contract it is about: columns
 * removed or retyped, NOT_NULL or PRIMARY_KEY dropped, semantics rules removed, SLA weakened,
 * status to Deprecated.
 */
export function breakingFindings(
  liveContract: Readonly<JsonObject>,
  desiredContract: Readonly<DesiredContract>,
): Found[] {
  const found: Found[] = [];
  const desired = desiredContract as JsonObject;
  const say = (code: FindingCode, pointer: string, message: string): void => {
    found.push({ code, severity: 'warning', message, pointer });
  };

  if (desired.entityStatus === 'Deprecated' && liveContract.entityStatus !== 'Deprecated') {
    say('breaking.status-deprecated', '/entityStatus', 'status changed to Deprecated');
  }

  if (desired.schema !== undefined) {
    const desiredColumns = records(desired.schema);
    const wanted = byName(desiredColumns);
    const liveColumns = records(project(liveContract.schema, FIELD_SHAPES.get('schema')!));
    const renames = renamedColumns(liveColumns, desiredColumns);
    /** Where the desired column `name` is (its `property`), or the schema when it has none. */
    const at = (name: string, property?: string): string => {
      const i = desiredColumns.findIndex((column) => column.name === name);
      if (i === -1) return '/schema';
      return property === undefined || desiredColumns[i]![property] === undefined
        ? pointerTo('schema', i)
        : pointerTo('schema', i, property);
    };
    for (const column of liveColumns) {
      const name = String(column.name);
      const next = wanted.get(name);
      if (next === undefined) {
        const to = renames.get(name);
        if (to === undefined) say('breaking.column-removed', '/schema', `column ${name} removed`);
        else
          say(
            'breaking.column-renamed',
            at(to, 'name'),
            `column ${name} renamed to ${to} (consumers reading ${name} break)`,
          );
        continue;
      }
      if (next.dataType !== column.dataType) {
        say(
          'breaking.column-type-changed',
          at(name, 'dataType'),
          `column ${name} type changed from ${String(column.dataType)} to ${String(next.dataType)}`,
        );
      }
      if (
        typeof column.constraint === 'string' &&
        STRICT_CONSTRAINTS.has(column.constraint) &&
        next.constraint !== column.constraint
      ) {
        say(
          'breaking.constraint-dropped',
          at(name, 'constraint'),
          `column ${name} constraint ${column.constraint} dropped`,
        );
      }
    }
  }

  if (desired.semantics !== undefined) {
    const wanted = byName(records(desired.semantics));
    for (const rule of records(liveContract.semantics)) {
      if (typeof rule.name === 'string' && !wanted.has(rule.name))
        say('breaking.semantics-rule-removed', '/semantics', `semantics rule ${rule.name} removed`);
    }
  }

  if (desired.sla !== undefined && isPlainObject(liveContract.sla)) {
    const before = liveContract.sla;
    if (desired.sla === null) say('breaking.sla-removed', '/sla', 'SLA removed');
    else if (isPlainObject(desired.sla)) {
      const after = desired.sla;
      /** The SLA's `field` where the file sets it, else the SLA. */
      const at = (field: string): string =>
        after[field] === undefined ? '/sla' : pointerTo('sla', field);
      if (typeof before.availability === 'number') {
        if (after.availability === undefined)
          say('breaking.sla-removed', '/sla', `SLA availability ${before.availability} removed`);
        else if (
          typeof after.availability === 'number' &&
          after.availability < before.availability
        ) {
          say(
            'breaking.sla-weakened',
            at('availability'),
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
        if (after[field] === undefined)
          say('breaking.sla-removed', '/sla', `SLA ${label} ${String(before[field])} removed`);
        else if (now !== undefined && now > was) {
          say(
            'breaking.sla-weakened',
            at(field),
            `SLA ${label} ${verb} from ${String(before[field])} to ${after[field] as string}`,
          );
        }
      }
    }
  }
  return found;
}
