// What the checks read of an asset's document (a search hit, or a row of a table list): its
// columns (nested ones too, and those tagged PII), a topic's message fields, an API endpoint's
// schema fields, its data products.

export interface AssetDocument {
  id: string;
  fullyQualifiedName: string;
  entityType?: string;
  columns?: { name?: unknown; dataType?: unknown }[];
  /** The columns tagged PII (a tag PII.*, PII.None aside), for the policies that ask. */
  piiColumns?: string[];
  /** The columns nested in `columns` (a struct's `children`, at any depth), when it has any. */
  nestedColumns?: { name?: unknown; dataType?: unknown }[];
  /** The names of the fields of a topic's message schema, nested ones by their own names. */
  messageFields?: string[];
  /**
   * The names of the fields of an API endpoint's request and response schemas, nested ones too:
   * none when both are null, undefined when the document holds neither (not indexed: unchecked).
   */
  apiFields?: string[];
  dataProducts?: unknown[];
  [field: string]: unknown;
}

/** The names of `fields` and of the fields nested in them (a message schema's `schemaFields`). */
function fieldNames(fields: unknown, into: string[] = []): string[] {
  if (!Array.isArray(fields)) return into;
  for (const field of fields as { name?: unknown; children?: unknown }[]) {
    if (typeof field?.name === 'string') into.push(field.name);
    fieldNames(field?.children, into);
  }
  return into;
}

/** The columns nested in `columns`, at any depth, each as its name and data type. */
function nestedColumns(
  columns: readonly { children?: unknown }[],
  into: { name?: unknown; dataType?: unknown }[] = [],
): { name?: unknown; dataType?: unknown }[] {
  for (const column of columns) {
    if (!Array.isArray(column?.children)) continue;
    for (const child of column.children as { name?: unknown; dataType?: unknown }[])
      into.push({ name: child?.name, dataType: child?.dataType });
    nestedColumns(column.children as { children?: unknown }[], into);
  }
  return into;
}

/** What the checks read of an indexed or listed asset. */
export function assetDocument(source: Partial<AssetDocument>, id: string): AssetDocument {
  const columns = Array.isArray(source.columns)
    ? source.columns.map((c) => ({ name: c.name, dataType: c.dataType }))
    : undefined;
  const pii = (Array.isArray(source.columns) ? source.columns : [])
    .filter((c) =>
      ((c as { tags?: { tagFQN?: unknown }[] }).tags ?? []).some(
        (tag) => typeof tag.tagFQN === 'string' && /^PII\.(?!None$)/.test(tag.tagFQN),
      ),
    )
    .map((c) => String(c.name));
  const nested = Array.isArray(source.columns)
    ? nestedColumns(source.columns as { children?: unknown }[])
    : [];
  const messageSchema = source.messageSchema as { schemaFields?: unknown } | undefined;
  const request = source.requestSchema as { schemaFields?: unknown } | null | undefined;
  const response = source.responseSchema as { schemaFields?: unknown } | null | undefined;
  return {
    id: typeof source.id === 'string' ? source.id : id,
    fullyQualifiedName: source.fullyQualifiedName!,
    ...(typeof source.entityType === 'string' ? { entityType: source.entityType } : {}),
    ...(columns === undefined ? {} : { columns }),
    ...(pii.length === 0 ? {} : { piiColumns: pii }),
    ...(nested.length === 0 ? {} : { nestedColumns: nested }),
    ...(messageSchema === undefined
      ? {}
      : { messageFields: fieldNames(messageSchema?.schemaFields) }),
    ...(request === undefined && response === undefined
      ? {}
      : {
          apiFields: fieldNames(response?.schemaFields, fieldNames(request?.schemaFields)),
        }),
    ...(Array.isArray(source.dataProducts) ? { dataProducts: source.dataProducts } : {}),
  };
}

/** Names of the data products an indexed asset belongs to (names, or references with a name). */
export function dataProductNames(asset: AssetDocument): string[] {
  return (asset.dataProducts ?? [])
    .map((p) =>
      typeof p === 'string'
        ? p
        : p !== null && typeof p === 'object'
          ? ((p as { name?: unknown; fullyQualifiedName?: unknown }).name ??
            (p as { fullyQualifiedName?: unknown }).fullyQualifiedName)
          : undefined,
    )
    .filter((name): name is string => typeof name === 'string');
}
