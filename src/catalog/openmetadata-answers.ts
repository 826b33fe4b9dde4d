// What the client reads in answers only OpenMetadata gives: the data asset rules in force for an
// entity type, the custom properties it defines for one, and its refusal of custom properties on
// an entity that has none.
import { CatalogError } from '../model/errors.js';
import type { CustomProperty } from './types.js';

/** A data asset rule: its name, its JSON Logic and, when it has one, what it is for. */
export interface EntityRule {
  name: string;
  rule: string;
  description?: string;
}

/** The rules of `GET /v1/system/settings/entityRulesSettings/{entityType}` (a list). */
export function rulesOf(answer: unknown): EntityRule[] {
  return (answer as Record<string, unknown>[]).flatMap(({ name, rule, description: d }) => {
    if (typeof name !== 'string' || typeof rule !== 'string') return [];
    return [{ name, rule, ...(typeof d === 'string' && d ? { description: d } : {}) }];
  });
}

/** The custom properties of `GET /v1/metadata/types/name/{entityType}?fields=customProperties`. */
export function customPropertiesOf(answer: unknown): CustomProperty[] {
  const listed = (answer as { customProperties?: unknown }).customProperties;
  const properties = Array.isArray(listed) ? listed : [];
  return (properties as Record<string, unknown>[]).flatMap((property) => {
    if (typeof property?.name !== 'string') return [];
    const type = (property.propertyType as { name?: unknown } | undefined)?.name;
    const config = (property.customPropertyConfig as { config?: unknown } | undefined)?.config;
    return [
      {
        name: property.name,
        type: typeof type === 'string' ? type : 'unknown',
        ...(config === undefined ? {} : { config }),
      },
    ];
  });
}

/**
 * Whether `error` is OpenMetadata's refusal of `extension` among the fields asked of an entity
 * that has none (400 "Invalid field name extension", as for any field its type lacks).
 */
export function refusesExtension(error: unknown): boolean {
  return (
    error instanceof CatalogError &&
    error.status === 400 &&
    /invalid field name extension\b/i.test(error.serverMessage)
  );
}
