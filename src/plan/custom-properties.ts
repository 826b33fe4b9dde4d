// OpenMetadata's custom properties: an entity's `extension` may hold only the custom properties
// defined for its type (Settings › Custom Properties), and a create or PATCH of a data contract
// with any other key is refused (400 "Unknown custom field <key>", `validateExtension` in
// `EntityRepository`). The catalog says which it defines at
// `GET /v1/metadata/types/name/dataContract?fields=customProperties`.
import { isPlainObject } from '../diff/json-value.js';
import { AuthError } from '../errors.js';
import type { CatalogReader } from './catalog-reader.js';
import type { LiveResult } from './create-plan.js';

/** The custom properties of data contracts, or why they could not be learnt. */
export type CustomProperties = { names: string[] } | { unknown: string };

/** Asks the catalog once a run, and only when some file sets a key its live contract lacks. */
export function customPropertyLookup(reader: CatalogReader): () => Promise<CustomProperties> {
  let asked: Promise<CustomProperties> | undefined;
  return () =>
    (asked ??= (async (): Promise<CustomProperties> => {
      if (reader.customProperties === undefined) return { unknown: 'this client cannot ask' };
      try {
        return { names: await reader.customProperties('dataContract') };
      } catch (error) {
        if (error instanceof AuthError) throw error;
        return { unknown: reader.redact(error instanceof Error ? error.message : String(error)) };
      }
    })());
}

/** The keys of a file's `extension` that its live contract does not hold already. */
export function newExtensionKeys(extension: unknown, live: LiveResult): string[] {
  if (!isPlainObject(extension)) return [];
  const held = live.kind === 'found' ? live.contract.extension : undefined;
  return Object.keys(extension).filter((key) => !isPlainObject(held) || !(key in held));
}

/**
 * What the catalog's custom properties mean for the `keys` a file adds to `extension`: an error
 * naming those it does not define, or a note when it could not say.
 */
export async function extensionFinding(
  keys: readonly string[],
  lookup: () => Promise<CustomProperties>,
): Promise<{ error?: string; note?: string }> {
  if (keys.length === 0) return {};
  const known = await lookup();
  if ('unknown' in known)
    return {
      note: `custom properties not checked: the catalog could not say which data contracts have (${known.unknown})`,
    };
  const unknown = keys.filter((key) => !known.names.includes(key));
  if (unknown.length === 0) return {};
  const named = unknown.map((key) => `extension.${key}`);
  const defined =
    known.names.length === 0 ? 'it defines none' : `it defines ${known.names.join(', ')}`;
  return {
    error: `${named.join(' and ')} ${unknown.length === 1 ? 'is not a custom property' : 'are not custom properties'} of data contracts in this catalog, which refuses any other key (400 "Unknown custom field ${unknown[0]!}"; ${defined}): add ${unknown.length === 1 ? 'it' : 'them'} under Settings › Custom Properties › Data Contract first, or remove ${unknown.length === 1 ? 'it' : 'them'} from the file; nothing will be sent for this contract`,
  };
}
