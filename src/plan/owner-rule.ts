// OpenMetadata's data asset rule "Multiple Users or Single Team Ownership", on by default (Settings
// › Preferences › Data Asset Rules): an entity's owners are users, or one team alone. A contract
// whose owners are two teams, or a team and users, is refused (400 "Rule [Multiple Users or Single
// Team Ownership] validation failed") where the rule is in force for data contracts, which the
// catalog says at `GET /v1/system/settings/entityRulesSettings/dataContract`.
import { askedOnce, type CatalogReader } from './catalog-reader.js';

/** The rule's name in OpenMetadata's defaults, said when the catalog could not give its own. */
const DEFAULT_NAME = 'Multiple Users or Single Team Ownership';

/** How an admin lifts the rule, said beside every error of it. */
const TURN_OFF =
  'or have an admin turn the rule off for data contracts in Settings › Preferences › Data Asset Rules';

/** The rule's JSON Logic operation, by which it is recognised whatever an admin named it. */
const OPERATION = 'multipleUsersOrSingleTeamOwnership';

/**
 * The index of the first owner that breaks the rule (a second team, or a user beside a team, or
 * a team beside users), or -1 when the owners keep it.
 */
export function ownerBreakingRule(owners: unknown): number {
  if (!Array.isArray(owners)) return -1;
  let teams = 0;
  let users = 0;
  for (const [index, owner] of (owners as { type?: unknown }[]).entries()) {
    if (owner?.type === 'team') teams += 1;
    else users += 1;
    if (teams > 1 || (teams > 0 && users > 0)) return index;
  }
  return -1;
}

/** Whether the rule is in force for data contracts, or why that could not be learnt. */
export type OwnerRule = { inForce: boolean; name?: string } | { unknown: string };

/** Asks the catalog once a run, and only when some file's owners would break the rule. */
export function ownerRuleLookup(reader: CatalogReader): () => Promise<OwnerRule> {
  const rules = reader.entityRules?.bind(reader);
  return askedOnce(
    reader,
    rules &&
      (async (): Promise<OwnerRule> => {
        const rule = (await rules('dataContract')).find((entry) => entry.rule.includes(OPERATION));
        return rule === undefined ? { inForce: false } : { inForce: true, name: rule.name };
      }),
  );
}

/**
 * What the rule means for `owners`, which a file sets and the live contract does not hold: an
 * error when the catalog holds it for data contracts, a warning when it could not say (the rule
 * is on by default), nothing when it keeps the rule off.
 */
export async function ownerRuleFinding(
  owners: unknown,
  lookup: () => Promise<OwnerRule>,
): Promise<{ error?: string; warning?: string }> {
  const index = ownerBreakingRule(owners);
  if (index === -1) return {};
  const owner = (owners as { type?: unknown; name?: unknown }[])[index]!;
  const what = `owners[${index}] (${String(owner.type)} ${String(owner.name)}) makes the owners ${owner.type === 'team' ? 'more than one team, or a team beside users' : 'a team beside users'}`;
  const rule = await lookup();
  if ('unknown' in rule)
    return {
      warning: `${what}, which OpenMetadata's data asset rule "${DEFAULT_NAME}" refuses (400) where it is on, as it is by default; the catalog could not say whether it is (${rule.unknown})`,
    };
  if (!rule.inForce) return {};
  return {
    error: `${what}, which this catalog's data asset rule "${rule.name ?? DEFAULT_NAME}" refuses (400): name one team, or users only (${TURN_OFF}); nothing will be sent for this contract`,
  };
}

/** What the rule means for owners a contract holds and keeps: said when a change is sent, or not. */
export interface HeldOwnersFinding {
  /** When a change would be sent: the catalog refuses it (error), or may (warning). */
  changed: { error?: string; warning?: string };
  /** When nothing would be sent. */
  unchanged?: string;
}

/**
 * What the rule means for the owners the live contract holds and the file keeps (it leaves
 * `owners` out, or names the same ones). The catalog weighs its rules on every PATCH
 * (`RuleEngine.evaluateUpdate`: a change that leaves a rule broken and mends none is refused), so
 * while they break the rule the contract takes no change; undefined when they keep it.
 */
export async function heldOwnersFinding(
  owners: unknown,
  lookup: () => Promise<OwnerRule>,
): Promise<HeldOwnersFinding | undefined> {
  if (ownerBreakingRule(owners) === -1) return undefined;
  const list = (owners as { type?: unknown; name?: unknown }[])
    .map((owner) => `${String(owner.type)} ${String(owner.name)}`)
    .join(', ');
  const what = `the live contract's owners (${list}), which this file keeps, are more than one team or a team beside users`;
  const rule = await lookup();
  if ('unknown' in rule)
    return {
      changed: {
        warning: `${what}: OpenMetadata's data asset rule "${DEFAULT_NAME}", on by default, refuses (400) any change that leaves them so; the catalog could not say whether it is on (${rule.unknown})`,
      },
    };
  if (!rule.inForce) return undefined;
  const refusal = `${what}, and this catalog's data asset rule "${rule.name ?? DEFAULT_NAME}" refuses (400) any change that leaves them so`;
  return {
    changed: {
      error: `${refusal}: name one team, or users only, in the file's owners to mend them with this change (${TURN_OFF}); nothing will be sent for this contract`,
    },
    unchanged: `${refusal}; nothing is sent while the file matches the contract`,
  };
}
