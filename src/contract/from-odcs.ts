// An ODCS v3 document (the Open Data Contract Standard) read as a contract of this tool's model,
// field by field as OpenMetadata's own converter reads it (ODCSConverter.fromODCS), so that a
// contract applied from an ODCS file reads as one the server imported from it. Beside the
// contract: where each of its fields came from in the document (for positions), what of the
// document the catalog cannot store (it stays only in git), and what cannot be read at all.
import type { DesiredContract } from '../model/contract.js';
import {
  COLUMN_KEYS,
  DATA_TYPES,
  duration,
  LOGICAL_TYPES,
  NUMERIC_TYPES,
  READ_KEYS,
  sizedType,
  SLA_FIELDS,
  STATUSES,
} from './odcs-vocabulary.js';

/** The `customProperties` entry that names the catalog asset: `TYPE:FQN`. */
export const ENTITY_PROPERTY = 'catalogEntity';
/** A team member's `customProperties` entry that makes an owner a team (`team`), not a user. */
export const OWNER_TYPE_PROPERTY = 'catalogOwnerType';

/** Something of the document, at its JSON pointer. */
export interface Placed {
  pointer: string;
  message: string;
}

export interface OdcsReading {
  /** Undefined when the document names no catalog asset (see `unnamed`). */
  contract: DesiredContract | undefined;
  /** Why no contract: the document names no catalog asset. */
  unnamed?: Placed;
  /** Values the server could not read: problems of the file. */
  problems: Placed[];
  /** What the catalog does not store: it stays only in git. */
  unstored: Placed[];
  /** Pairs of (the contract's pointer, the document's pointer it came from), longest first. */
  sources: [string, string][];
}

type Doc = Record<string, unknown>;

const isRecord = (value: unknown): value is Doc =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Whether a parsed file is an ODCS document: by its name, or by its kind and apiVersion. */
export function isOdcsDocument(file: string, value: unknown): boolean {
  if (/\.odcs\.ya?ml$/i.test(file)) return true;
  return (
    isRecord(value) &&
    value.kind === 'DataContract' &&
    typeof value.apiVersion === 'string' &&
    /^v3\./.test(value.apiVersion)
  );
}

/** The schema object that is the asset: the one of its name, else the first; or the legacy flat list. */
function schemaObject(
  schema: unknown[],
  assetName: string,
): { index: number; properties: unknown[]; pointer: string } | undefined {
  const objects = schema
    .map((element, index) => ({ element, index }))
    .filter(
      ({ element }) =>
        isRecord(element) &&
        (element.logicalType === 'object' ||
          (Array.isArray(element.properties) && element.properties.length > 0)),
    );
  if (objects.length === 0) return { index: -1, properties: schema, pointer: '/schema' };
  const chosen =
    objects.find(
      ({ element }) =>
        typeof (element as Doc).name === 'string' &&
        ((element as Doc).name as string).toLowerCase() === assetName.toLowerCase(),
    ) ?? objects[0]!;
  const properties = (chosen.element as Doc).properties;
  return {
    index: chosen.index,
    properties: Array.isArray(properties) ? properties : [],
    pointer: `/schema/${chosen.index}/properties`,
  };
}

/** Reads one ODCS document (already valid against the ODCS schema). */
export function fromOdcs(doc: Doc): OdcsReading {
  const problems: Placed[] = [];
  const unstored: Placed[] = [];
  const sources: [string, string][] = [];
  const customProperties = Array.isArray(doc.customProperties) ? doc.customProperties : [];
  const at = customProperties.findIndex(
    (entry) => isRecord(entry) && entry.property === ENTITY_PROPERTY,
  );
  for (const key of Object.keys(doc))
    if (!READ_KEYS.has(key))
      unstored.push({ pointer: `/${key}`, message: `${key} stays only in git` });
  customProperties.forEach((entry, i) => {
    if (i !== at && isRecord(entry))
      unstored.push({
        pointer: `/customProperties/${i}`,
        message: `customProperties ${String(entry.property)} stays only in git`,
      });
  });
  const status = text(doc.status);
  if (status !== undefined && STATUSES[status.toLowerCase()] === undefined)
    problems.push({
      pointer: '/status',
      message: `status must be one of ${Object.keys(STATUSES).join(', ')} for the catalog (it reads no other), got '${status}'`,
    });
  if (at === -1)
    return {
      contract: undefined,
      unnamed: {
        pointer: Array.isArray(doc.customProperties) ? '/customProperties' : '',
        message: `the document names no catalog asset: add customProperties: [{property: ${ENTITY_PROPERTY}, value: "TYPE:FQN"}] (for example table:warehouse.sales.public.orders)`,
      },
      problems,
      unstored,
      sources,
    };
  const named = text((customProperties[at] as Doc).value) ?? '';
  const colon = named.indexOf(':');
  if (colon <= 0 || colon === named.length - 1) {
    problems.push({
      pointer: `/customProperties/${at}/value`,
      message: `${ENTITY_PROPERTY} must be TYPE:FQN such as table:warehouse.sales.public.orders, got '${named}'`,
    });
    return { contract: undefined, problems, unstored, sources };
  }
  const entity = { type: named.slice(0, colon), fullyQualifiedName: named.slice(colon + 1) };
  const assetName = entity.fullyQualifiedName.split('.').at(-1)!;
  const name = text(doc.name) ?? assetName;
  const contract: DesiredContract = {
    name,
    fullyQualifiedName: `${entity.fullyQualifiedName}.dataContract_${name}`,
    entity,
  };
  sources.push(['/entity', `/customProperties/${at}/value`]);
  sources.push(['/fullyQualifiedName', `/customProperties/${at}/value`]);
  sources.push(['/name', doc.name === undefined ? `/customProperties/${at}/value` : '/name']);
  contract.entityStatus = STATUSES[status?.toLowerCase() ?? 'draft'] ?? 'Draft';
  sources.push(['/entityStatus', '/status']);
  readDescription(doc, contract, sources, unstored);
  if (Array.isArray(doc.schema))
    readSchema(doc.schema, assetName, contract, sources, unstored, problems);
  readTeam(doc, contract, sources, unstored);
  readRoles(doc, contract, sources);
  readSla(doc, contract, sources, problems, unstored);
  return {
    contract,
    problems,
    unstored,
    sources: sources.sort((a, b) => b[0].length - a[0].length),
  };
}

function readDescription(
  doc: Doc,
  contract: DesiredContract,
  sources: [string, string][],
  unstored: Placed[],
): void {
  if (!isRecord(doc.description)) return;
  const { purpose, limitations, usage } = doc.description;
  let description = text(purpose) ?? '';
  if (text(limitations) !== undefined)
    description += `${description === '' ? '' : '\n\n**Limitations:**\n'}${text(limitations)!}`;
  if (text(usage) !== undefined)
    description += `${description === '' ? '' : '\n\n**Usage:**\n'}${text(usage)!}`;
  contract.description = description;
  sources.push(['/description', '/description']);
  for (const key of ['authoritativeDefinitions', 'customProperties'])
    if (doc.description[key] !== undefined)
      unstored.push({
        pointer: `/description/${key}`,
        message: `description.${key} stays only in git`,
      });
}

function readSchema(
  schema: unknown[],
  assetName: string,
  contract: DesiredContract,
  sources: [string, string][],
  unstored: Placed[],
  problems: Placed[],
): void {
  const chosen = schemaObject(schema, assetName);
  if (chosen === undefined) return;
  // OpenMetadata's REST import of a document reads its first schema object (it passes no object
  // name): the asset's object must be that one, so that the catalog and this tool read the same.
  const first = schema.findIndex(
    (element) =>
      isRecord(element) &&
      (element.logicalType === 'object' ||
        (Array.isArray(element.properties) && element.properties.length > 0)),
  );
  if (chosen.index !== -1 && first !== -1 && chosen.index !== first)
    problems.push({
      pointer: `/schema/${chosen.index}/name`,
      message: `the schema object of ${assetName} must come first: OpenMetadata's ODCS import reads the first schema object (${String((schema[first] as Doc).name)}) of a document, so that one would be imported for this asset; move this object to the top of schema, or keep each object in a document of its own`,
    });
  schema.forEach((element, i) => {
    if (chosen.index !== -1 && i !== chosen.index && isRecord(element))
      unstored.push({
        pointer: `/schema/${i}`,
        message: `schema object ${String(element.name)} stays only in git (the contract holds the columns of ${assetName} alone)`,
      });
  });
  const columns: Record<string, unknown>[] = [];
  chosen.properties.forEach((property, i) => {
    if (!isRecord(property)) return;
    const from = `${chosen.pointer}/${i}`;
    const column: Record<string, unknown> = { name: property.name };
    if (typeof property.description === 'string') column.description = property.description;
    const physical = text(property.physicalType)?.toUpperCase();
    // The size the server's reader drops (it reads DECIMAL(12,2) as DECIMAL, varchar(2) as
    // STRING) is kept: the type and its size, as the catalog shows the table's column.
    const sized = physical === undefined ? undefined : sizedType(physical);
    if (sized !== undefined && DATA_TYPES.has(sized.type)) {
      column.dataType = sized.type;
      if (NUMERIC_TYPES.has(sized.type)) {
        column.precision = sized.first;
        if (sized.second !== undefined) column.scale = sized.second;
      } else column.dataLength = sized.first;
    } else
      column.dataType =
        physical !== undefined && DATA_TYPES.has(physical)
          ? physical
          : (LOGICAL_TYPES[text(property.logicalType) ?? 'string'] ?? 'STRING');
    sources.push([
      `/schema/${i}/dataType`,
      `${from}/${physical !== undefined ? 'physicalType' : 'logicalType'}`,
    ]);
    const constraint =
      property.primaryKey === true
        ? ['PRIMARY_KEY', 'primaryKey']
        : property.unique === true
          ? ['UNIQUE', 'unique']
          : property.required === true
            ? ['NOT_NULL', 'required']
            : undefined;
    if (constraint !== undefined) {
      column.constraint = constraint[0];
      sources.push([`/schema/${i}/constraint`, `${from}/${constraint[1]!}`]);
    }
    const options = property.logicalTypeOptions;
    if (isRecord(options) && Number.isInteger(options.maxLength)) {
      column.dataLength = options.maxLength;
      sources.push([`/schema/${i}/dataLength`, `${from}/logicalTypeOptions/maxLength`]);
    }
    sources.push([`/schema/${i}`, from]);
    for (const key of Object.keys(property))
      if (!COLUMN_KEYS.has(key))
        unstored.push({
          pointer: `${from}/${key}`,
          message: `schema property ${String(property.name)}'s ${key} stays only in git`,
        });
    columns.push(column);
  });
  contract.schema = columns;
  sources.push(['/schema', chosen.pointer]);
}

function readTeam(
  doc: Doc,
  contract: DesiredContract,
  sources: [string, string][],
  unstored: Placed[],
): void {
  // The object form {name, members} (3.1.0), or the list of members (3.0.x), as the server takes both.
  const members = isRecord(doc.team) ? doc.team.members : doc.team;
  const base = isRecord(doc.team) ? '/team/members' : '/team';
  if (!Array.isArray(members) || members.length === 0) return;
  const owners: { type: 'user' | 'team'; name: string }[] = [];
  members.forEach((member, i) => {
    if (!isRecord(member)) return;
    // A user by its username; a team when the member says so (customProperties catalogOwnerType:
    // team), where the server tries a user of that name first, then a team of its name.
    const name = text(member.username) ?? text(member.name);
    const team =
      Array.isArray(member.customProperties) &&
      member.customProperties.some(
        (entry) =>
          isRecord(entry) && entry.property === OWNER_TYPE_PROPERTY && entry.value === 'team',
      );
    if (text(member.role)?.toLowerCase() === 'owner' && name !== undefined) {
      sources.push([`/owners/${owners.length}`, `${base}/${i}`]);
      owners.push({ type: team ? 'team' : 'user', name });
    } else
      unstored.push({
        pointer: `${base}/${i}`,
        message: `team member ${name ?? String(i)} stays only in git (the catalog keeps the members whose role is owner, as owners)`,
      });
  });
  contract.owners = owners;
  sources.push(['/owners', base]);
}

function readRoles(doc: Doc, contract: DesiredContract, sources: [string, string][]): void {
  if (!Array.isArray(doc.roles) || doc.roles.length === 0) return;
  const policies: { accessPolicy: string; identities?: string[] }[] = [];
  let dataClassification: string | undefined;
  for (const role of doc.roles) {
    if (!isRecord(role) || typeof role.role !== 'string') continue;
    if (role.role.startsWith('classification-'))
      dataClassification = role.role.slice('classification-'.length);
    else {
      // A string in the standard, naming one approver or several, comma-separated: each is an
      // identity (the server keeps the string whole, as one).
      const approvers = role.firstLevelApprovers;
      const identities =
        typeof approvers === 'string'
          ? approvers
              .split(',')
              .map((name) => name.trim())
              .filter((name) => name !== '')
          : [];
      policies.push({
        accessPolicy: role.role,
        ...(identities.length === 0 ? {} : { identities }),
      });
    }
  }
  contract.security = {
    ...(dataClassification === undefined ? {} : { dataClassification }),
    ...(policies.length === 0 ? {} : { policies }),
  };
  sources.push(['/security', '/roles']);
}

function readSla(
  doc: Doc,
  contract: DesiredContract,
  sources: [string, string][],
  problems: Placed[],
  unstored: Placed[],
): void {
  if (!Array.isArray(doc.slaProperties) || doc.slaProperties.length === 0) return;
  const sla: Record<string, unknown> = {};
  doc.slaProperties.forEach((property, i) => {
    if (!isRecord(property) || typeof property.property !== 'string') return;
    const key = property.property.toLowerCase();
    const field = SLA_FIELDS[key];
    const from = `/slaProperties/${i}`;
    if (field !== undefined) {
      const read = duration(property.value, property.unit);
      if ('problem' in read)
        problems.push({
          pointer: `${from}/value`,
          message: `SLA ${property.property} ${read.problem}`,
        });
      else {
        sla[field] = read.iso;
        sources.push([`/sla/${field}`, from]);
      }
    } else if (key === 'availabilitytime') {
      sla.availabilityTime = property.value;
      if (typeof property.valueExt === 'string') sla.timezone = property.valueExt;
      sources.push(['/sla/availabilityTime', from]);
    } else
      unstored.push({
        pointer: from,
        message: `SLA property ${property.property} stays only in git (the catalog reads freshness, latency, retention and availabilityTime)`,
      });
  });
  contract.sla = sla;
  sources.push(['/sla', '/slaProperties']);
}

/** The document's pointer that a contract's pointer came from: the longest source that holds it. */
export function sourcePointer(sources: readonly [string, string][], pointer: string): string {
  for (const [from, to] of sources)
    if (pointer === from || pointer.startsWith(`${from}/`)) return to;
  // Not a field of the contract: a pointer into the document itself (something it keeps in git).
  return pointer;
}
