// What a contract file means to the tool: which fields are identity, which the server owns,
// how array items are matched, and which properties the schema declares (derived from the schema).
import contractSchema from '../../schemas/data-contract.schema.json' with { type: 'json' };

/** A contract as written in a file, after validation. `null` values mean "managed and absent". */
export interface DesiredContract {
  name: string;
  fullyQualifiedName: string;
  entity: { type: string; fullyQualifiedName: string };
  [field: string]: unknown;
}

/** Fields that identify the contract; compared, never patched. */
export const IDENTITY_FIELDS: readonly string[] = ['name', 'fullyQualifiedName', 'entity'];

/** Fields only the server sets; never patched whatever the file says. */
export const SERVER_OWNED_FIELDS: readonly string[] = [
  'id',
  'fullyQualifiedName',
  'version',
  'updatedAt',
  'updatedBy',
  'changeDescription',
  'latestResult',
  'inherited',
  'href',
  'deleted',
  'createdAt',
  'createdBy',
];

/** How the items of each keyed array are matched between live and desired. */
export const ARRAY_KEYS: Readonly<Record<string, readonly string[]>> = {
  schema: ['name'],
  semantics: ['name'],
  qualityExpectations: ['fullyQualifiedName'],
  owners: ['type', 'name'],
  reviewers: ['type', 'name'],
};

/** The fields whose items are references to other entities (users, teams, test cases). */
export const REFERENCE_FIELDS = ['owners', 'reviewers', 'qualityExpectations'] as const;

/**
 * The declared shape of a managed value: `object` lists the properties the schema declares
 * (anything else in a live value was added by the server and is ignored); `array` describes
 * its items and how they are matched; `opaque` values are compared whole.
 */
export type Shape =
  | { kind: 'opaque' }
  | { kind: 'object'; properties: ReadonlyMap<string, Shape> }
  | { kind: 'array'; items: Shape; key: readonly string[] | null };

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: boolean;
}

const OPAQUE: Shape = { kind: 'opaque' };

function shapeOf(
  node: SchemaNode,
  root: { definitions: Record<string, SchemaNode> },
  key: readonly string[] | null,
): Shape {
  if (node.$ref !== undefined) {
    const name = node.$ref.replace('#/definitions/', '');
    const target = root.definitions[name];
    if (target === undefined) throw new Error(`schema $ref ${node.$ref} does not resolve`);
    return shapeOf(target, root, key);
  }
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.includes('array') && node.items !== undefined) {
    return { kind: 'array', items: shapeOf(node.items, root, null), key };
  }
  if (
    types.includes('object') &&
    node.properties !== undefined &&
    node.additionalProperties === false
  ) {
    const properties = new Map<string, Shape>();
    for (const [name, child] of Object.entries(node.properties))
      properties.set(name, shapeOf(child, root, null));
    return { kind: 'object', properties };
  }
  return OPAQUE;
}

/**
 * The declared shape of every top-level property of a JSON Schema (the contract file's, or a
 * catalog's wire shape): objects that forbid other properties list theirs; the rest is opaque.
 */
export function shapesFromSchema(schema: object): ReadonlyMap<string, Shape> {
  const root = schema as SchemaNode & { definitions?: Record<string, SchemaNode> };
  const withDefinitions = { ...root, definitions: root.definitions ?? {} };
  const shapes = new Map<string, Shape>();
  for (const [name, node] of Object.entries(root.properties ?? {})) {
    shapes.set(name, shapeOf(node, withDefinitions, ARRAY_KEYS[name] ?? null));
  }
  return shapes;
}

/** Declared shape of every top-level field of the contract file. */
export const FIELD_SHAPES: ReadonlyMap<string, Shape> = shapesFromSchema(contractSchema);

/** Fields a file keeps in git alone, never sent to the catalog: its semantic version. */
export const LOCAL_FIELDS: readonly string[] = ['contractVersion'];

/** Top-level fields a file may manage (everything declared except identity and local fields). */
export const MANAGED_FIELDS: readonly string[] = [...FIELD_SHAPES.keys()].filter(
  (field) => !IDENTITY_FIELDS.includes(field) && !LOCAL_FIELDS.includes(field),
);

/** `contract` without the fields kept in git alone (changed in place, and returned). */
export function withoutLocalFields<T extends Record<string, unknown>>(contract: T): T {
  for (const field of LOCAL_FIELDS) delete contract[field];
  return contract;
}

export { contractSchema };
