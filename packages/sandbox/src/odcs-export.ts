// OpenMetadata's ODCS export of a stored contract (`GET /v1/dataContracts/{id}/odcs[/yaml]`,
// `/name/{fqn}/odcs[/yaml]`), as its ODCSConverter.toODCS writes one: ODCS v3.1.0, the columns as
// the one schema object's properties, owners as team members, security as roles, the SLA as SLA
// properties. The sandbox's own reading of the server, written apart from the tool's (odcs/).
import type { Json } from './http.js';

type Record_ = Record<string, unknown>;

const isRecord = (value: unknown): value is Record_ =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** mapContractStatusToODCS (from 1.13, which has Archived: Archived and Deprecated → deprecated). */
function status(entityStatus: unknown): string {
  if (entityStatus === 'Approved') return 'active';
  if (entityStatus === 'Deprecated' || entityStatus === 'Archived') return 'deprecated';
  return 'draft';
}

/** mapDataTypeToLogicalType (OpenMetadata's own enum, lowercase as it serializes it). */
function logicalType(dataType: unknown): string {
  switch (dataType) {
    case 'INT':
    case 'SMALLINT':
    case 'TINYINT':
    case 'BYTEINT':
      return 'integer';
    case 'BIGINT':
      return 'long';
    case 'FLOAT':
      return 'float';
    case 'DOUBLE':
      return 'double';
    case 'DECIMAL':
    case 'NUMERIC':
      return 'decimal';
    case 'NUMBER':
      return 'number';
    case 'BOOLEAN':
      return 'boolean';
    case 'DATE':
    case 'DATETIME':
      return 'date';
    case 'TIMESTAMP':
    case 'TIMESTAMPZ':
      return 'timestamp';
    case 'TIME':
      return 'time';
    case 'ARRAY':
      return 'array';
    case 'MAP':
    case 'STRUCT':
    case 'JSON':
      return 'object';
    case 'BLOB':
    case 'BYTEA':
    case 'BINARY':
    case 'VARBINARY':
    case 'LONGBLOB':
    case 'MEDIUMBLOB':
      return 'bytes';
    case 'TEXT':
    case 'MEDIUMTEXT':
    case 'CLOB':
    case 'NTEXT':
      return 'text';
    default:
      return 'string';
  }
}

/** convertColumnToODCS. */
function property(column: Record_): Record_ {
  const out: Record_ = {
    name: column.name,
    physicalName: column.name,
    ...(column.description === undefined ? {} : { description: column.description }),
    logicalType: logicalType(column.dataType),
    physicalType: column.dataType,
  };
  if (column.constraint !== undefined && column.constraint !== null) {
    out.primaryKey = column.constraint === 'PRIMARY_KEY';
    out.unique = column.constraint === 'UNIQUE';
    out.required = column.constraint === 'NOT_NULL';
  }
  if (typeof column.dataLength === 'number')
    out.logicalTypeOptions = { maxLength: column.dataLength };
  if (Array.isArray(column.children) && column.children.length > 0)
    out.properties = (column.children as Record_[]).map(property);
  return out;
}

/** One SLA property, its value as the string the server writes. */
function slaProperty(name: string, value: unknown, unit: unknown): Record_ {
  return { property: name, value: String(value), ...(typeof unit === 'string' ? { unit } : {}) };
}

export function odcsOfContract(contract: Record_): Json {
  const entity = isRecord(contract.entity) ? contract.entity : undefined;
  const odcs: Record_ = {
    apiVersion: 'v3.1.0',
    kind: 'DataContract',
    id: contract.id,
    name: contract.name,
    version: typeof contract.version === 'number' ? String(contract.version) : '1.0.0',
    status: status(contract.entityStatus),
  };
  if (typeof contract.description === 'string')
    odcs.description = { purpose: contract.description };
  const fqn =
    typeof entity?.fullyQualifiedName === 'string' ? entity.fullyQualifiedName : undefined;
  if (fqn !== undefined) {
    const parts = fqn.split('.');
    odcs.domain = parts.length >= 2 ? `${parts[0]!}.${parts[1]!}` : parts[0];
    odcs.dataProduct = fqn;
  }
  if (Array.isArray(contract.schema) && contract.schema.length > 0)
    odcs.schema = [
      {
        name: entity?.name ?? contract.name,
        logicalType: 'object',
        physicalType: 'table',
        properties: (contract.schema as Record_[]).map(property),
      },
    ];
  if (Array.isArray(contract.owners) && contract.owners.length > 0)
    odcs.team = (contract.owners as Record_[]).map((owner) => ({
      username: owner.name,
      name: owner.displayName ?? owner.name,
      role: 'owner',
    }));
  if (isRecord(contract.security)) {
    const roles: Record_[] = [];
    for (const policy of (contract.security.policies as Record_[] | undefined) ?? [])
      roles.push({
        role: policy.accessPolicy ?? 'data-consumer',
        access: 'read',
        ...(Array.isArray(policy.identities) ? { firstLevelApprovers: policy.identities } : {}),
      });
    if (typeof contract.security.dataClassification === 'string')
      roles.push({
        role: `classification-${contract.security.dataClassification}`,
        description: `Data classification: ${contract.security.dataClassification}`,
      });
    odcs.roles = roles;
  }
  if (isRecord(contract.sla)) {
    const sla = contract.sla;
    const properties: Record_[] = [];
    if (isRecord(sla.refreshFrequency))
      properties.push(
        slaProperty('freshness', sla.refreshFrequency.interval, sla.refreshFrequency.unit),
      );
    if (isRecord(sla.maxLatency))
      properties.push(slaProperty('latency', sla.maxLatency.value, sla.maxLatency.unit));
    if (isRecord(sla.retention))
      properties.push(slaProperty('retention', sla.retention.period, sla.retention.unit));
    if (typeof sla.availabilityTime === 'string')
      properties.push({
        property: 'availabilityTime',
        value: sla.availabilityTime,
        ...(typeof sla.timezone === 'string' ? { valueExt: sla.timezone } : {}),
      });
    odcs.slaProperties = properties;
  }
  if (typeof contract.createdAt === 'number')
    odcs.contractCreatedTs = new Date(contract.createdAt).toISOString();
  if (contract.termsOfUse !== undefined && contract.termsOfUse !== null)
    odcs.tags = ['terms-of-use'];
  if (Array.isArray(contract.odcsQualityRules) && contract.odcsQualityRules.length > 0)
    odcs.quality = contract.odcsQualityRules;
  return odcs;
}

/**
 * The contract an ODCS export route names (`{id}/odcs`, `name/{fqn}/odcs`, each with `/yaml`),
 * from the segments after `dataContracts`; undefined for any other route.
 */
export function odcsRequest(
  route: readonly string[],
): { lookup: { id: string } | { fqn: string }; yaml: boolean } | undefined {
  const yaml = route.at(-1) === 'yaml';
  const rest = route.slice(1, route.length - (yaml ? 1 : 0));
  if (rest.at(-1) !== 'odcs') return undefined;
  const head = rest.slice(0, -1);
  if (head.length === 1) return { lookup: { id: head[0]! }, yaml };
  if (head.length === 2 && head[0] === 'name') return { lookup: { fqn: head[1]! }, yaml };
  return undefined;
}
