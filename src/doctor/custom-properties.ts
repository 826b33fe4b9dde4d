// The custom properties of data contracts the tool writes on OpenMetadata: `managedBy` (the
// marker prune tells its contracts by) always, `contractVersion` where a file declares a version.
// Read through `GET /v1/metadata/types/name/dataContract?fields=customProperties`; each missing one
// is a warning whose fix is `contracts doctor --fix` (or the same PUT through the API), which
// defines it: `PUT /v1/metadata/types/{id of dataContract}` with a property of type `string`.
import type { CustomProperty } from '../catalog/types.js';
import type { NewCustomProperty } from '../catalog/inspecting-client.js';
import { ForbiddenError, CatalogError } from '../model/errors.js';
import { MARKER_PROPERTY } from '../read/marker.js';
import { VERSION_PROPERTY } from '../read/version-property.js';
import type { Check, FixResult } from './checks.js';

/** The properties the tool uses, what each is for, and what is lost without it. */
export const TOOL_PROPERTIES: Readonly<Record<string, { description: string; without: string }>> = {
  [MARKER_PROPERTY]: {
    description: 'The repository and file that manage this contract (contracts-gitops).',
    without:
      "contracts are not marked, so prune cannot tell this repository's contracts from others'",
  },
  [VERSION_PROPERTY]: {
    description: 'The version the contract file declares (contracts-gitops).',
    without: 'the version files declare is not written to the catalog',
  },
};

export const FIX_TEXT =
  'run `contracts doctor --fix` with an admin\'s token, or define it through the API: PUT /v1/metadata/types/{id of dataContract} with {"name", "description", "propertyType": {"id": <id of type string>, "type": "type"}}';

/** The properties the tool needs on this run: managedBy, and contractVersion when versions are declared. */
export function neededProperties(versioned: boolean): string[] {
  return versioned ? [MARKER_PROPERTY, VERSION_PROPERTY] : [MARKER_PROPERTY];
}

/** One check per needed property: defined (of type string), of another type, or missing. */
export function propertyChecks(
  defined: readonly CustomProperty[],
  needed: readonly string[],
): Check[] {
  return needed.map((name): Check => {
    const id = `customProperty.${name}`;
    const property = defined.find((known) => known.name === name);
    if (property === undefined)
      return {
        id,
        status: 'warning',
        message: `The catalog defines no custom property ${name} on data contracts: ${TOOL_PROPERTIES[name]!.without}`,
        fix: FIX_TEXT,
      };
    if (property.type !== 'string')
      return {
        id,
        status: 'warning',
        message: `The custom property ${name} of data contracts is of type ${property.type}, not string: the catalog refuses what the tool writes there`,
        fix: `redefine ${name} as a string (the types API keeps a property's type: an admin deletes it first)`,
      };
    return {
      id,
      status: 'ok',
      message: `The catalog defines the custom property ${name} on data contracts`,
    };
  });
}

/** What `--fix` needs of the catalog: the types' ids, and the PUT. */
export interface PropertyDefiner {
  typeId(name: string): Promise<string>;
  defineCustomProperty(typeId: string, property: NewCustomProperty): Promise<CustomProperty[]>;
  redact(text: string): string;
}

/** Defines each of `missing` as a string property of data contracts; what was done, each. */
export async function defineMissing(
  catalog: PropertyDefiner,
  missing: readonly string[],
): Promise<FixResult[]> {
  if (missing.length === 0) return [];
  const [contractType, stringType] = await Promise.all([
    catalog.typeId('dataContract'),
    catalog.typeId('string'),
  ]);
  const results: FixResult[] = [];
  for (const name of missing) {
    try {
      await catalog.defineCustomProperty(contractType, {
        name,
        description: TOOL_PROPERTIES[name]!.description,
        propertyTypeId: stringType,
      });
      results.push({
        property: name,
        outcome: 'defined',
        message: `Defined the custom property ${name} (string) on data contracts through PUT /v1/metadata/types/${contractType}`,
      });
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      const said = `${error.status}: ${catalog.redact(error.serverMessage)}`;
      results.push({
        property: name,
        outcome: 'refused',
        message:
          error instanceof ForbiddenError
            ? `The catalog refused to define ${name} (${said}): defining a custom property needs Create on types (OpenMetadata's admin role); run --fix with an admin's token`
            : `The catalog refused to define ${name} (${said})`,
      });
    }
  }
  return results;
}
