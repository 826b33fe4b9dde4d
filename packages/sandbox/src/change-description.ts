// What a PATCH changed, in the catalog's changeDescription form. List fields report items added
// and deleted (as JSON strings); under the spec also items changed in place and reorders. Other
// fields report old → new.
//
// OpenMetadata records a list's items only as added or deleted, each matched by its own matcher
// (`recordListChange` in `EntityRepository`; a contract's columns by name whatever its case, data
// type and array data type, `EntityUtil.columnMatch`; its semantics rules by every part a file sets, `semanticsRuleMatch`;
// references by id and type). A column whose description or constraint changed, or a reordered
// list, is recorded as nothing.
import { isDeepStrictEqual } from 'node:util';
import type { SandboxProfile } from './openmetadata.js';

export interface FieldChange {
  name: string;
  oldValue?: unknown;
  newValue?: unknown;
}

export interface ChangeDescription {
  fieldsAdded: FieldChange[];
  fieldsUpdated: FieldChange[];
  fieldsDeleted: FieldChange[];
  previousVersion: number;
}

type ItemKey = (item: Record<string, unknown>) => string;

/** How items of list fields are matched; schema columns by name and type, as the catalog does. */
const LIST_ITEM_KEYS: Record<SandboxProfile, Record<string, ItemKey>> = {
  spec: {
    schema: (item) => `${String(item.name)}\u0000${String(item.dataType)}`,
    semantics: (item) => String(item.name),
    qualityExpectations: (item) => String(item.fullyQualifiedName),
    owners: (item) => `${String(item.type)}\u0000${String(item.name)}`,
    reviewers: (item) => `${String(item.type)}\u0000${String(item.name)}`,
  },
  openmetadata: {
    // EntityUtil.columnMatch: name.equalsIgnoreCase, dataType, arrayDataType.
    schema: (item) =>
      JSON.stringify([
        typeof item.name === 'string' ? item.name.toLowerCase() : item.name,
        item.dataType,
        item.arrayDataType,
      ]),
    semantics: (item) =>
      JSON.stringify(
        ['name', 'rule', 'description', 'enabled', 'entityType', 'provider'].map((k) => item[k]),
      ),
    qualityExpectations: (item) => JSON.stringify([item.id, item.type]),
    owners: (item) => JSON.stringify([item.id, item.type]),
    reviewers: (item) => JSON.stringify([item.id, item.type]),
  },
};

/** Fields the server computes; never reported as changed. */
export const COMPUTED: ReadonlySet<string> = new Set([
  'version',
  'updatedAt',
  'updatedBy',
  'changeDescription',
  'incrementalChangeDescription',
  'href',
]);

function asText(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? (value.filter((v) => v !== null && typeof v === 'object') as Record<string, unknown>[])
    : [];
}

export function describeChange(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  previousVersion: number,
  profile: SandboxProfile = 'spec',
): ChangeDescription {
  const inPlace = profile === 'spec';
  const change: ChangeDescription = {
    fieldsAdded: [],
    fieldsUpdated: [],
    fieldsDeleted: [],
    previousVersion,
  };
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const field of fields) {
    if (COMPUTED.has(field)) continue;
    const oldValue = before[field];
    const newValue = after[field];
    if (isDeepStrictEqual(oldValue, newValue)) continue;
    const keyOf = LIST_ITEM_KEYS[profile][field];
    if (
      keyOf !== undefined &&
      (Array.isArray(oldValue) || oldValue === undefined) &&
      (Array.isArray(newValue) || newValue === undefined)
    ) {
      const entriesBefore =
        change.fieldsAdded.length + change.fieldsUpdated.length + change.fieldsDeleted.length;
      const oldItems = new Map(records(oldValue).map((item) => [keyOf(item), item]));
      const newItems = new Map(records(newValue).map((item) => [keyOf(item), item]));
      for (const [key, item] of newItems) {
        const old = oldItems.get(key);
        if (old === undefined)
          change.fieldsAdded.push({ name: field, newValue: JSON.stringify(item) });
        else if (inPlace && !isDeepStrictEqual(old, item)) {
          change.fieldsUpdated.push({
            name: `${field}.${String(item.name ?? item.fullyQualifiedName)}`,
            oldValue: JSON.stringify(old),
            newValue: JSON.stringify(item),
          });
        }
      }
      for (const [key, item] of oldItems) {
        if (!newItems.has(key))
          change.fieldsDeleted.push({ name: field, oldValue: JSON.stringify(item) });
      }
      // A pure reorder changes no item; report it so the version still tells the truth.
      if (
        inPlace &&
        change.fieldsAdded.length + change.fieldsUpdated.length + change.fieldsDeleted.length ===
          entriesBefore
      ) {
        change.fieldsUpdated.push({
          name: field,
          oldValue: JSON.stringify(oldValue),
          newValue: JSON.stringify(newValue),
        });
      }
      continue;
    }
    if (oldValue === undefined)
      change.fieldsAdded.push({ name: field, newValue: asText(newValue) });
    else if (newValue === undefined)
      change.fieldsDeleted.push({ name: field, oldValue: asText(oldValue) });
    else
      change.fieldsUpdated.push({
        name: field,
        oldValue: asText(oldValue),
        newValue: asText(newValue),
      });
  }
  return change;
}

export function nextVersion(version: number): number {
  return Math.round((version + 0.1) * 10) / 10;
}
