// What an OpenMetadata catalog holds that a contract must keep to beyond its JSON Schemas: the
// data asset rule on owners (owner-rule.ts) and the custom properties an `extension` may hold
// (custom-properties.ts). Each is asked of the catalog once a run, and only when a file needs it.
import type { DesiredContract } from '../contract/model.js';
import type { CatalogReader } from './catalog-reader.js';
import type { LiveResult } from './create-plan.js';
import {
  changedExtensionKeys,
  customPropertyLookup,
  extensionFinding,
  type CustomProperties,
} from './custom-properties.js';
import {
  heldOwnersFinding,
  ownerBreakingRule,
  ownerRuleFinding,
  ownerRuleLookup,
  type HeldOwnersFinding,
  type OwnerRule,
} from './owner-rule.js';

export interface CatalogRules {
  ownerRule: () => Promise<OwnerRule>;
  properties: () => Promise<CustomProperties>;
}

export function catalogRules(reader: CatalogReader): CatalogRules {
  return { ownerRule: ownerRuleLookup(reader), properties: customPropertyLookup(reader) };
}

/** Whether the live contract already has exactly these owners (in any order). */
function holdsOwners(read: LiveResult, owners: unknown): boolean {
  if (read.kind !== 'found' || !Array.isArray(owners) || !Array.isArray(read.contract.owners))
    return false;
  const names = (list: unknown[]) =>
    (list as { type?: unknown; name?: unknown }[])
      .map((item) => `${String(item.type)}\u0000${String(item.name)}`)
      .sort()
      .join('\n');
  return names(owners as unknown[]) === names(read.contract.owners as unknown[]);
}

/**
 * What the catalog's rules mean for `contract`, sent over `read`: an error the catalog would
 * answer with a 400 (nothing will be sent), a warning where it could not say whether a rule is in
 * force, a note where it could not say what it defines; and, apart, what the rule on owners means
 * for the owners the live contract holds and the file keeps, which matters only when a change is
 * sent (`heldOwners`).
 */
export async function ruleFindings(
  contract: DesiredContract,
  read: LiveResult,
  rules: CatalogRules,
): Promise<{ error?: string; warning?: string; note?: string; heldOwners?: HeldOwnersFinding }> {
  const owners = contract.owners;
  const kept = owners === undefined || holdsOwners(read, owners);
  const ownersFinding =
    !kept && ownerBreakingRule(owners) !== -1
      ? await ownerRuleFinding(owners, rules.ownerRule)
      : {};
  const heldOwners =
    kept && read.kind === 'found'
      ? await heldOwnersFinding(read.contract.owners, rules.ownerRule)
      : undefined;
  const extension = await extensionFinding(
    contract.extension,
    changedExtensionKeys(contract.extension, read),
    rules.properties,
  );
  const error = ownersFinding.error ?? extension.error;
  return {
    ...(error === undefined ? {} : { error }),
    ...(ownersFinding.warning === undefined ? {} : { warning: ownersFinding.warning }),
    ...(extension.note === undefined ? {} : { note: extension.note }),
    ...(heldOwners === undefined ? {} : { heldOwners }),
  };
}
