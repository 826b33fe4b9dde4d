// The words of an ODCS document as OpenMetadata's converter (ODCSConverter) reads them: statuses,
// logical types, SLA properties and units, and which keys it reads at all; everything else of a
// document stays only in git.
import vocabulary from '../model/openmetadata-vocabulary.json' with { type: 'json' };

export const DATA_TYPES = new Set(vocabulary.dataTypes);

/** OpenMetadata's logicalType → dataType, when physicalType is not one of its data types. */
export const LOGICAL_TYPES: Readonly<Record<string, string>> = {
  integer: 'INT',
  long: 'BIGINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  decimal: 'DECIMAL',
  number: 'NUMBER',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  time: 'TIME',
  array: 'ARRAY',
  object: 'STRUCT',
  text: 'TEXT',
  bytes: 'BINARY',
  null: 'NULL',
  string: 'STRING',
};

/** ODCS status → OpenMetadata's entityStatus (mapODCSStatusToContract). */
export const STATUSES: Readonly<Record<string, string>> = {
  active: 'Approved',
  deprecated: 'Deprecated',
  retired: 'Deprecated',
  proposed: 'Draft',
  draft: 'Draft',
};

/** ODCS SLA units as the server normalizes them, and their ISO 8601 duration letters. */
const UNITS: Readonly<Record<string, { iso: string; time: boolean }>> = {
  second: { iso: 'S', time: true },
  minute: { iso: 'M', time: true },
  hour: { iso: 'H', time: true },
  day: { iso: 'D', time: false },
  week: { iso: 'W', time: false },
  month: { iso: 'M', time: false },
  year: { iso: 'Y', time: false },
};
const UNIT_NAMES: Readonly<Record<string, string>> = {
  s: 'second', secs: 'second', seconds: 'second',
  m: 'minute', mins: 'minute', minutes: 'minute',
  h: 'hour', hrs: 'hour', hours: 'hour',
  d: 'day', days: 'day',
  w: 'week', wks: 'week', weeks: 'week',
  mos: 'month', months: 'month',
  y: 'year', yrs: 'year', years: 'year',
}; // prettier-ignore

/** The SLA properties the server reads, and the field each becomes. */
export const SLA_FIELDS: Readonly<Record<string, 'refreshFrequency' | 'maxLatency' | 'retention'>> =
  {
    freshness: 'refreshFrequency',
    refreshfrequency: 'refreshFrequency',
    latency: 'maxLatency',
    maxlatency: 'maxLatency',
    retention: 'retention',
  };

/** Top-level keys the conversion reads; every other one stays only in git. */
export const READ_KEYS = new Set([
  'apiVersion',
  'kind',
  'id',
  'version',
  'name',
  'status',
  'description',
  'schema',
  'team',
  'roles',
  'slaProperties',
  'customProperties',
]);

/** The column keys the conversion reads. */
export const COLUMN_KEYS = new Set([
  'id',
  'name',
  'physicalName',
  'logicalType',
  'physicalType',
  'description',
  'primaryKey',
  'unique',
  'required',
  'logicalTypeOptions',
]);

/** An SLA property's value and unit as an ISO 8601 duration, or why it cannot be one. */
export function duration(value: unknown, unit: unknown): { iso: string } | { problem: string } {
  const count = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isInteger(count) || count < 0)
    return { problem: `must be a whole number with its unit, got ${JSON.stringify(value)}` };
  const raw = typeof unit === 'string' ? unit.toLowerCase().trim() : '';
  const name = UNIT_NAMES[raw] ?? raw;
  const known = UNITS[name];
  if (known === undefined)
    return {
      problem: `needs a unit of time (d, day, days; h, hour, hours; …), got ${unit === undefined ? 'none' : JSON.stringify(unit)}`,
    };
  return { iso: known.time ? `PT${count}${known.iso}` : `P${count}${known.iso}` };
}

/** The data types whose size is a precision (and scale): DECIMAL(12,2); others' is a length. */
export const NUMERIC_TYPES: ReadonlySet<string> = new Set(['DECIMAL', 'NUMERIC', 'NUMBER']);

/** A dataType's ODCS logicalType, of those the standard has (the server's export writes others). */
export const LOGICAL_TYPE_OF: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    ['INT', 'SMALLINT', 'TINYINT', 'BYTEINT', 'BIGINT', 'LONG'].map((t) => [t, 'integer']),
  ),
  ...Object.fromEntries(
    ['FLOAT', 'DOUBLE', 'DECIMAL', 'NUMERIC', 'NUMBER', 'MONEY'].map((t) => [t, 'number']),
  ),
  BOOLEAN: 'boolean',
  DATE: 'date',
  DATETIME: 'date',
  TIMESTAMP: 'timestamp',
  TIMESTAMPZ: 'timestamp',
  TIME: 'time',
  ARRAY: 'array',
  ...Object.fromEntries(['MAP', 'STRUCT', 'JSON'].map((t) => [t, 'object'])),
};

/** An ISO 8601 duration's unit (its letter, after T for a time) as an ODCS SLA unit. */
export const ISO_UNITS: Readonly<Record<string, string>> = {
  Y: 'year',
  M: 'month',
  W: 'week',
  D: 'day',
  TH: 'hour',
  TM: 'minute',
  TS: 'second',
};

/** A physicalType with its size, `DECIMAL(12,2)` or `VARCHAR(32)`: the type, and the numbers. */
export function sizedType(
  physicalType: string,
): { type: string; first: number; second?: number } | undefined {
  const match = /^\s*([A-Za-z][A-Za-z0-9_ ]*?)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)\s*$/.exec(
    physicalType,
  );
  if (match === null) return undefined;
  return {
    type: match[1]!.toUpperCase(),
    first: Number(match[2]),
    ...(match[3] === undefined ? {} : { second: Number(match[3]) }),
  };
}
