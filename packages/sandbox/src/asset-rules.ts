// OpenMetadata's data asset rules as the sandbox keeps them: the seed's, else OpenMetadata's
// defaults; served per entity type as the server filters them, and weighed on every create and
// PATCH of a data contract as the server's RuleEngine weighs them (rule-engine.ts).
import { ApiError } from './http.js';
import { withRelationships } from './openmetadata.js';
import { ruleHolds } from './rule-engine.js';
import type { Seed } from './seed.js';

type Json = Record<string, unknown>;

export type DataAssetRule = NonNullable<Seed['dataAssetRules']>[number];

/** OpenMetadata's default data asset rules (1.10+), each on. */
const DEFAULT_RULES: DataAssetRule[] = [
  {
    name: 'Multiple Users or Single Team Ownership',
    description:
      'Validates that an entity has either multiple owners or a single team as the owner.',
    rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
    enabled: true,
    ignoredEntities: [],
    provider: 'system',
  },
  {
    name: 'Multiple Domains are not allowed',
    description:
      'By default, we only allow entities to be assigned to a single domain, except for Users and Teams.',
    rule: '{"<=":[{"length":{"var":"domains"}},1]}',
    enabled: true,
    ignoredEntities: ['user', 'team', 'persona', 'bot'],
    provider: 'system',
  },
  {
    name: 'Multiple Data Products are not allowed',
    description: 'By default, we only allow entities to be assigned to a single Data Product.',
    rule: '{"<=":[{"length":{"var":"dataProducts"}},1]}',
    enabled: true,
    ignoredEntities: [],
    provider: 'system',
  },
  {
    name: 'Tables can only have a single Glossary Term',
    description: 'Ensures that an asset is associated with only one Glossary Term.',
    rule: '{"<=":[{"length":{"filterTagsBySource":[{"var":"tags"},"Glossary"]}},1]}',
    enabled: true,
    entityType: 'table',
    ignoredEntities: [],
    provider: 'system',
  },
  {
    name: 'Data Product Domain Validation',
    description: "Validates that Data Products assigned to an entity match the entity's domains.",
    rule: '{"validateDataProductDomainMatch":[{"var":"dataProducts"},{"var":"domains"}]}',
    enabled: true,
    provider: 'system',
  },
];

/**
 * `GET /v1/system/settings/entityRulesSettings/{entityType}`: the enabled rules that apply to
 * `entityType` (the seed's, or OpenMetadata's defaults), as OpenMetadata filters them.
 */
export function rulesFor(entityType: string, rules = DEFAULT_RULES): DataAssetRule[] {
  return rules.filter(
    (rule) =>
      rule.enabled &&
      (typeof rule.entityType !== 'string' ||
        rule.entityType.toLowerCase() === entityType.toLowerCase()) &&
      !(Array.isArray(rule.ignoredEntities) && rule.ignoredEntities.includes(entityType)),
  );
}

/**
 * The data asset rules in force for data contracts weighed as OpenMetadata's RuleEngine weighs
 * them: on a create (`before` null, `evaluate`) any rule the contract breaks is a 400; on a PATCH
 * (`evaluateUpdate`) the rules the patched contract breaks are a 400 when they are at least as
 * many as the stored one broke ("not fixing anything"). A rule that cannot be run counts as
 * broken, as the server counts it. The message is OpenMetadata's.
 */
export function checkDataAssetRules(
  before: Json | null,
  after: Json,
  rules?: DataAssetRule[],
): void {
  const inForce = rulesFor('dataContract', rules);
  // A stored contract is read with its relationship lists; a new one has those it was given.
  const broken = (entity: Json) =>
    inForce.filter(
      (rule) => !ruleHolds(rule.rule, before === null ? entity : withRelationships(entity)),
    );
  const brokenAfter = broken(after);
  if (brokenAfter.length === 0) return;
  if (before !== null && brokenAfter.length < broken(before).length) return;
  const context = (rule: DataAssetRule) =>
    typeof rule.description === 'string' ? rule.description : '';
  if (brokenAfter.length === 1)
    throw new ApiError(
      400,
      `Rule [${brokenAfter[0]!.name}] validation failed: Entity does not satisfy the rule. Rule context: ${context(brokenAfter[0]!)}`,
    );
  throw new ApiError(
    400,
    [
      'Entity does not satisfy multiple rules',
      ...brokenAfter.map(
        (rule) => `Rule [${rule.name}] validation failed: Rule context: ${context(rule)}`,
      ),
    ].join('\n'),
  );
}
