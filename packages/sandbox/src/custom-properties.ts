// OpenMetadata's custom properties as the sandbox plays them under the openmetadata profile: the
// seed's `customProperties`, answered at `GET /v1/metadata/types/name/{type}` (an entity type
// with its custom properties, or a property type such as `string`), and a contract's `extension`
// weighed against them on every write. Defining one is types-api.ts's.
import { entityOf } from './directory.js';
import { ApiError, type Json } from './http.js';
import type { Seed } from './seed.js';

type CustomProperty = NonNullable<Seed['customProperties']>[number];

/** The entity types whose custom properties the sandbox answers (each an OpenMetadata type). */
export const ENTITY_TYPES = [
  'dataContract',
  'dataProduct',
  'table',
  'topic',
  'dashboard',
  'user',
  'team',
];

function propertiesOf(entityType: string, properties: readonly CustomProperty[]) {
  return properties.filter((property) => (property.entityType ?? 'dataContract') === entityType);
}

/**
 * `GET /v1/metadata/types/name/{name}?fields=customProperties`: the entity type with the custom
 * properties the seed gives it; a 404 for a type the sandbox does not know.
 */
export function typeAnswer(name: string, properties: readonly CustomProperty[]): Json {
  // A property type (category field, from `type/basic.json`): what a custom property is made of.
  if (Object.hasOwn(VALUE_TYPES, name))
    return {
      id: entityOf('type', name).id,
      name,
      fullyQualifiedName: name,
      category: 'field',
      nameSpace: 'basic',
    };
  if (!ENTITY_TYPES.includes(name)) throw new ApiError(404, `type instance for ${name} not found`);
  return {
    id: entityOf('type', name).id,
    name,
    fullyQualifiedName: name,
    category: 'entity',
    customProperties: propertiesOf(name, properties).map((property) => ({
      name: property.name,
      description: property.description ?? '',
      propertyType: entityOf('type', property.propertyType ?? 'string'),
      ...(property.config === undefined
        ? {}
        : { customPropertyConfig: { config: property.config } }),
    })),
  };
}

/**
 * The JSON types of OpenMetadata's simple property types (`type/basic.json`). The client has a
 * table of its own: the sandbox shares no code with it, so a wrong reading cannot agree with
 * itself.
 */
export const VALUE_TYPES: Record<string, string> = {
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
  enum: 'array',
};

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * A data contract's `extension` weighed as OpenMetadata weighs it (`validateExtension`,
 * `validateEnumKeys`): a key that is not a custom property of data contracts, a value not of its
 * property's type, or an enum value its property does not allow is a 400 with the server's
 * message; an enum's values are stored sorted. Other types' values are not checked.
 */
export function checkCustomProperties(contract: Json, properties: readonly CustomProperty[]): void {
  const extension = contract.extension;
  if (extension === null || typeof extension !== 'object' || Array.isArray(extension)) return;
  const defined = new Map(
    propertiesOf('dataContract', properties).map((property) => [property.name, property]),
  );
  const values = extension as Json;
  for (const [key, value] of Object.entries(values)) {
    const property = defined.get(key);
    if (property === undefined) throw new ApiError(400, `Unknown custom field ${key}`);
    const type = property.propertyType ?? 'string';
    const expected = VALUE_TYPES[type];
    const found = jsonType(value);
    if (
      expected !== undefined &&
      found !== expected &&
      !(expected === 'number' && found === 'integer')
    )
      throw new ApiError(
        400,
        `Custom field ${key} has invalid JSON [$: ${found} found, ${expected} expected]`,
      );
    if (type !== 'enum') continue;
    const config = (property.config ?? {}) as { values?: unknown; multiSelect?: unknown };
    const items = (value as unknown[]).map(String);
    if (config.multiSelect !== true && items.length > 1)
      throw new ApiError(400, `Only one value allowed for non-multiSelect ${key} property`);
    const allowed = Array.isArray(config.values) ? config.values.map(String) : [];
    const others = [...new Set(items.filter((item) => !allowed.includes(item)))];
    if (others.length > 0)
      throw new ApiError(400, `Values '[${others.join(', ')}]' not supported for property ${key}`);
    values[key] = items.toSorted();
  }
}
