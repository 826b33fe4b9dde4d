// A contract of this tool's model written as an ODCS v3.1.0 document, as OpenMetadata's converter
// writes one (ODCSConverter.toODCS), with what reading it back needs: the catalog asset (the
// customProperties entry catalogEntity), team owners told from users, and the size of a column's
// type in its physicalType (DECIMAL(12,2), VARCHAR(32)). Only what reads back as it was is
// written: every other field is left out, with the reason, and stays unmanaged by the file.
import { isDeepStrictEqual } from 'node:util';
import { yamlLibrary } from '../support/yaml-library.js';
import type { DesiredContract } from '../model/contract.js';
import type { Profile } from '../model/profile.js';
import { ENTITY_PROPERTY, fromOdcs, OWNER_TYPE_PROPERTY } from './from-odcs.js';
import { ISO_UNITS, LOGICAL_TYPE_OF, NUMERIC_TYPES } from './odcs-vocabulary.js';

type Doc = Record<string, unknown>;

/**
 * The ODCS status of an entityStatus, as the server's export writes it (ODCSConverter from 1.13,
 * when Archived came: Archived and Deprecated are deprecated; draft for one ODCS lacks).
 */
const ODCS_STATUS: Readonly<Record<string, string>> = {
  Approved: 'active',
  Active: 'active',
  Archived: 'deprecated',
  Deprecated: 'deprecated',
  Draft: 'draft',
};

/** An ISO 8601 duration of one unit (P1D, PT4H) as an SLA property's value and unit. */
function slaValue(iso: unknown): { value: number; unit: string } | undefined {
  if (typeof iso !== 'string') return undefined;
  const match = /^P(T?)(\d+)([YMWDHS])$/.exec(iso);
  if (match === null) return undefined;
  const unit = ISO_UNITS[`${match[1]!}${match[3]!}`];
  return unit === undefined ? undefined : { value: Number(match[2]), unit };
}

interface Column {
  name: string;
  dataType: string;
  description?: string;
  constraint?: string;
  dataLength?: number;
  precision?: number;
  scale?: number;
}

function column(native: Column): Doc {
  const type = native.dataType;
  const size =
    native.precision !== undefined
      ? `(${String(native.precision)}${native.scale === undefined ? '' : `,${String(native.scale)}`})`
      : native.dataLength !== undefined
        ? `(${String(native.dataLength)})`
        : '';
  return {
    name: native.name,
    logicalType: LOGICAL_TYPE_OF[type] ?? (NUMERIC_TYPES.has(type) ? 'number' : 'string'),
    physicalType: `${type}${size}`,
    ...(native.description === undefined ? {} : { description: native.description }),
    ...(native.constraint === 'PRIMARY_KEY' ? { primaryKey: true } : {}),
    ...(native.constraint === 'UNIQUE' ? { unique: true } : {}),
    ...(native.constraint === 'NOT_NULL' ? { required: true } : {}),
  };
}

/** The document for `contract` as given (its fields all written, whether or not they read back). */
function documentOf(contract: Doc, identity: { id: string; version: string }): Doc {
  const entity = contract.entity as { type: string; fullyQualifiedName: string };
  const doc: Doc = {
    apiVersion: 'v3.1.0',
    kind: 'DataContract',
    id: identity.id,
    version: identity.version,
    name: contract.name,
    // The server's export writes draft for a status ODCS lacks.
    status: ODCS_STATUS[String(contract.entityStatus)] ?? 'draft',
  };
  if (typeof contract.description === 'string') doc.description = { purpose: contract.description };
  if (Array.isArray(contract.schema))
    doc.schema = [
      {
        name: entity.fullyQualifiedName.split('.').at(-1),
        logicalType: 'object',
        physicalType: entity.type,
        properties: (contract.schema as Column[]).map(column),
      },
    ];
  if (Array.isArray(contract.owners))
    doc.team = {
      members: (contract.owners as { type: string; name: string }[]).map((owner) =>
        owner.type === 'user'
          ? { username: owner.name, role: 'owner' }
          : // ODCS names every member by username; the server finds a team by its name.
            {
              username: owner.name,
              name: owner.name,
              role: 'owner',
              customProperties: [{ property: OWNER_TYPE_PROPERTY, value: 'team' }],
            },
      ),
    };
  const security = contract.security as Doc | null | undefined;
  if (security !== null && security !== undefined) {
    const roles: Doc[] = ((security.policies as Doc[] | undefined) ?? []).map((policy) => ({
      role: policy.accessPolicy,
      access: 'read',
      ...(Array.isArray(policy.identities) && policy.identities.length > 0
        ? { firstLevelApprovers: (policy.identities as string[]).join(', ') }
        : {}),
    }));
    if (typeof security.dataClassification === 'string')
      roles.push({ role: `classification-${security.dataClassification}` });
    doc.roles = roles;
  }
  const sla = contract.sla as Doc | null | undefined;
  if (sla !== null && sla !== undefined) {
    const properties: Doc[] = [];
    for (const [field, property] of [
      ['refreshFrequency', 'freshness'],
      ['maxLatency', 'latency'],
      ['retention', 'retention'],
    ] as const) {
      const read = slaValue(sla[field]);
      if (read !== undefined) properties.push({ property, ...read });
    }
    if (typeof sla.availabilityTime === 'string')
      properties.push({
        property: 'availabilityTime',
        value: sla.availabilityTime,
        ...(typeof sla.timezone === 'string' ? { valueExt: sla.timezone } : {}),
      });
    doc.slaProperties = properties;
  }
  doc.customProperties = [
    { property: ENTITY_PROPERTY, value: `${entity.type}:${entity.fullyQualifiedName}` },
  ];
  return doc;
}

/** Whether two values hold the same data (whatever their objects' prototypes). */
function sameData(a: unknown, b: unknown): boolean {
  const plain = (value: unknown): unknown =>
    value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
  return isDeepStrictEqual(plain(a), plain(b));
}

/** The fields of a contract's model an ODCS document could write; the others never can. */
const WRITABLE = ['description', 'entityStatus', 'schema', 'owners', 'security', 'sla'];

/**
 * The ODCS document for `contract` (a contract file's model), and the fields left out of it:
 * those ODCS has no place for, and those that would not read back as they are (as `profile`'s
 * catalog stores them), each with the reason.
 */
export function toOdcs(
  contract: DesiredContract,
  identity: { id: string; version: string },
  profile: Profile,
): { document: Doc; leftOut: string[] } {
  const kept: Doc = { ...contract };
  const leftOut: string[] = [];
  for (const field of Object.keys(kept))
    if (!['name', 'fullyQualifiedName', 'entity', ...WRITABLE].includes(field)) {
      leftOut.push(`${field} (ODCS has no place the catalog reads it back from)`);
      delete kept[field];
    }
  for (;;) {
    const document = documentOf(kept, identity);
    const read = fromOdcs(JSON.parse(JSON.stringify(document)) as Doc).contract as Doc | undefined;
    const back =
      read !== undefined && profile === 'spec' && read.entityStatus === 'Approved'
        ? { ...read, entityStatus: 'Active' }
        : read;
    const differing = WRITABLE.filter(
      (field) => kept[field] !== undefined && !sameData(back?.[field], kept[field]),
    );
    // The status is always written (ODCS requires one): one it cannot hold is said, and kept.
    const lost = differing.filter((field) => field !== 'entityStatus');
    if (differing.includes('entityStatus') && !leftOut.some((f) => f.startsWith('entityStatus')))
      leftOut.push(
        `entityStatus (${String(kept.entityStatus)} has no ODCS status; written as ${String(document.status)}, which the catalog reads as ${String(back?.entityStatus)}: plan will show that change)`,
      );
    if (lost.length === 0) return { document, leftOut };
    for (const field of lost) {
      leftOut.push(`${field} (it would not read back from ODCS as the catalog stores it)`);
      delete kept[field];
    }
  }
}

/** The text of an ODCS file for `contract`, with the schema comment; and the fields left out. */
export function odcsFileText(
  contract: DesiredContract,
  identity: { id: string; version: string },
  profile: Profile,
  schemaPath: string,
): { text: string; leftOut: string[] } {
  const { document, leftOut } = toOdcs(contract, identity, profile);
  return {
    text: `# yaml-language-server: $schema=${schemaPath}\n${yamlLibrary().stringify(document, { lineWidth: 0 })}`,
    leftOut,
  };
}
