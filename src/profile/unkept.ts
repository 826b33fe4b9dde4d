// What OpenMetadata does not keep of a PATCH on its own. It stores a PATCH only when its updater
// counts a change in it (`storeUpdate` in `EntityRepository`: no version change and no change
// counted, nothing stored), and it counts a list's items only as added or removed, each matched by
// its own matcher (`recordListChange`): a contract's columns by name whatever its case, data type
// and array data type (`EntityUtil.columnMatch`), its semantics rules by every part a file sets (`semanticsRuleMatch`
// in `DataContractRepository`), references by id and type. A change only to a column's
// description, constraint, length, precision or scale, or to the case of its name, or only to a
// list's order, is answered 200
// with the patched contract at the version it had, and dropped: plan sends none (a warning at its
// line), so that a re-plan can reach no changes.
import { isDeepStrictEqual } from 'node:util';
import { MANAGED_FIELDS } from '../model/contract.js';
import type { JsonObject } from '../model/json-value.js';
import { pointerTo, type FindingCode, type Found } from '../model/finding.js';

type Key = (item: JsonObject) => string;

const reference: Key = (item) =>
  JSON.stringify([item.type, item.id ?? null, item.id === undefined ? item.name : null]);

/** OpenMetadata's matcher of each list field's items. */
const MATCHERS: Record<string, Key> = {
  // EntityUtil.columnMatch: the name whatever its case (equalsIgnoreCase), the data type, the
  // array's data type.
  schema: (column) =>
    JSON.stringify([
      typeof column.name === 'string' ? column.name.toLowerCase() : column.name,
      column.dataType,
      column.arrayDataType ?? null,
    ]),
  semantics: (rule) =>
    JSON.stringify(
      ['name', 'rule', 'description', 'enabled', 'entityType', 'provider'].map(
        (part) => rule[part] ?? null,
      ),
    ),
  qualityExpectations: reference,
  owners: reference,
  reviewers: reference,
};

const LIST_NAMES: Record<string, string> = {
  schema: 'columns',
  semantics: 'semantics rules',
  qualityExpectations: 'quality expectations',
  owners: 'owners',
  reviewers: 'reviewers',
};

function items(value: unknown): JsonObject[] | undefined {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? (value as JsonObject[]) : undefined;
}

/** One part of what is not kept: its words, its code, and where it is in the patched contract. */
interface Part {
  text: string;
  code: FindingCode;
  pointer: string;
}

/**
 * What differs between columns OpenMetadata takes for the same one: "column id's description",
 * at the first property that differs where the column has it, else at the column.
 */
function columnsChangedInPlace(before: JsonObject[], after: JsonObject[]): Part[] {
  const key = MATCHERS.schema!;
  const stored = new Map(before.map((column) => [key(column), column]));
  const changed: Part[] = [];
  for (const [i, column] of after.entries()) {
    const old = stored.get(key(column))!;
    const properties = [...new Set([...Object.keys(old), ...Object.keys(column)])].filter(
      (property) => !isDeepStrictEqual(old[property], column[property]),
    );
    if (properties.length > 0)
      changed.push({
        text: `column ${String(column.name)}'s ${properties.join(' and ')}`,
        code: 'unkept.column-property',
        pointer:
          column[properties[0]!] === undefined
            ? pointerTo('schema', i)
            : pointerTo('schema', i, properties[0]!),
      });
  }
  return changed;
}

/** What each warning of unkeptChange says after the properties it names. */
const NOT_KEPT = ' will not be kept by OpenMetadata on its own: ';

/** Whether `warning`, one of a planned change's, is unkeptChange's. */
export function isUnkeptWarning(warning: string): boolean {
  return warning.includes(NOT_KEPT);
}

/**
 * What of the change from `live` to `patched` (the contract as the PATCH leaves it, on
 * OpenMetadata's wire) the catalog would not keep, as one warning at the first thing it names;
 * undefined when it counts a change (and so keeps all of it) or nothing changes.
 */
export function unkeptChange(live: JsonObject, patched: JsonObject): Found | undefined {
  const unkept: Part[] = [];
  for (const field of MANAGED_FIELDS) {
    if (isDeepStrictEqual(live[field], patched[field])) continue;
    const key = MATCHERS[field];
    const before = items(live[field]);
    const after = items(patched[field]);
    // A field OpenMetadata compares whole, or a list that is not one: a change it counts.
    if (key === undefined || before === undefined || after === undefined) return undefined;
    const keysBefore = before.map(key);
    const keysAfter = after.map(key);
    const known = new Map(keysBefore.map((item, i) => [item, i]));
    const same =
      new Set(keysAfter).size === known.size && keysAfter.every((item) => known.has(item));
    if (!same) return undefined; // an item added or removed: counted
    const name = LIST_NAMES[field]!;
    if (field === 'schema') unkept.push(...columnsChangedInPlace(before, after));
    else if (after.some((item, i) => !isDeepStrictEqual(item, before[known.get(keysAfter[i]!)!])))
      unkept.push({
        text: `${name} changed in place`,
        code: 'unkept.list-changed',
        pointer: pointerTo(field),
      });
    if (keysAfter.some((item, i) => item !== keysBefore[i]))
      unkept.push({
        text: `the order of the ${name}`,
        code: 'unkept.list-order',
        pointer: pointerTo(field),
      });
    // None on one side, an empty list on the other.
    if (after.length === 0)
      unkept.push({
        text: `the empty list of ${name}`,
        code: 'unkept.empty-list',
        pointer: pointerTo(field),
      });
  }
  const first = unkept[0];
  if (first === undefined) return undefined;
  const message = `${unkept.map((part) => part.text).join(', ')}${NOT_KEPT}it counts a contract's columns, semantics rules, quality expectations, owners and reviewers only when one is added or removed (a column matched by its name whatever its case, its data type and its array's data type), and drops a PATCH in which it counts no change, answering 200; so nothing is sent for it. It is kept along with any change OpenMetadata counts in this contract (to another field, or a column added or removed), which the next plan sends with it; or make it in OpenMetadata itself`;
  return { code: first.code, severity: 'warning', message, pointer: first.pointer };
}
