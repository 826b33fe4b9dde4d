// An asset's columns as a plan checks a contract's schema against them: which the asset lacks
// (the catalog refuses a contract naming one, on create and on every PATCH), and which differ in
// type.
import type { ContractFile } from '../contract/parse.js';
import { pointerTo, type Found } from '../model/finding.js';
import type { Profile } from '../model/profile.js';
import type { LiveResult } from './create-plan.js';
import type { AssetDocument } from './asset-document.js';

/**
 * An asset's columns as the JSON text of its [name, data type] pairs ('' for no type), its own
 * first, then the nested ones, each with a third element, 1: what the checks need of a listed asset until its contract is
 * read, as one flat string instead of objects (and never a slice of the catalog's page).
 */
export type AssetColumns = string;

function assetColumns(
  columns: NonNullable<AssetDocument['columns']>,
  nested: AssetDocument['nestedColumns'] = [],
): AssetColumns {
  const pair = (column: { name?: unknown; dataType?: unknown }) => [
    column.name,
    typeof column.dataType === 'string' ? column.dataType : '',
  ];
  const named = (column: { name?: unknown }) => typeof column.name === 'string';
  return JSON.stringify([
    ...columns.filter(named).map(pair),
    ...nested.filter(named).map((column) => [...pair(column), 1]),
  ]);
}

/**
 * The fields of a found asset its contract's schema is checked against: its columns (on
 * OpenMetadata, nested ones too, by their own names, as `buildColumnMap` takes them). On
 * OpenMetadata, whose topic and API endpoint documents carry schemas instead of columns: a
 * topic's message fields, an API endpoint's request and response fields (nested ones by their own
 * names, as the server checks them).
 */
export function assetFields(document: AssetDocument, profile: Profile): AssetColumns | undefined {
  if (document.columns !== undefined)
    return assetColumns(
      document.columns,
      profile === 'openmetadata' ? document.nestedColumns : undefined,
    );
  if (profile !== 'openmetadata') return undefined;
  // The server checks names alone (a message field's types are not a column's); an asset without
  // those schemas has no fields, and the server refuses every one a contract names. An endpoint's
  // document always holds both schemas, null when absent: one that holds neither is not checked.
  const names =
    document.entityType === 'topic'
      ? (document.messageFields ?? [])
      : document.entityType === 'apiEndpoint'
        ? document.apiFields
        : undefined;
  return names === undefined ? undefined : JSON.stringify(names.map((name) => [name, '']));
}

/**
 * Column findings: the names the asset lacks, and warnings for types that differ. A file that
 * leaves `schema` out keeps the live one, which the catalog checks on every PATCH all the same:
 * then the names the asset lacks are the live schema's (`fromLive`), and types are not weighed.
 */
export function columnFindings(
  file: ContractFile,
  columns: AssetColumns | undefined,
  read: LiveResult,
): {
  lacking: string[];
  unnamed: string[];
  warnings: Found[];
  fromLive: boolean;
  /** Names the file gives that are the asset's nested columns only. */
  nested: string[];
} {
  const fileSchema = file.contract.schema;
  const fromLive = fileSchema === undefined && read.kind === 'found';
  const schema = fromLive ? read.contract.schema : fileSchema;
  const none = { lacking: [], unnamed: [], warnings: [], fromLive, nested: [] };
  if (!Array.isArray(schema) || columns === undefined) return none;
  const pairs = JSON.parse(columns) as [string, string, 1?][];
  const types = new Map(pairs.map(([name, dataType]) => [name, dataType]));
  const { type, fullyQualifiedName } = file.identity.entity;
  const lacking: string[] = [];
  const warnings: Found[] = [];
  const named = new Set<string>();
  // The asset's own columns come first (assetColumns): their names are a set of their own only
  // when nested ones follow, which few assets have.
  const firstNested = pairs.findIndex((pair) => pair[2] !== undefined);
  const topLevel = firstNested === -1 ? pairs : pairs.slice(0, firstNested);
  const topLevelNames = firstNested === -1 ? undefined : new Set(topLevel.map(([name]) => name));
  const nested: string[] = [];
  for (const [i, column] of (schema as { name: string; dataType: string }[]).entries()) {
    named.add(column.name);
    const actual = types.get(column.name);
    if (actual === undefined) {
      lacking.push(column.name);
      continue;
    }
    if (!fromLive && topLevelNames !== undefined && !topLevelNames.has(column.name))
      nested.push(column.name);
    if (
      !fromLive &&
      actual !== '' &&
      actual !== column.dataType &&
      actual.toUpperCase() !== column.dataType.toUpperCase()
    ) {
      warnings.push({
        code: 'asset.column-type-differs',
        severity: 'warning',
        message: `column ${column.name} is ${column.dataType} in the contract but ${actual} in ${type} ${fullyQualifiedName}`,
        pointer: pointerTo('schema', i, 'dataType'),
      });
    }
  }
  // The asset's columns the file does not name: where a rename the asset has not had may show.
  // Top-level ones only: a struct's fields are named by their struct.
  const unnamed =
    lacking.length === 0 ? [] : topLevel.filter(([name]) => !named.has(name)).map(([name]) => name);
  return { lacking, unnamed, warnings, fromLive, nested };
}

/**
 * What a reviewer is told of a file naming a table's nested columns: OpenMetadata 1.13 takes them
 * by their own names; a release that checks only a table's own columns (as 1.9 did) refuses them.
 */
export function nestedColumnsNote(file: ContractFile, names: readonly string[]): string {
  const { type, fullyQualifiedName } = file.identity.entity;
  const one = names.length === 1;
  return `${one ? 'column' : 'columns'} ${names.join(', ')} ${one ? 'is a nested column' : 'are nested columns'} of ${type} ${fullyQualifiedName} (a struct's fields): OpenMetadata 1.13 takes ${one ? 'it' : 'them'} by ${one ? 'its own name' : 'their own names'}, but a release that checks only a ${type}'s own columns refuses (400) a contract that names ${one ? 'it' : 'them'}`;
}
