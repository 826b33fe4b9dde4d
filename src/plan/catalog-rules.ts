// What an OpenMetadata catalog holds that a contract must keep to beyond its JSON Schemas: the
// data asset rules (asset-rules.ts) and the custom properties an `extension` may hold
// (custom-properties.ts). Each is asked of the catalog once a run, when a file first needs it.
import type { DesiredContract } from '../model/contract.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { LiveResult } from './create-plan.js';
import {
  changedExtensionKeys,
  customPropertyLookup,
  extensionFinding,
  type CustomProperties,
} from './custom-properties.js';
import { assetRulesLookup, type AssetRules } from './asset-rules.js';
import type { Found } from '../model/finding.js';

export interface CatalogRules {
  assetRules: () => Promise<AssetRules>;
  properties: () => Promise<CustomProperties>;
}

export function catalogRules(reader: CatalogReader): CatalogRules {
  return { assetRules: assetRulesLookup(reader), properties: customPropertyLookup(reader) };
}

/**
 * What the catalog holds that `contract`, sent over `read`, must keep to: its data asset rules
 * (weighed by the plan on the contract a change leaves), and what its custom properties mean for
 * the file's `extension`: an error the catalog would answer with a 400 (nothing will be sent), a
 * note where it could not say what it defines.
 */
export async function ruleFindings(
  contract: DesiredContract,
  read: LiveResult,
  rules: CatalogRules,
): Promise<{ assetRules: AssetRules; error?: Found; note?: string }> {
  const extension = await extensionFinding(
    contract.extension,
    changedExtensionKeys(contract.extension, read),
    rules.properties,
  );
  return {
    assetRules: await rules.assetRules(),
    ...(extension.error === undefined ? {} : { error: extension.error }),
    ...(extension.note === undefined ? {} : { note: extension.note }),
  };
}
