// The sandbox as a real OpenMetadata 1.10.0–2.0.9 server (`--profile openmetadata`): its own model of
// the stored data contract (from OpenMetadata's JSON Schemas), checked before anything is stored;
// references resolved as the server resolves them; and the demo catalog in these shapes (its
// version and ETags: release.ts).
import { Ajv } from 'ajv';
import vocabulary from './openmetadata-vocabulary.json' with { type: 'json' };
import { entityOf, isEntityType, namedBy, type Directory } from './directory.js';
import { ApiError, compareText } from './http.js';
import type { ContractResource, Seed } from './seed.js';

type Json = Record<string, unknown>;

export type SandboxProfile = 'spec' | 'openmetadata';

const text = { type: 'string' };
const reference = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    type: text,
    name: text,
    fullyQualifiedName: text,
    description: text,
    displayName: text,
    deleted: { type: 'boolean' },
    inherited: { type: 'boolean' },
    href: text,
  },
};
const amount = (name: string, units: readonly string[]) => ({
  type: 'object',
  required: [name, 'unit'],
  properties: { [name]: { type: 'integer' }, unit: { enum: units } },
});

/** The stored data contract, after entity/data/dataContract.json and the schemas it names. */
const CONTRACT_MODEL = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'entity'],
  definitions: {
    reference,
    column: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'dataType'],
      properties: {
        name: { type: 'string', minLength: 1 },
        displayName: text,
        dataType: { enum: vocabulary.dataTypes },
        arrayDataType: { enum: vocabulary.dataTypes },
        dataLength: { type: 'integer' },
        precision: { type: 'integer' },
        scale: { type: 'integer' },
        dataTypeDisplay: text,
        description: text,
        fullyQualifiedName: text,
        tags: { type: 'array' },
        constraint: { enum: vocabulary.constraints },
        ordinalPosition: { type: 'integer' },
        jsonSchema: text,
        children: { type: 'array', items: { $ref: '#/definitions/column' } },
        profile: { type: 'object' },
        customMetrics: { type: 'array' },
        extension: {},
      },
    },
  },
  properties: {
    id: { type: 'string', format: 'uuid' },
    // type/basic.json#/definitions/entityName
    name: { type: 'string', minLength: 1, maxLength: 256, pattern: '^((?!::).)*$' },
    displayName: text,
    fullyQualifiedName: text,
    description: text,
    version: { type: 'number' },
    updatedAt: { type: 'integer' },
    updatedBy: text,
    impersonatedBy: text,
    createdAt: { type: 'integer' },
    createdBy: text,
    href: text,
    entityStatus: { enum: vocabulary.statuses },
    entity: { $ref: '#/definitions/reference' },
    testSuite: { $ref: '#/definitions/reference' },
    schema: { type: 'array', items: { $ref: '#/definitions/column' } },
    semantics: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'description', 'rule', 'enabled'],
        properties: {
          name: text,
          description: text,
          rule: text,
          enabled: { type: 'boolean' },
          entityType: text,
          ignoredEntities: { type: 'array', items: text },
          jsonTree: text,
          provider: { enum: ['system', 'user', 'automation'] },
          inherited: { type: 'boolean' },
        },
      },
    },
    termsOfUse: {
      type: 'object',
      properties: { content: text, inherited: { type: 'boolean' } },
    },
    security: {
      type: 'object',
      properties: {
        inherited: { type: 'boolean' },
        dataClassification: text,
        policies: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              accessPolicy: text,
              identities: { type: 'array', items: text },
              rowFilters: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { columnName: text, values: { type: 'array', items: text } },
                },
              },
            },
          },
        },
      },
    },
    sla: {
      type: 'object',
      properties: {
        inherited: { type: 'boolean' },
        refreshFrequency: amount('interval', vocabulary.refreshUnits),
        maxLatency: amount('value', vocabulary.latencyUnits),
        availabilityTime: text,
        timezone: { enum: vocabulary.timezones },
        retention: amount('period', vocabulary.retentionUnits),
        columnName: text,
      },
    },
    qualityExpectations: { type: 'array', items: { $ref: '#/definitions/reference' } },
    odcsQualityRules: { type: 'array' },
    // 2.x: what an ODCS import keeps of the document that OpenMetadata has no field for.
    odcsElementExtensions: {},
    contractUpdates: { type: 'array' },
    owners: { type: 'array', items: { $ref: '#/definitions/reference' } },
    reviewers: { type: 'array', items: { $ref: '#/definitions/reference' } },
    effectiveFrom: text,
    effectiveUntil: text,
    changeDescription: { type: 'object' },
    incrementalChangeDescription: { type: 'object' },
    deleted: { type: 'boolean' },
    sourceUrl: text,
    latestResult: { type: 'object' },
    extension: {},
    inherited: { type: 'boolean' },
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('uuid', UUID);
const validateContract = ajv.compile(CONTRACT_MODEL);

/**
 * Refuses (400, nothing stored) a contract OpenMetadata's schema would not accept, or one holding a
 * section its entity type may not have.
 */
export function checkStoredContract(contract: Json): void {
  checkStoredShape(contract);
  checkEntityConstraints(contract);
}

/**
 * Refuses (400) a contract whose shape OpenMetadata's schema does not take. Alone, for what a
 * catalog already holds (a seed): data stored before a rule came, such as a schema in a
 * dashboard's contract, which every PATCH then meets (checkStoredContract).
 */
export function checkStoredShape(contract: Json): void {
  if (validateContract(contract)) return;
  const error = validateContract.errors![0]!;
  const where = error.instancePath === '' ? 'the data contract' : error.instancePath;
  const allowed =
    error.keyword === 'enum'
      ? `: one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`
      : error.keyword === 'additionalProperties'
        ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
        : '';
  throw new ApiError(400, `${where} ${error.message ?? 'is invalid'}${allowed}`);
}

const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

/**
 * The sections OpenMetadata refuses for the contract's entity type, on create and on every PATCH
 * (`DataContractRepository.validateEntitySpecificConstraints`, in `prepare`): any contract on an
 * entity type it takes none on; else a schema outside tables, topics, API endpoints and data
 * models, and quality expectations outside tables.
 */
function checkEntityConstraints(contract: Json): void {
  const type = String((contract.entity as Json).type);
  const violations: string[] = [];
  if (!vocabulary.contractEntityTypes.includes(type)) {
    violations.push(`Entity type '${type}' is not supported for data contracts`);
  } else {
    if (nonEmpty(contract.schema) && !vocabulary.schemaEntityTypes.includes(type))
      violations.push(
        `Schema validation is not supported for ${type} entities. Only table, topic, apiEndpoint, and dashboardDataModel entities support schema validation`,
      );
    if (nonEmpty(contract.qualityExpectations) && !vocabulary.qualityEntityTypes.includes(type))
      violations.push(
        `Quality expectations are not supported for ${type} entities. Only table entities support quality expectations`,
      );
  }
  if (violations.length > 0)
    throw new ApiError(
      400,
      `Data contract validation failed for ${type} entity: ${violations.join('; ')}`,
    );
}

/**
 * Owners and reviewers in the order OpenMetadata answers them: they are relationships, read back
 * sorted by name (`EntityUtil.getEntityReferences`, `compareEntityReference`), whatever order they
 * were written in.
 */
export function inNameOrder(contract: Json): void {
  for (const field of ['owners', 'reviewers']) {
    const list = contract[field];
    if (Array.isArray(list))
      contract[field] = (list as Json[]).toSorted(
        (a, b) =>
          compareText(String(a.name), String(b.name)) ||
          compareText(String(a.type), String(b.type)),
      );
  }
}

/**
 * References as OpenMetadata stores them: one written by id or by fullyQualifiedName (a user's
 * or team's FQN is its name) is resolved to `{id, type, name, fullyQualifiedName, deleted}`;
 * with a directory, a user, team or test case it lacks is a 404, as on the real server.
 */
export function resolveReferences(contract: Json, directory?: Directory): void {
  for (const field of ['owners', 'reviewers', 'qualityExpectations']) {
    const list = contract[field];
    if (!Array.isArray(list)) continue;
    contract[field] = list.map((item: unknown, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw new ApiError(400, `${field}[${i}] must be an entity reference`);
      const ref = item as Json;
      const { type, fqn } = namedBy(field, ref);
      if (typeof type !== 'string' || (typeof ref.id !== 'string' && typeof fqn !== 'string'))
        throw new ApiError(
          400,
          `${field}[${i}] must name its entity by id or by fullyQualifiedName, with its type`,
        );
      if (directory !== undefined && isEntityType(type)) {
        // The real server reads a reference by its id when it has one, else by its name.
        const { teamType, ...entry } =
          typeof ref.id === 'string'
            ? directory.byEntityId(type, ref.id)
            : directory.byFullyQualifiedName(type, String(fqn));
        if (field === 'owners' && teamType !== undefined && teamType !== 'Group')
          throw new ApiError(
            400,
            `Team of type ${teamType} can't own entities. Only Team of type Group can own entities.`,
          );
        return { ...entry, deleted: false };
      }
      if (typeof fqn !== 'string') return ref;
      return {
        ...entityOf(type, fqn, typeof ref.id === 'string' ? ref.id : undefined),
        deleted: false,
      };
    });
  }
  inNameOrder(contract);
}

/**
 * The JSON Logic of the rules the demo names, read on the asset as the server loads it for a run
 * (its owners and description).
 */
const DEMO_RULES: Readonly<Record<string, { description: string; rule: string }>> = {
  hasOwner: { description: 'The asset has an owner.', rule: '{"!!":[{"var":"owners"}]}' },
  hasDescription: {
    description: 'The asset has a description.',
    rule: '{"!!":[{"var":"description"}]}',
  },
};

/** A spec-shaped contract of the demo in OpenMetadata's shapes (the demo under this profile). */
function toOpenMetadata(contract: Json): Json {
  const out: Json = { ...contract };
  if (out.entityStatus === 'Active') out.entityStatus = 'Approved';
  if (out.sla !== null && typeof out.sla === 'object') {
    const sla = out.sla as Json;
    const hours = (iso: unknown): Json | undefined => {
      const match = typeof iso === 'string' ? /^P(?:T(\d+)([HM])|(\d+)D)$/.exec(iso) : null;
      if (match === null) return undefined;
      if (match[3] !== undefined) return { amount: Number(match[3]), unit: 'day' };
      return { amount: Number(match[1]), unit: match[2] === 'H' ? 'hour' : 'minute' };
    };
    const refresh = hours(sla.refreshFrequency);
    const latency = hours(sla.maxLatency);
    out.sla = {
      ...(refresh === undefined
        ? {}
        : { refreshFrequency: { interval: refresh.amount, unit: refresh.unit } }),
      ...(latency === undefined
        ? {}
        : { maxLatency: { value: latency.amount, unit: latency.unit } }),
    };
  }
  if (typeof out.termsOfUse === 'string') out.termsOfUse = { content: out.termsOfUse };
  if (out.security !== null && typeof out.security === 'object') {
    const { accessPolicy, ...security } = out.security as Json;
    out.security =
      accessPolicy === undefined ? security : { ...security, policies: [{ accessPolicy }] };
  }
  if (Array.isArray(out.semantics))
    out.semantics = (out.semantics as Json[]).map((rule) => ({
      ...(DEMO_RULES[String(rule.name)] ?? {
        description: `Checks ${String(rule.name)}.`,
        rule: JSON.stringify({ '!!': [{ var: String(rule.name) }] }),
      }),
      enabled: true,
      ...rule,
    }));
  resolveReferences(out);
  return out;
}

/** The demo seed in OpenMetadata's shapes. */
export function openMetadataSeed(seed: Seed): Seed {
  return {
    ...seed,
    dataContracts: seed.dataContracts.map(
      (contract) => toOpenMetadata(contract) as ContractResource,
    ),
  };
}

/**
 * OpenMetadata's rule for reviewers, `validateReviewers`, which its updater runs on every PATCH
 * whether or not they change (a create does not): users, or one team alone.
 */
export function checkReviewerTypes(contract: Json): void {
  const reviewers = Array.isArray(contract.reviewers) ? (contract.reviewers as Json[]) : [];
  const teams = reviewers.filter((reviewer) => reviewer.type === 'team').length;
  if (teams === reviewers.length && teams > 1)
    throw new ApiError(400, 'Only one team can be assigned as reviewer.');
  if (teams < reviewers.length && !reviewers.every((reviewer) => reviewer.type === 'user'))
    throw new ApiError(
      400,
      'Invalid Reviewer Type. Only one team or multiple users can be assigned as reviewer.',
    );
}

/** Kept as relationships by OpenMetadata: read as `[]` when there are none, stored as nothing. */
const RELATIONSHIP_FIELDS = ['owners', 'reviewers'];

/** `contract` as OpenMetadata reads it, each relationship list there (empty when it has none). */
export function withRelationships(contract: Json): Json {
  const out: Json = { ...contract };
  for (const field of RELATIONSHIP_FIELDS) out[field] ??= [];
  return out;
}

/** `contract` as OpenMetadata stores it: without the relationship lists it holds none of. */
export function withoutEmptyRelationships(contract: Json): Json {
  const out: Json = { ...contract };
  for (const field of RELATIONSHIP_FIELDS) {
    const list = out[field];
    if (list === null || (Array.isArray(list) && list.length === 0)) delete out[field];
  }
  return out;
}
