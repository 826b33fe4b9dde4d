// OpenMetadata's data asset rules (Settings › Preferences › Data Asset Rules): JSON Logic an
// admin keeps in force per entity type, the default one being "Multiple Users or Single Team
// Ownership" (owners are users, or one team alone). The catalog says which are in force for data
// contracts at `GET /v1/system/settings/entityRulesSettings/dataContract`, and weighs them on
// every write (`RuleEngine`): a create is refused (400) when the contract breaks any of them; a
// PATCH when the contract it leaves breaks any and at least as many as the live one did, that is
// when it "is not fixing anything". Plan weighs them the same way, on the contract a change would
// leave, so that apply never meets that 400.
import type { JsonObject } from '../model/json-value.js';
import { fieldsRead, ownerBreakingRule, weighRule } from '../profile/openmetadata-rules.js';
import { askedOnce, type CatalogReader } from '../catalog/catalog-reader.js';
import { alsoJoined } from './refusal-text.js';
import { pointerTo, type Found } from '../model/finding.js';

/** One rule in force: its name, what it is for (said in the catalog's refusals) and its logic. */
export interface AssetRule {
  name: string;
  description?: string;
  rule: string;
}

/** The rules in force for data contracts, or why the catalog could not say. */
export type AssetRules = { rules: AssetRule[] } | { unknown: string };

/** The rule's name in OpenMetadata's defaults, said when the catalog could not give its own. */
const DEFAULT_NAME = 'Multiple Users or Single Team Ownership';

/** How an admin lifts a rule, said beside every refusal of one. */
const TURN_OFF =
  'or have an admin turn the rule off for data contracts in Settings › Preferences › Data Asset Rules';

/** The ownership rule's JSON Logic operation, by which it is known whatever an admin named it. */
const OWNERSHIP = 'multipleUsersOrSingleTeamOwnership';

/** Asks the catalog once a run, when a contract may be sent. */
export function assetRulesLookup(reader: CatalogReader): () => Promise<AssetRules> {
  const rules = reader.entityRules?.bind(reader);
  return askedOnce(reader, rules && (async () => ({ rules: await rules('dataContract') })));
}

/** One write weighed: the contract before it (null for a create) and after it. */
export interface Write {
  before: Readonly<JsonObject> | null;
  after: Readonly<JsonObject>;
  /** Whether the file sets owners other than the live contract's (or any, for a create). */
  ownersChanged: boolean;
  /** The owners as the file lists them (undefined when it leaves them out). */
  fileOwners: unknown;
  /** Whether anything would be sent (false: the file matches the live contract). */
  sent: boolean;
}

/** Whether two lists of owners name the same users and teams (in any order). */
function sameOwners(a: unknown, b: unknown): boolean {
  const names = (list: unknown) =>
    (Array.isArray(list) ? (list as { type?: unknown; name?: unknown }[]) : [])
      .map((item) => `${String(item.type)}\u0000${String(item.name)}`)
      .sort()
      .join('\n');
  return names(a) === names(b);
}

/** The write that leaves `after` where `before` was (null: a create), the file's owners given. */
export function writeFrom(
  before: Readonly<JsonObject> | null,
  after: Readonly<JsonObject>,
  fileOwners: unknown,
): Write {
  const ownersChanged =
    before === null
      ? Array.isArray(after.owners) && after.owners.length > 0
      : !sameOwners(before.owners, after.owners);
  return { before, after, ownersChanged, fileOwners, sent: true };
}

/**
 * What the rules mean for one write: `refusal` when the catalog refuses it (its error, and the
 * warning said instead while nothing is sent); warnings where a rule could not be weighed or
 * the catalog could not say which are in force; notes for rules the contract still breaks after
 * a change the catalog takes because it mends another.
 */
export interface RulesFinding {
  /** `at`: where the first rule it names looks in the contract, nearest first. */
  refusal?: { error: string; warning: string; at: string[] };
  warnings: Found[];
  notes: string[];
}

/** A warning of a rule that could not be weighed, at `pointer`. */
function unweighed(message: string, pointer: string): Found {
  return { code: 'catalog.asset-rule-unweighed', severity: 'warning', message, pointer };
}

function ruleLabel(rule: AssetRule): string {
  return `this catalog's data asset rule "${rule.name}"${rule.description ? ` (${rule.description})` : ''}`;
}

/** The rule named, with the fields it reads: `…rule "N" (what it is for), which reads F`. */
function named(rule: AssetRule): string {
  const fields = fieldsRead(rule.rule);
  return `${ruleLabel(rule)}${fields.length === 0 ? '' : `, which reads ${fields.join(', ')}`}`;
}

/** `named(rule)` as the subject of a sentence: followed by a comma when it ends in a clause. */
function subject(rule: AssetRule): string {
  const text = named(rule);
  return text === ruleLabel(rule) ? text : `${text},`;
}

function ownerList(owners: unknown): string {
  return (owners as { type?: unknown; name?: unknown }[])
    .map((owner) => `${String(owner.type)} ${String(owner.name)}`)
    .join(', ');
}

/** The owner a write sets that breaks the ownership rule: its index in the file's order. */
function changedOwnerIndex(write: Write): { owners: unknown; index: number } {
  const owners = ownerBreakingRule(write.fileOwners) === -1 ? write.after.owners : write.fileOwners;
  return { owners, index: ownerBreakingRule(owners) };
}

/** What the owners a write sets break, said at the owner that breaks it (in the file's order). */
function changedOwnersText(write: Write): string {
  const { owners, index } = changedOwnerIndex(write);
  const owner = (owners as { type?: unknown; name?: unknown }[])[index]!;
  return `owners[${index}] (${String(owner.type)} ${String(owner.name)}) makes the owners ${owner.type === 'team' ? 'more than one team, or a team beside users' : 'a team beside users'}`;
}

/** Where one broken rule looks: the owner that breaks it, or the fields it reads. */
function ruleAt(rule: AssetRule, write: Write): string[] {
  if (rule.rule.includes(OWNERSHIP) && ownerBreakingRule(write.after.owners) !== -1)
    return write.ownersChanged
      ? [pointerTo('owners', changedOwnerIndex(write).index)]
      : [pointerTo('owners')];
  return fieldsRead(rule.rule).map((field) => pointerTo(field));
}

/** The error for one rule the write breaks, and the warning said instead when nothing is sent. */
function brokenText(
  rule: AssetRule,
  write: Write,
  brokenBefore: ReadonlySet<AssetRule>,
): { error: string; warning: string } {
  const owners = write.after.owners;
  if (rule.rule.includes(OWNERSHIP) && ownerBreakingRule(owners) !== -1) {
    if (write.ownersChanged) {
      const text = `${changedOwnersText(write)}, which this catalog's data asset rule "${rule.name}" refuses (400)`;
      return { error: `${text}: name one team, or users only (${TURN_OFF})`, warning: text };
    }
    const text = `the live contract's owners (${ownerList(owners)}), which this file keeps, are more than one team or a team beside users, and this catalog's data asset rule "${rule.name}" refuses (400) any change that leaves them so`;
    return {
      error: `${text}: name one team, or users only, in the file's owners to mend them with this change (${TURN_OFF})`,
      warning: `${text}; nothing is sent while the file matches the contract`,
    };
  }
  if (write.before === null) {
    const text = `${subject(rule)} does not hold for the contract this file would create, and the catalog refuses (400) a contract that breaks it`;
    return { error: `${text}: change the file so that it holds (${TURN_OFF})`, warning: text };
  }
  if (brokenBefore.has(rule)) {
    const text = `the live contract breaks ${named(rule)}, and the catalog refuses (400) any change that leaves it broken and mends no other rule`;
    return {
      error: `${text}: change the file so that it holds, to mend it with this change (${TURN_OFF})`,
      warning: `${text}; nothing is sent while the file matches the contract`,
    };
  }
  const text = `${subject(rule)} does not hold for the contract as this change would leave it, and the catalog refuses (400) such a change`;
  return { error: `${text}: change the file so that it holds (${TURN_OFF})`, warning: text };
}

/** A rule that is past the bounds every JSON Logic rule is run within here, and why. */
function boundedText(rule: AssetRule, why: string): string {
  return `${ruleLabel(rule)} cannot be weighed here: ${why} (the bounds of a rule, docs/gates.md); the catalog weighs it on every change to a data contract, so whether it refuses this one is unknown: have an admin make the rule simpler, ${TURN_OFF.replace('or have an admin ', 'or ')}`;
}

/** Where the catalog could not say which rules are in force: the default rule on owners, said. */
function unknownRules(write: Write, why: string): RulesFinding {
  const owners = write.after.owners;
  const found: RulesFinding = { warnings: [], notes: [] };
  if (ownerBreakingRule(owners) === -1) return found;
  const rule = `OpenMetadata's data asset rule "${DEFAULT_NAME}"`;
  if (write.ownersChanged)
    found.warnings.push(
      unweighed(
        `${changedOwnersText(write)}, which ${rule} refuses (400) where it is on, as it is by default; the catalog could not say whether it is (${why})`,
        pointerTo('owners', changedOwnerIndex(write).index),
      ),
    );
  else if (write.before !== null && write.sent)
    found.warnings.push(
      unweighed(
        `the live contract's owners (${ownerList(owners)}), which this file keeps, are more than one team or a team beside users: ${rule}, on by default, refuses (400) any change that leaves them so; the catalog could not say whether it is on (${why})`,
        pointerTo('owners'),
      ),
    );
  return found;
}

/**
 * The catalog's rules weighed on one write, as its RuleEngine weighs them: `evaluate` on a
 * create, `evaluateUpdate` on a PATCH. Nothing is sent for a contract the file matches, so its
 * rules are only said as a warning then: any change to it would be weighed the same way.
 */
export function weighWrite(write: Write, rules: AssetRules): RulesFinding {
  if ('unknown' in rules) return unknownRules(write, rules.unknown);
  const found: RulesFinding = { warnings: [], notes: [] };
  // A rule that could not be weighed is counted on neither side: the catalog's count is unknown.
  const brokenIn = (entity: Readonly<JsonObject>): AssetRule[] =>
    rules.rules.filter((rule) => weighRule(rule.rule, entity) === 'broken');
  const after = rules.rules.map((rule) => ({ rule, outcome: weighRule(rule.rule, write.after) }));
  const brokenAfter = after.filter(({ outcome }) => outcome === 'broken').map(({ rule }) => rule);
  // A rule past the bounds rules run within: the contract cannot be weighed, so nothing is sent.
  const bounded = after.flatMap(({ rule, outcome }) =>
    typeof outcome === 'object' && 'bounded' in outcome ? [{ rule, why: outcome.bounded }] : [],
  );
  if (bounded.length > 0) {
    const texts = bounded.map(({ rule, why }) => boundedText(rule, why));
    found.refusal = {
      error: alsoJoined(texts),
      warning: alsoJoined(texts),
      at: ruleAt(bounded[0]!.rule, write),
    };
    return found;
  }
  if (write.sent)
    for (const { rule, outcome } of after)
      if (typeof outcome === 'object' && 'unweighed' in outcome)
        found.warnings.push(
          unweighed(
            `${ruleLabel(rule)} could not be weighed here (${outcome.unweighed}); the catalog weighs it on every change to a data contract, and refuses (400) a change that breaks it`,
            '/fullyQualifiedName',
          ),
        );
  const brokenBefore = new Set(
    write.before === null
      ? []
      : write.before === write.after
        ? brokenAfter
        : brokenIn(write.before),
  );
  // Refused: a create that breaks any rule; a change that breaks any and mends none.
  if (brokenAfter.length === 0) return found;
  if (write.before !== null && brokenAfter.length < brokenBefore.size) {
    found.notes.push(
      `after this change the contract still breaks ${brokenAfter.map(ruleLabel).join(' and ')}; the catalog takes the change because it mends ${[
        ...brokenBefore,
      ]
        .filter((rule) => !brokenAfter.includes(rule))
        .map((rule) => `"${rule.name}"`)
        .join(' and ')}`,
    );
    return found;
  }
  const texts = brokenAfter.map((rule) => brokenText(rule, write, brokenBefore));
  found.refusal = {
    error: alsoJoined(texts.map((text) => text.error)),
    warning: alsoJoined(texts.map((text) => text.warning)),
    at: ruleAt(brokenAfter[0]!, write),
  };
  return found;
}

/** Why the catalog would refuse the change from `before` to `after`; undefined when it takes it. */
export function ruleRefusal(
  before: Readonly<JsonObject>,
  after: Readonly<JsonObject>,
  fileOwners: unknown,
  rules: AssetRules | undefined,
): string | undefined {
  return rules && weighWrite(writeFrom(before, after, fileOwners), rules).refusal?.error;
}
