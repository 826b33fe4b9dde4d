// OpenMetadata's data asset rules as the sandbox plays them: one rule run as the server's
// RuleEngine runs it (JSON Logic with the operations of its LogicOps, src/rule-engine.ts), the
// rules served per entity type, and a write weighed as the server weighs a create (`evaluate`)
// or a PATCH (`evaluateUpdate`).
import { describe, expect, it } from 'vitest';
import { checkDataAssetRules, rulesFor } from '../src/asset-rules.js';
import { ruleHolds } from '../src/rule-engine.js';

const team = (name: string) => ({ type: 'team', name });
const user = (name: string) => ({ type: 'user', name });
const tag = (source: string) => ({ tagFQN: `${source}.x`, source });

const OWNERSHIP = {
  name: 'Multiple Users or Single Team Ownership',
  description: 'Validates that an entity has either multiple owners or a single team as the owner.',
  rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
  enabled: true,
};
const DESCRIBED = {
  name: 'Contracts say what they are for',
  description: 'A data contract has a description.',
  rule: '{"!!":{"var":"description"}}',
  enabled: true,
};

describe('one rule, run as the server runs it', () => {
  it('runs the ownership rule and `length` as LogicOps does, a lone list spread into their arguments', () => {
    expect(ruleHolds(OWNERSHIP.rule, {})).toBe(true);
    expect(ruleHolds(OWNERSHIP.rule, { owners: [] })).toBe(true);
    expect(ruleHolds(OWNERSHIP.rule, { owners: [user('a'), user('b')] })).toBe(true);
    expect(ruleHolds(OWNERSHIP.rule, { owners: [team('t')] })).toBe(true);
    expect(ruleHolds(OWNERSHIP.rule, { owners: [team('t'), user('a')] })).toBe(false);
    expect(ruleHolds(OWNERSHIP.rule, { owners: [team('t'), team('u')] })).toBe(false);
    const domains = '{"<=":[{"length":{"var":"domains"}},1]}';
    expect(ruleHolds(domains, { domains: ['a'] })).toBe(true);
    expect(ruleHolds(domains, { domains: ['a', 'b'] })).toBe(false);
    // A missing value is one argument, not a list.
    expect(ruleHolds(domains, {})).toBe(true);
    expect(ruleHolds('{"==":[{"length":{"var":"domains"}},1]}', {})).toBe(true);
  });

  it('filters references by type and tags by source', () => {
    const oneTeam = '{"==":[{"length":{"filterReferenceByType":[{"var":"owners"},"team"]}},1]}';
    expect(ruleHolds(oneTeam, { owners: [team('t'), user('a')] })).toBe(true);
    expect(ruleHolds(oneTeam, { owners: [user('a')] })).toBe(false);
    expect(ruleHolds(oneTeam, {})).toBe(false);
    const glossary = '{"<=":[{"length":{"filterTagsBySource":[{"var":"tags"},"Glossary"]}},1]}';
    expect(ruleHolds(glossary, { tags: [tag('Glossary'), tag('Classification')] })).toBe(true);
    expect(ruleHolds(glossary, { tags: [tag('Glossary'), tag('Glossary')] })).toBe(false);
    // A tag label without a source fails to convert, and the rule with it.
    expect(ruleHolds(glossary, { tags: [{ tagFQN: 'x' }] })).toBe(false);
    // A lone reference is not a list of them.
    expect(ruleHolds(oneTeam, { owners: team('t') })).toBe(false);
  });

  it('checks a data product against the domains, which the sandbox keeps none of for data products', () => {
    const match = '{"validateDataProductDomainMatch":[{"var":"dataProducts"},{"var":"domains"}]}';
    const product = { type: 'dataProduct', name: 'p' };
    expect(ruleHolds(match, { name: 'c' })).toBe(true);
    expect(ruleHolds(match, { dataProducts: [product] })).toBe(false);
    expect(ruleHolds(match, { dataProducts: [product], domains: [{ type: 'domain' }] })).toBe(true);
  });

  it("runs the server's public operations: contains, isOwner, isReviewer, isUpdatedBefore/After", () => {
    expect(ruleHolds('{"contains":["b",{"var":"name"}]}', { name: 'abc' })).toBe(true);
    expect(ruleHolds('{"contains":["x",{"var":"names"}]}', { names: ['x', 'y'] })).toBe(true);
    expect(ruleHolds('{"contains":["z",{"var":"names"}]}', { names: ['x', 'y'] })).toBe(false);
    expect(ruleHolds('{"contains":["",{"var":"name"}]}', { name: 'abc' })).toBe(false);
    const owner = '{"isOwner":{"var":"updatedBy"}}';
    expect(ruleHolds(owner, { updatedBy: 'ann', owners: [user('ann')] })).toBe(true);
    expect(ruleHolds(owner, { updatedBy: 'bob', owners: [user('ann')] })).toBe(false);
    expect(ruleHolds(owner, { updatedBy: 'ann' })).toBe(false);
    const reviewer = '{"isReviewer":{"var":"updatedBy"}}';
    expect(ruleHolds(reviewer, { updatedBy: 'ann', reviewers: [user('ann')] })).toBe(true);
    expect(ruleHolds(reviewer, { updatedBy: 'ann', owners: [user('ann')] })).toBe(false);
    expect(ruleHolds('{"isUpdatedBefore":100}', { updatedAt: 99 })).toBe(true);
    expect(ruleHolds('{"isUpdatedBefore":100}', { updatedAt: 100 })).toBe(false);
    expect(ruleHolds('{"isUpdatedAfter":100}', { updatedAt: 101 })).toBe(true);
    expect(ruleHolds('{"isUpdatedAfter":100}', {})).toBe(false);
  });

  it('holds only for true; a rule that is not JSON, or uses an operation the server lacks, is broken', () => {
    expect(ruleHolds(DESCRIBED.rule, { description: 'x' })).toBe(true);
    expect(ruleHolds(DESCRIBED.rule, {})).toBe(false);
    expect(ruleHolds('{"var":"description"}', { description: 'x' })).toBe(false);
    expect(ruleHolds('{"nope":{"var":"updatedBy"}}', {})).toBe(false);
    expect(ruleHolds('{not json', {})).toBe(false);
  });
});

describe("the sandbox's data asset rules", () => {
  it("serves OpenMetadata's defaults for data contracts, and every one holds for a contract the ownership rule keeps", () => {
    const served = rulesFor('dataContract');
    expect(served.map((rule) => rule.name)).toEqual([
      'Multiple Users or Single Team Ownership',
      'Multiple Domains are not allowed',
      'Multiple Data Products are not allowed',
      'Data Product Domain Validation',
    ]);
    const contract = { name: 'c', description: 'x', owners: [team('t')], reviewers: [] };
    expect(served.filter((rule) => !ruleHolds(rule.rule, contract))).toEqual([]);
    expect(rulesFor('table').map((rule) => rule.name)).toContain(
      'Tables can only have a single Glossary Term',
    );
    expect(rulesFor('user').map((rule) => rule.name)).not.toContain(
      'Multiple Domains are not allowed',
    );
  });

  const rules = [
    { ...OWNERSHIP, enabled: true },
    { ...DESCRIBED, enabled: true },
    { name: 'Tables only', rule: 'false', enabled: true, entityType: 'table' },
    { name: 'Off', rule: 'false', enabled: false },
  ];

  it("answers OpenMetadata's messages: one rule, or several", () => {
    expect(() => checkDataAssetRules(null, { description: 'x' }, rules)).not.toThrow();
    expect(() => checkDataAssetRules(null, {}, rules)).toThrow(
      'Rule [Contracts say what they are for] validation failed: Entity does not satisfy the rule. Rule context: A data contract has a description.',
    );
    expect(() => checkDataAssetRules(null, { owners: [team('a'), team('b')] }, rules)).toThrow(
      `Entity does not satisfy multiple rules\nRule [Multiple Users or Single Team Ownership] validation failed: Rule context: ${OWNERSHIP.description}\nRule [Contracts say what they are for] validation failed: Rule context: A data contract has a description.`,
    );
  });

  it('takes a PATCH that mends one rule and leaves another broken, and refuses one that mends none', () => {
    const broken = { owners: [team('a'), team('b')] };
    expect(() => checkDataAssetRules(broken, { ...broken, description: 'x' }, rules)).not.toThrow();
    expect(() => checkDataAssetRules(broken, { ...broken, displayName: 'x' }, rules)).toThrow(
      /^Entity does not satisfy multiple rules/,
    );
  });
});
