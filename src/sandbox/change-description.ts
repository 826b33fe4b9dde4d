// What a PATCH changed, in the catalog's changeDescription form. List fields report items added
// and deleted (as JSON strings) and items changed in place; other fields report old → new.
import { isDeepStrictEqual } from 'node:util';

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

/** How items of list fields are matched; schema columns by name and type, as the catalog does. */
const LIST_ITEM_KEYS: Record<string, (item: Record<string, unknown>) => string> = {
  schema: (item) => `${String(item.name)}\u0000${String(item.dataType)}`,
  semantics: (item) => String(item.name),
  qualityExpectations: (item) => String(item.fullyQualifiedName),
  owners: (item) => `${String(item.type)}\u0000${String(item.name)}`,
  reviewers: (item) => `${String(item.type)}\u0000${String(item.name)}`,
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
): ChangeDescription {
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
    const keyOf = LIST_ITEM_KEYS[field];
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
        else if (!isDeepStrictEqual(old, item)) {
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
