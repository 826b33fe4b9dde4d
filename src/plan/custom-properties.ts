// OpenMetadata's custom properties: an entity's `extension` may hold only the custom properties
// defined for its type (through the types API, `PUT /v1/metadata/types/{id}`), each value of its
// property's type, and a create or PATCH of a data contract breaking that is refused (400
// "Unknown custom field <key>", "Custom field <key> has invalid JSON ...", "Values '[x]' not
// supported for property <key>"; `validateExtension` and `validateEnumKeys` in
// `EntityRepository`). An enum's values are stored sorted. The catalog says what it defines at
// `GET /v1/metadata/types/name/dataContract?fields=customProperties`.
import { isDeepStrictEqual } from 'node:util';
import type { CustomProperty } from '../catalog/types.js';
import { isPlainObject } from '../model/json-value.js';
import { askedOnce, type CatalogReader } from '../catalog/catalog-reader.js';
import type { LiveResult } from './create-plan.js';
import { pointerTo, type Found } from '../model/finding.js';

/** The custom properties of data contracts, or why they could not be learnt. */
export type CustomProperties = { properties: CustomProperty[] } | { unknown: string };

/** Asks the catalog once a run, and only when some file sets a value its live contract lacks. */
export function customPropertyLookup(reader: CatalogReader): () => Promise<CustomProperties> {
  const ask = reader.customProperties?.bind(reader);
  return askedOnce(reader, ask && (async () => ({ properties: await ask('dataContract') })));
}

/**
 * The keys of a file's `extension` whose values its live contract does not hold already: those
 * a create or PATCH would send, and so the catalog would weigh.
 */
export function changedExtensionKeys(extension: unknown, live: LiveResult): string[] {
  if (!isPlainObject(extension)) return [];
  const held = live.kind === 'found' ? live.contract.extension : undefined;
  return Object.keys(extension).filter(
    (key) => !isPlainObject(held) || !isDeepStrictEqual(held[key], extension[key]),
  );
}

/** JSON Schema types of the simple property types (`type/basic.json` of OpenMetadata). */
const VALUE_TYPES: Record<string, 'string' | 'integer' | 'number'> = {
  string: 'string',
  markdown: 'string',
  email: 'string',
  duration: 'string',
  sqlQuery: 'string',
  'date-cp': 'string',
  'dateTime-cp': 'string',
  'time-cp': 'string',
  integer: 'integer',
  timestamp: 'integer',
  number: 'number',
};

function holds(type: 'string' | 'integer' | 'number', value: unknown): boolean {
  if (type === 'string') return typeof value === 'string';
  return typeof value === 'number' && (type === 'number' || Number.isInteger(value));
}

/** What is wrong with `value` for `property`, as a sentence starting with its key; or nothing. */
function valueProblem(property: CustomProperty, value: unknown): string | undefined {
  const at = `extension.${property.name}`;
  const type = VALUE_TYPES[property.type];
  if (type !== undefined)
    return holds(type, value)
      ? undefined
      : `${at} is ${JSON.stringify(value)}, but the catalog's custom property ${property.name} is of type ${property.type} (${type === 'string' ? 'a string' : type === 'integer' ? 'a whole number' : 'a number'}), and the catalog refuses any other value (400)`;
  if (property.type !== 'enum') return undefined; // other types are left to the catalog
  const config = isPlainObject(property.config) ? property.config : {};
  const allowed = Array.isArray(config.values) ? (config.values as unknown[]).map(String) : [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    return `${at} must be a list of ${property.name}'s values (${allowed.join(', ')}): the catalog's custom property ${property.name} is an enum`;
  const values = value;
  const others = values.filter((item) => !allowed.includes(item));
  if (others.length > 0)
    return `${at} holds ${others.join(', ')}, which the catalog's enum ${property.name} does not allow (400 "Values '[${others.join(', ')}]' not supported for property ${property.name}"): use ${allowed.join(', ')}`;
  if (config.multiSelect !== true && values.length > 1)
    return `${at} holds ${values.length} values, but the catalog's enum ${property.name} takes one (400 "Only one value allowed for non-multiSelect ${property.name} property")`;
  const sorted = values.toSorted();
  if (!isDeepStrictEqual(sorted, values))
    return `${at} lists its values out of order: OpenMetadata keeps an enum's values sorted, so every plan would show them as a change; write [${sorted.join(', ')}]`;
  return undefined;
}

/**
 * What the catalog's custom properties mean for the `keys` of `extension` a file would send: an
 * error naming each key it does not define or whose value it would refuse (or store otherwise),
 * or a note when it could not say.
 */
export async function extensionFinding(
  extension: unknown,
  keys: readonly string[],
  lookup: () => Promise<CustomProperties>,
): Promise<{ error?: Found; note?: string }> {
  if (keys.length === 0 || !isPlainObject(extension)) return {};
  const known = await lookup();
  if ('unknown' in known)
    return {
      note: `custom properties not checked: the catalog could not say which data contracts have (${known.unknown})`,
    };
  const byName = new Map(known.properties.map((property) => [property.name, property]));
  const unknown = keys.filter((key) => !byName.has(key));
  const problems: string[] = [];
  // At the first key said: an unknown one, else the first whose value is refused.
  let first: string | undefined = unknown[0];
  if (unknown.length > 0) {
    const names = known.properties.map((property) => property.name);
    const defined = names.length === 0 ? 'it defines none' : `it defines ${names.join(', ')}`;
    const one = unknown.length === 1;
    problems.push(
      `${unknown.map((key) => `extension.${key}`).join(' and ')} ${one ? 'is not a custom property' : 'are not custom properties'} of data contracts in this catalog, which refuses any other key (400 "Unknown custom field ${unknown[0]!}"; ${defined}): define ${one ? 'it' : 'them'} first through the catalog's API (PUT /v1/metadata/types/{id of dataContract}; \`contracts doctor --fix\` defines managedBy and contractVersion), or remove ${one ? 'it' : 'them'} from the file`,
    );
  }
  for (const key of keys) {
    const property = byName.get(key);
    const problem = property === undefined ? undefined : valueProblem(property, extension[key]);
    if (problem !== undefined) {
      problems.push(problem);
      first ??= key;
    }
  }
  return problems.length === 0
    ? {}
    : {
        error: {
          code: 'extension.refused',
          severity: 'error',
          message: `${problems.join('; ')}; nothing will be sent for this contract`,
          pointer: pointerTo('extension', first!),
        },
      };
}
