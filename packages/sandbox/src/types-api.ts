// OpenMetadata's types API as far as a custom property is defined through it (the UI has no page
// for a data contract's): `PUT /v1/metadata/types/{id}` with a CustomProperty
// (`TypeResource.addOrUpdateProperty`, `TypeRepository.addCustomProperty` in 1.12.6). The caller
// needs Create on the `type` resource (in the sandbox: an admin); the type must be an entity type
// (a property type such as `string` cannot be extended); the property's type is named by the id
// `GET /v1/metadata/types/name/{name}` answers; a property of the same name is replaced.
import { ENTITY_TYPES, typeAnswer, VALUE_TYPES } from './custom-properties.js';
import { entityOf } from './directory.js';
import { ApiError, type Json } from './http.js';
import type { SeedUser } from './seed.js';
import type { Store } from './store.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The type of the sandbox's (entity or property type) whose id is `id`, by its name. */
function typeNamed(id: string): { name: string; entity: boolean } | undefined {
  const entity = ENTITY_TYPES.find((name) => entityOf('type', name).id === id);
  if (entity !== undefined) return { name: entity, entity: true };
  const field = Object.keys(VALUE_TYPES).find((name) => entityOf('type', name).id === id);
  return field === undefined ? undefined : { name: field, entity: false };
}

/** `PUT /v1/metadata/types/{id}`: adds or replaces one custom property; answers the type (200). */
export function addCustomProperty(
  store: Store,
  user: SeedUser,
  id: string,
  body: unknown,
  clock: () => number,
): Json {
  // TypeResource authorizes Create on the type before it reads anything else.
  if (user.admin !== true)
    throw new ApiError(
      403,
      `Principal: CatalogPrincipal{name='${user.name}'} operations [Create] not allowed`,
    );
  if (!isRecord(body)) throw new ApiError(400, 'Unable to process JSON');
  // Bean validation of CustomProperty (required name, description, propertyType; name ^\w+$).
  const missing = ['name', 'description', 'propertyType'].filter(
    (field) => body[field] === undefined || body[field] === null,
  );
  if (missing.length > 0)
    throw new ApiError(400, `[${missing.map((field) => `${field} must not be null`).join(', ')}]`);
  if (typeof body.name !== 'string' || !/^\w+$/u.test(body.name))
    throw new ApiError(400, `[name must match "(?U)^[\\w]+$"]`);
  const type = typeNamed(id);
  if (type === undefined) throw new ApiError(404, `type instance for ${id} not found`);
  const propertyTypeId = isRecord(body.propertyType) ? body.propertyType.id : undefined;
  const propertyType = typeof propertyTypeId === 'string' ? typeNamed(propertyTypeId) : undefined;
  if (propertyType === undefined)
    throw new ApiError(404, `type instance for ${String(propertyTypeId)} not found`);
  if (!type.entity)
    throw new ApiError(400, "Only entity types can be extended and field types can't be extended");
  const before = typeAnswer(type.name, store.customProperties);
  store.defineCustomProperty({
    name: body.name,
    entityType: type.name,
    propertyType: propertyType.name,
    description: typeof body.description === 'string' ? body.description : '',
    ...(isRecord(body.customPropertyConfig) && body.customPropertyConfig.config !== undefined
      ? { config: body.customPropertyConfig.config }
      : {}),
  });
  const after = typeAnswer(type.name, store.customProperties);
  const added = (after.customProperties as Json[]).filter(
    (property) => property.name === body.name,
  );
  const replaced = (before.customProperties as Json[]).some(
    (property) => property.name === body.name,
  );
  return {
    ...after,
    updatedAt: clock(),
    updatedBy: user.name,
    changeDescription: {
      fieldsAdded: replaced ? [] : [{ name: 'customProperties', newValue: JSON.stringify(added) }],
      fieldsUpdated: [],
      fieldsDeleted: [],
    },
  };
}
