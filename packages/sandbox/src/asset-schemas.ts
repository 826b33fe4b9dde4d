// What OpenMetadata indexes and checks of an asset's fields, where they are not a table's
// columns: a topic's message schema and an API endpoint's request and response schemas, in their
// search documents and as the names a contract's schema may use.
import type { Json } from './http.js';
import type { SeedAsset } from './seed.js';

type MessageField = { name?: unknown; children?: unknown; [extra: string]: unknown };

/**
 * A topic's message fields: its `messageSchema.schemaFields` as OpenMetadata stores them, or, for
 * a seed that gives it `columns` as the specification's search hits show them, those columns.
 */
function messageFields(asset: SeedAsset): MessageField[] | undefined {
  const schema = asset.messageSchema as { schemaFields?: unknown } | undefined;
  if (Array.isArray(schema?.schemaFields)) return schema.schemaFields as MessageField[];
  return asset.columns;
}

/** Calls `visit` with each named field of `list` and of the fields nested in it, and its parent's name. */
function eachField(
  list: unknown,
  visit: (name: string, parent: string | undefined) => void,
  parent?: string,
): void {
  if (!Array.isArray(list)) return;
  for (const field of list as MessageField[]) {
    if (typeof field.name !== 'string') continue;
    visit(field.name, parent);
    eachField(field.children, visit, field.name);
  }
}

/**
 * A topic's search document as OpenMetadata indexes it (`TopicIndex`): its message schema, and
 * `fieldNames`, every field's name with its parents' (`payload.id`); never `columns`.
 */
export function topicDocument(asset: SeedAsset): Json {
  const { columns: _columns, ...document } = asset;
  const fields = messageFields(asset);
  if (fields === undefined || fields.length === 0) return document;
  const fieldNames: string[] = [];
  eachField(fields, (name, parent) =>
    fieldNames.push(parent === undefined ? name : `${parent}.${name}`),
  );
  return { ...document, messageSchema: { schemaFields: fields }, fieldNames };
}

/** An API endpoint's request and response schema fields, as OpenMetadata stores them. */
function endpointSchemas(asset: SeedAsset): [string, unknown][] {
  return (['requestSchema', 'responseSchema'] as const).map((key) => [
    key,
    (asset[key] as { schemaFields?: unknown } | undefined)?.schemaFields,
  ]);
}

/**
 * An API endpoint's search document as OpenMetadata indexes it (`APIEndpointIndex`): its request
 * and response schemas (null when it has none), and the names of each one's fields with their
 * parents'; never `columns`.
 */
export function apiEndpointDocument(asset: SeedAsset): Json {
  const { columns: _columns, ...document } = asset;
  // Both schemas are always in the document, null when the endpoint has none.
  const indexed: Json = {
    ...document,
    requestSchema: asset.requestSchema ?? null,
    responseSchema: asset.responseSchema ?? null,
  };
  for (const [key, fields] of endpointSchemas(asset)) {
    const names: string[] = [];
    eachField(fields, (name, parent) =>
      names.push(parent === undefined ? name : `${parent}.${name}`),
    );
    if (names.length > 0)
      indexed[`${key === 'requestSchema' ? 'request' : 'response'}_field_names`] = names;
  }
  return indexed;
}

/**
 * The names a contract's schema may use for `asset`, as OpenMetadata checks them, nested ones by
 * their own names: a table's or data model's columns (`buildColumnMap`, which takes each
 * column's children); a topic's message fields; an API endpoint's request and response fields.
 * A topic or endpoint without those schemas has none (the server then refuses every field named).
 * Undefined: not checked.
 */
export function schemaNamesOf(asset: SeedAsset): Set<string> | undefined {
  const names = new Set<string>();
  const add = (name: string) => names.add(name);
  if (asset.entityType === 'apiEndpoint') {
    for (const [, fields] of endpointSchemas(asset)) eachField(fields, add);
    return names;
  }
  const fields = asset.entityType === 'topic' ? messageFields(asset) : asset.columns;
  if (fields === undefined && asset.entityType !== 'topic') return undefined;
  eachField(fields, add);
  return names;
}
