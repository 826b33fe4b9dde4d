// The openmetadata profile: what a real OpenMetadata 1.10.0–2.0.9 server stores. The file stays
// friendly (ISO durations, terms as text, references by name); the wire holds OpenMetadata's
// shapes: `{interval, unit}` SLA values, `{content}` terms, `policies[]`, resolved references.
import { MANAGED_FIELDS, shapesFromSchema, type DesiredContract } from '../model/contract.js';
import { closest } from '../contract/schema.js';
import { isPlainObject, type JsonObject } from '../model/json-value.js';
import { setFields, type Codec, type RefusedLive, type Unstorable } from './codec-types.js';
import { durationText, toUnits, type DurationUnit } from './durations.js';
import { REFERENCE_FIELDS, referencesWithIds, type ReferenceIds } from './references.js';
import vocabulary from '../model/openmetadata-vocabulary.json' with { type: 'json' };
import { unkeptChange } from './unkept.js';

/** The statuses OpenMetadata stores (its newest releases'). */
export const STATUSES: readonly string[] = vocabulary.statuses;
const DATA_TYPES = new Set(vocabulary.dataTypes);
const TIMEZONES = new Set(vocabulary.timezones);

/** The SLA values kept as `{amount, unit}`: file property, wire amount name, units allowed. */
const SLA_DURATIONS: readonly {
  name: 'refreshFrequency' | 'maxLatency' | 'retention';
  amount: 'interval' | 'value' | 'period';
  units: readonly DurationUnit[];
}[] = [
  {
    name: 'refreshFrequency',
    amount: 'interval',
    units: vocabulary.refreshUnits as DurationUnit[],
  },
  { name: 'maxLatency', amount: 'value', units: vocabulary.latencyUnits as DurationUnit[] },
  { name: 'retention', amount: 'period', units: vocabulary.retentionUnits as DurationUnit[] },
];

const amountShape = (amount: string) => ({
  type: 'object',
  additionalProperties: false,
  properties: { [amount]: { type: 'integer' }, unit: { type: 'string' } },
});
const closed = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  properties,
});
const text = { type: 'string' };
const reference = (properties: string[]) =>
  closed(Object.fromEntries(properties.map((name) => [name, text])));

/**
 * The managed fields as OpenMetadata stores them: the properties the diff compares (anything
 * else in a live value, such as ids, hrefs or `inherited`, the server added).
 */
const WIRE_SCHEMA = {
  properties: {
    description: text,
    entityStatus: text,
    schema: {
      type: 'array',
      items: closed({
        name: text,
        dataType: text,
        constraint: text,
        description: text,
        dataLength: { type: 'integer' },
        precision: { type: 'integer' },
        scale: { type: 'integer' },
      }),
    },
    semantics: {
      type: 'array',
      items: closed({ name: text, description: text, rule: text, enabled: { type: 'boolean' } }),
    },
    qualityExpectations: { type: 'array', items: reference(['fullyQualifiedName', 'type']) },
    sla: closed({
      ...Object.fromEntries(SLA_DURATIONS.map((d) => [d.name, amountShape(d.amount)])),
      availabilityTime: text,
      timezone: text,
      columnName: text,
    }),
    termsOfUse: closed({ content: text }),
    security: closed({
      dataClassification: text,
      policies: {
        type: 'array',
        items: closed({ accessPolicy: text, identities: {}, rowFilters: {} }),
      },
    }),
    owners: { type: 'array', items: reference(['type', 'name', 'fullyQualifiedName']) },
    reviewers: { type: 'array', items: reference(['type', 'name', 'fullyQualifiedName']) },
    extension: {},
  },
};

function unstorableSla(sla: JsonObject): Unstorable[] {
  const problems: Unstorable[] = [];
  if (sla.availability !== undefined)
    problems.push({
      pointer: '/sla/availability',
      message:
        'sla.availability is not stored by OpenMetadata (it has no availability percentage); remove it',
    });
  for (const { name, units } of SLA_DURATIONS) {
    const value = sla[name];
    if (typeof value !== 'string') continue;
    const mapped = toUnits(value, units);
    if (mapped.ok) continue;
    const suggestion =
      mapped.suggestions.length === 0 ? '' : `; did you mean ${mapped.suggestions.join(' or ')}?`;
    problems.push({
      pointer: `/sla/${name}`,
      message: `sla.${name} ${value} cannot be stored by OpenMetadata, which counts it in whole ${units.map((u) => `${u}s`).join(', ')}: ${mapped.why}${suggestion}`,
    });
  }
  const timezone = sla.timezone;
  if (typeof timezone === 'string' && !TIMEZONES.has(timezone)) {
    const guess = closest(timezone, vocabulary.timezones);
    problems.push({
      pointer: '/sla/timezone',
      message: `sla.timezone '${timezone}' is not one of OpenMetadata's time zones (such as "GMT+01:00 (Europe/Paris)")${guess === undefined ? '' : `; did you mean "${guess}"?`}`,
    });
  }
  return problems;
}

/**
 * The entity types a release takes contracts on: 1.13's, and those 2.1 adds (its API reference),
 * so that plan refuses only what every release refuses; the lists grow from release to release
 * (1.10's lacks api and the drive types), and an older server's refusal of a newer type is its own.
 */
const CONTRACT_ENTITY_TYPES = [...vocabulary.contractEntityTypes, 'apiService', 'metric'];

/**
 * The sections OpenMetadata refuses in a contract of `type` (validateEntitySpecificConstraints,
 * on create and on every PATCH) among those `holds`: a schema outside the types it checks
 * schemas of, quality expectations outside tables; each with why.
 */
function sectionsRefusedOn(
  type: string,
  holds: (field: 'schema' | 'qualityExpectations') => boolean,
): { field: string; why: string }[] {
  const refused: { field: string; why: string }[] = [];
  if (holds('schema') && !vocabulary.schemaEntityTypes.includes(type))
    refused.push({
      field: 'schema',
      why: `OpenMetadata keeps a schema only in contracts of ${vocabulary.schemaEntityTypes.join(', ')}`,
    });
  if (holds('qualityExpectations') && !vocabulary.qualityEntityTypes.includes(type))
    refused.push({
      field: 'qualityExpectations',
      why: `OpenMetadata runs quality expectations only in contracts of a ${vocabulary.qualityEntityTypes.join(', ')}`,
    });
  return refused;
}

const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

/**
 * What OpenMetadata refuses for the contract's entity type, on create and on every PATCH: a type
 * it takes no contracts on; else the sections it refuses on that type (sectionsRefusedOn).
 */
function unstorableForType(contract: DesiredContract): Unstorable[] {
  const type = contract.entity.type;
  if (!CONTRACT_ENTITY_TYPES.includes(type))
    return [
      {
        pointer: '/entity/type',
        message: `OpenMetadata takes data contracts only on ${CONTRACT_ENTITY_TYPES.join(', ')}, not on a ${type}`,
      },
    ];
  return sectionsRefusedOn(type, (field) => nonEmpty(contract[field])).map(({ field, why }) => ({
    pointer: `/${field}`,
    message: `${why}, not of a ${type}; remove ${field}`,
  }));
}

/**
 * Why OpenMetadata refuses `list` as a contract's reviewers, and at which item; undefined when it
 * takes it. Reviewers are users, or one team alone (`validateReviewers`, which the updater runs on
 * every PUT and PATCH whether or not the reviewers change; a create does not check it).
 */
function reviewersRefused(list: unknown): { index: number; why: string } | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const items = list as JsonObject[];
  const named = (item: JsonObject) => `${String(item.type)} ${String(item.name)}`;
  if (items.every((item) => item.type === 'team'))
    return items.length === 1
      ? undefined
      : {
          index: 1,
          why: `OpenMetadata takes as reviewers one team alone, or users, and these are ${items.length} teams (${items.map(named).join(', ')}): "Only one team can be assigned as reviewer."`,
        };
  if (items.every((item) => item.type === 'user')) return undefined;
  // Users and teams mixed, or (in a live contract) a type that is neither.
  const other = items.findIndex((item) => item.type !== items[0]!.type);
  const these =
    other === -1
      ? `this is ${named(items[0]!)}`
      : `these mix ${named(items[other]!)} with ${named(items[0]!)}`;
  return {
    index: Math.max(other, 0),
    why: `OpenMetadata takes as reviewers users, or one team alone, and ${these}: "Invalid Reviewer Type. Only one team or multiple users can be assigned as reviewer."`,
  };
}

function unstorable(contract: DesiredContract): Unstorable[] {
  const found: Unstorable[] = [];
  // type/basic.json#/definitions/entityName: "::" is how OpenMetadata separates entity links.
  if (contract.name.includes('::'))
    found.push({
      pointer: '/name',
      message: `name ${contract.name} holds "::", which OpenMetadata does not allow in a name; choose a name without it`,
    });
  const status = contract.entityStatus;
  if (typeof status === 'string' && !STATUSES.includes(status))
    found.push({
      pointer: '/entityStatus',
      message: `entityStatus ${status} is not a status OpenMetadata stores; use one of ${STATUSES.join(', ')}${status === 'Active' ? ' (Approved is the status in force)' : ''}`,
    });
  if (isPlainObject(contract.sla)) found.push(...unstorableSla(contract.sla));
  const security = contract.security;
  if (
    isPlainObject(security) &&
    security.accessPolicy !== undefined &&
    security.policies !== undefined
  )
    found.push({
      pointer: '/security/accessPolicy',
      message:
        'security has both accessPolicy and policies; OpenMetadata keeps policies only, so write the access policy as one entry of policies',
    });
  const schema = Array.isArray(contract.schema) ? (contract.schema as JsonObject[]) : [];
  found.push(...unstorableForType(contract));
  schema.forEach((column, i) => {
    const type = column.dataType;
    if (typeof type !== 'string' || DATA_TYPES.has(type)) return;
    const guess = closest(type, vocabulary.dataTypes);
    found.push({
      pointer: `/schema/${i}/dataType`,
      message: `schema[${i}].dataType ${type} is not one of OpenMetadata's data types${guess === undefined ? '' : `; did you mean ${guess}?`}`,
    });
  });
  const reviewers = reviewersRefused(contract.reviewers);
  if (reviewers !== undefined)
    found.push({
      pointer: `/reviewers/${reviewers.index}`,
      message: `${reviewers.why}; it refuses such reviewers on any change to the contract: list users only, or one team`,
    });
  const rules = Array.isArray(contract.semantics) ? (contract.semantics as JsonObject[]) : [];
  rules.forEach((rule, i) => {
    const missing = ['description', 'rule', 'enabled'].filter((key) => rule[key] === undefined);
    if (missing.length > 0)
      found.push({
        pointer: `/semantics/${i}`,
        message: `semantics rule ${String(rule.name)} needs ${missing.join(', ')} for OpenMetadata (a rule there has a description, a JSON Logic rule and enabled: true or false)`,
      });
  });
  return found;
}

/**
 * Users and teams as OpenMetadata resolves them on a write (by their fullyQualifiedName, which is
 * their name) and answers them: sorted by name. They are relationships, read back in that order whatever order they were written in
 * (`EntityUtil.getEntityReferences`), so the order a file lists them in is not the catalog's.
 */
function references(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return (list as JsonObject[])
    .map((item): JsonObject => ({ ...item, fullyQualifiedName: item.name }))
    .sort(
      (a, b) => compare(String(a.name), String(b.name)) || compare(String(a.type), String(b.type)),
    );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toWire(desired: DesiredContract): DesiredContract {
  const wire: DesiredContract = { ...desired };
  if (isPlainObject(desired.sla)) {
    const sla: JsonObject = { ...desired.sla };
    delete sla.availability;
    for (const { name, amount, units } of SLA_DURATIONS) {
      const value = sla[name];
      if (typeof value !== 'string') continue;
      const mapped = toUnits(value, units);
      if (!mapped.ok) throw new Error(`sla.${name} ${value} has no OpenMetadata form`);
      sla[name] = { [amount]: mapped.amount, unit: mapped.unit };
    }
    wire.sla = sla;
  }
  if (typeof desired.termsOfUse === 'string') wire.termsOfUse = { content: desired.termsOfUse };
  if (isPlainObject(desired.security)) {
    const { accessPolicy, ...security } = desired.security;
    if (accessPolicy !== undefined && security.policies === undefined)
      security.policies = [{ accessPolicy }];
    wire.security = security;
  }
  if (Array.isArray(desired.qualityExpectations))
    wire.qualityExpectations = (desired.qualityExpectations as JsonObject[]).map((item) => ({
      ...item,
      type: 'testCase',
    }));
  if (desired.owners !== undefined) wire.owners = references(desired.owners);
  if (desired.reviewers !== undefined) wire.reviewers = references(desired.reviewers);
  return wire;
}

/** `{interval: 12, unit: hour}` → `PT12H`; anything else as it is. */
function durationOf(value: unknown, amount: string): unknown {
  if (!isPlainObject(value)) return value;
  const count = value[amount];
  const unit = value.unit;
  return typeof count === 'number' && typeof unit === 'string'
    ? durationText(count, unit as DurationUnit)
    : value;
}

function pick(value: JsonObject, names: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const name of names)
    if (value[name] !== undefined && value[name] !== null) out[name] = value[name];
  return out;
}

function fromWire(live: JsonObject): JsonObject {
  const model: JsonObject = { ...live };
  if (isPlainObject(live.sla)) {
    const sla = pick(live.sla, ['availabilityTime', 'timezone', 'columnName']);
    for (const { name, amount } of SLA_DURATIONS)
      if (live.sla[name] !== undefined && live.sla[name] !== null)
        sla[name] = durationOf(live.sla[name], amount);
    model.sla = sla;
  }
  if (isPlainObject(live.termsOfUse))
    model.termsOfUse = typeof live.termsOfUse.content === 'string' ? live.termsOfUse.content : '';
  if (isPlainObject(live.security)) {
    const security = pick(live.security, ['dataClassification']);
    if (Array.isArray(live.security.policies))
      security.policies = (live.security.policies as JsonObject[]).map((policy) =>
        pick(policy, ['accessPolicy', 'identities', 'rowFilters']),
      );
    model.security = security;
  }
  if (Array.isArray(live.qualityExpectations))
    model.qualityExpectations = (live.qualityExpectations as JsonObject[]).map((item) =>
      pick(item, ['fullyQualifiedName']),
    );
  for (const field of ['owners', 'reviewers'])
    if (Array.isArray(live[field]))
      model[field] = (live[field] as JsonObject[]).map((item) => pick(item, ['type', 'name']));
  return model;
}

/**
 * A CreateDataContract: the wire's fields, but terms of use as the markdown text itself, and each
 * reference with its id (the create request's entity references require one).
 */
function createBody(
  desired: DesiredContract,
  asset: { id: string; type: string },
  ids: ReferenceIds = new Map(),
): JsonObject {
  const wire = setFields(toWire(desired), MANAGED_FIELDS);
  if (typeof desired.termsOfUse === 'string') wire.termsOfUse = desired.termsOfUse;
  for (const field of REFERENCE_FIELDS)
    if (wire[field] !== undefined) wire[field] = referencesWithIds(field, wire[field], ids);
  return { name: desired.name, entity: { id: asset.id, type: asset.type }, ...wire };
}

/**
 * What `live` holds that OpenMetadata refuses on every PATCH, where `desired` leaves it as it is: a
 * schema or quality expectations on a type it refuses them for (stored before the rule), reviewers
 * that are neither users nor one team (which a create does not check). The contract takes no change
 * until they go.
 */
function refusedLive(live: JsonObject, desired: DesiredContract): RefusedLive[] {
  const refused: RefusedLive[] = [];
  const type = (live.entity as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string')
    for (const { field, why } of sectionsRefusedOn(
      type,
      (name) => desired[name] === undefined && nonEmpty(live[name]),
    ))
      refused.push({
        field,
        why: `${why}, not of a ${type} (it was stored before that rule)`,
        mend: `set ${field}: null in the file to remove it with this change`,
      });
  const reviewers = desired.reviewers === undefined ? reviewersRefused(live.reviewers) : undefined;
  if (reviewers !== undefined)
    refused.push({
      field: 'reviewers',
      why: reviewers.why,
      mend: 'write reviewers in the file, users only or one team (or reviewers: null), to replace them with this change',
    });
  return refused;
}

export const openMetadataCodec: Codec = {
  profile: 'openmetadata',
  release: null,
  sendsIfMatch: false,
  referencesById: true,
  shapes: shapesFromSchema(WIRE_SCHEMA),
  statuses: STATUSES,
  unstorable,
  unkept: unkeptChange,
  refusedLive,
  toWire,
  fromWire,
  createBody,
};
