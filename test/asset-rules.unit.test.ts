// OpenMetadata's data asset rules: one rule weighed as the server's RuleEngine weighs it (JSON
// Logic with the operations OpenMetadata adds), and a write weighed as the server weighs a create
// (`evaluate`: no rule broken) or a PATCH (`evaluateUpdate`: refused when the contract it leaves
// breaks rules, and at least as many as the live one did).
import { describe, expect, it } from 'vitest';
import { weighWrite, writeFrom, type AssetRule } from '../src/plan/asset-rules.js';
import { fieldsRead, ownerBreakingRule, weighRule } from '../src/profile/openmetadata-rules.js';
import { ruleHolds, rulesFor } from '@contracts-gitops/sandbox';

const team = (name: string) => ({ type: 'team', name });
const user = (name: string) => ({ type: 'user', name });

/** OpenMetadata's default rules, as `GET /v1/system/settings/entityRulesSettings/…` gives them. */
const OWNERSHIP: AssetRule = {
  name: 'Multiple Users or Single Team Ownership',
  description: 'Validates that an entity has either multiple owners or a single team as the owner.',
  rule: '{"multipleUsersOrSingleTeamOwnership":{"var":"owners"}}',
};
const DOMAINS: AssetRule = {
  name: 'Multiple Domains are not allowed',
  rule: '{"<=":[{"length":{"var":"domains"}},1]}',
};
const DESCRIBED: AssetRule = {
  name: 'Contracts say what they are for',
  description: 'A data contract has a description.',
  rule: '{"!!":{"var":"description"}}',
};

describe('one data asset rule, weighed as OpenMetadata weighs it', () => {
  it("runs OpenMetadata's own operations as its LogicOps does", () => {
    const own = OWNERSHIP.rule;
    expect(weighRule(own, {})).toBe('holds');
    expect(weighRule(own, { owners: [] })).toBe('holds');
    expect(weighRule(own, { owners: [user('a'), user('b')] })).toBe('holds');
    expect(weighRule(own, { owners: [team('t')] })).toBe('holds');
    expect(weighRule(own, { owners: [team('t'), user('a')] })).toBe('broken');
    expect(weighRule(own, { owners: [team('t'), team('u')] })).toBe('broken');
    // `length` gets a lone list spread into its arguments; a missing value is one argument.
    expect(weighRule(DOMAINS.rule, { domains: ['a'] })).toBe('holds');
    expect(weighRule(DOMAINS.rule, { domains: ['a', 'b'] })).toBe('broken');
    expect(weighRule(DOMAINS.rule, {})).toBe('holds');
    const oneTeam = '{"==":[{"length":{"filterReferenceByType":[{"var":"owners"},"team"]}},1]}';
    expect(weighRule(oneTeam, { owners: [team('t'), user('a')] })).toBe('holds');
    expect(weighRule(oneTeam, { owners: [user('a')] })).toBe('broken');
    expect(weighRule(oneTeam, {})).toBe('broken');
    const glossary = '{"<=":[{"length":{"filterTagsBySource":[{"var":"tags"},"Glossary"]}},1]}';
    const tag = (source: string) => ({ tagFQN: 'x', source });
    expect(weighRule(glossary, { tags: [tag('Glossary'), tag('Classification')] })).toBe('holds');
    expect(weighRule(glossary, { tags: [tag('Glossary'), tag('Glossary')] })).toBe('broken');
    // Holds for an entity without data products, as a data contract always is.
    const match = '{"validateDataProductDomainMatch":[{"var":"dataProducts"},{"var":"domains"}]}';
    expect(weighRule(match, { name: 'c' })).toBe('holds');
    expect(weighRule(match, { dataProducts: [{ type: 'dataProduct' }] })).toEqual({
      unweighed: "validateDataProductDomainMatch needs the domains of the entity's data products",
    });
  });

  it('holds only for true; says why when it cannot weigh a rule', () => {
    expect(weighRule(DESCRIBED.rule, { description: 'x' })).toBe('holds');
    expect(weighRule(DESCRIBED.rule, {})).toBe('broken');
    expect(weighRule('{"var":"description"}', { description: 'x' })).toEqual({
      unweighed: 'it gives "x", not true or false',
    });
    expect(weighRule('{"isOwner":{"var":"updatedBy"}}', {})).toEqual({
      unweighed: 'Unrecognized operation isOwner',
    });
    expect(weighRule('{not json', {})).toEqual({
      unweighed: expect.stringMatching(/^its rule is not JSON/),
    });
  });

  it('names the top-level fields a rule reads', () => {
    expect(fieldsRead(DESCRIBED.rule)).toEqual(['description']);
    expect(
      fieldsRead('{"and":[{"!!":{"var":"sla.refreshFrequency"}},{"in":["x",{"var":"owners"}]}]}'),
    ).toEqual(['sla', 'owners']);
    expect(fieldsRead('true')).toEqual([]);
  });

  it('finds the first owner that makes the owners more than one team, or a team beside users', () => {
    expect(ownerBreakingRule(undefined)).toBe(-1);
    expect(ownerBreakingRule([team('a')])).toBe(-1);
    expect(ownerBreakingRule([user('a'), user('b'), user('c')])).toBe(-1);
    expect(ownerBreakingRule([team('a'), team('b')])).toBe(1);
    expect(ownerBreakingRule([user('a'), user('b'), team('c')])).toBe(2);
    expect(ownerBreakingRule([team('a'), user('b')])).toBe(1);
  });
});

describe('a write weighed as the catalog weighs it', () => {
  const rules = { rules: [OWNERSHIP, DESCRIBED] };
  const live = { id: 'c', version: 0.1, description: 'Old.', owners: [team('t')] };

  it('refuses a create that breaks any rule, and a change that breaks one the live contract keeps', () => {
    const create = weighWrite(writeFrom(null, { name: 'c' }, undefined), rules);
    // At the fields the rule reads.
    expect(create.refusal?.at).toEqual(['/description']);
    expect(create.refusal?.error).toBe(
      `this catalog's data asset rule "Contracts say what they are for" (A data contract has a description.), which reads description, does not hold for the contract this file would create, and the catalog refuses (400) a contract that breaks it: change the file so that it holds (or have an admin turn the rule off for data contracts in Settings › Preferences › Data Asset Rules)`,
    );
    const { description: _gone, ...undescribed } = live;
    const change = weighWrite(writeFrom(live, undescribed, undefined), rules);
    expect(change.refusal?.error).toMatch(
      /^this catalog's data asset rule "Contracts say what they are for" \(A data contract has a description\.\), which reads description, does not hold for the contract as this change would leave it, and the catalog refuses \(400\) such a change: /,
    );
    expect(weighWrite(writeFrom(live, { ...live, description: 'New.' }, undefined), rules)).toEqual(
      { warnings: [], notes: [] },
    );
  });

  it('takes a change that leaves a rule broken when it mends another, and says so', () => {
    const broken = { id: 'c', version: 0.1, owners: [team('t'), user('a')] };
    const mended = weighWrite(
      writeFrom(broken, { ...broken, description: 'New.' }, undefined),
      rules,
    );
    expect(mended.refusal).toBeUndefined();
    expect(mended.notes).toEqual([
      `after this change the contract still breaks this catalog's data asset rule "Multiple Users or Single Team Ownership" (Validates that an entity has either multiple owners or a single team as the owner.); the catalog takes the change because it mends "Contracts say what they are for"`,
    ]);
    // A change that mends nothing is refused for every rule it leaves broken, each said.
    const still = weighWrite(writeFrom(broken, { ...broken, displayName: 'C' }, undefined), rules);
    expect(still.refusal?.error).toMatch(
      /^the live contract's owners \(team t, user a\), which this file keeps, .*\. Also, the live contract breaks this catalog's data asset rule "Contracts say what they are for" .*, and the catalog refuses \(400\) any change that leaves it broken and mends no other rule: change the file so that it holds, to mend it with this change/,
    );
    // Nothing sent: the same, as a warning.
    const quiet = weighWrite({ ...writeFrom(broken, broken, undefined), sent: false }, rules);
    expect(quiet.refusal?.warning).toMatch(/nothing is sent while the file matches the contract$/);
  });

  it("says the file's owner that breaks the ownership rule, in the file's order", () => {
    const owners = [user('a'), team('t')];
    const found = weighWrite(writeFrom(live, { ...live, owners: [team('t'), user('a')] }, owners), {
      rules: [{ ...OWNERSHIP, name: 'Owners' }],
    });
    expect(found.refusal?.at).toEqual(['/owners/1']);
    expect(found.refusal?.error).toMatch(
      /^owners\[1\] \(team t\) makes the owners more than one team, or a team beside users, which this catalog's data asset rule "Owners" refuses \(400\): name one team, or users only/,
    );
  });

  it('where the catalog could not say its rules, warns of the default one on owners, and only of it', () => {
    const owners = [user('a'), team('t')];
    const unknown = { unknown: '404 NOT_FOUND' };
    expect(weighWrite(writeFrom(live, { ...live, owners }, owners), unknown).warnings).toEqual([
      {
        code: 'catalog.asset-rule-unweighed',
        severity: 'warning',
        message: expect.stringContaining(
          'refuses (400) where it is on, as it is by default; the catalog could not say whether it is (404 NOT_FOUND)',
        ),
        // At the owner that breaks the rule, in the file's order.
        pointer: '/owners/1',
      },
    ]);
    expect(weighWrite(writeFrom(live, {}, undefined), unknown)).toEqual({
      warnings: [],
      notes: [],
    });
  });

  it('warns of a rule it cannot weigh, and counts it on neither side', () => {
    const odd = { name: 'Owners only', rule: '{"isOwner":{"var":"updatedBy"}}' };
    const found = weighWrite(writeFrom(live, { ...live, description: 'New.' }, undefined), {
      rules: [odd],
    });
    expect(found.refusal).toBeUndefined();
    expect(found.warnings.map((warning) => warning.message)).toEqual([
      `this catalog's data asset rule "Owners only" could not be weighed here (Unrecognized operation isOwner); the catalog weighs it on every change to a data contract, and refuses (400) a change that breaks it`,
    ]);
  });
});

describe("the sandbox's data asset rules, weighed by the planner", () => {
  it("serves OpenMetadata's defaults for data contracts, and every one holds for a contract the ownership rule keeps", () => {
    const served = rulesFor('dataContract');
    expect(served.map((rule) => rule.name)).toEqual([
      'Multiple Users or Single Team Ownership',
      'Multiple Domains are not allowed',
      'Multiple Data Products are not allowed',
      'Data Product Domain Validation',
    ]);
    const contract = { name: 'c', description: 'x', owners: [team('t')], reviewers: [] };
    expect(served.map((rule) => weighRule(rule.rule, contract))).toEqual(served.map(() => 'holds'));
  });

  // The sandbox runs rules with its own engine (json-logic-js and OpenMetadata's operations as the
  // server has them): where the planner can weigh a rule, both must come out alike.
  it('comes out as the sandbox does, on every rule the planner can weigh', () => {
    const rules = [
      ...rulesFor('table').map((rule) => rule.rule),
      OWNERSHIP.rule,
      DOMAINS.rule,
      DESCRIBED.rule,
      '{"==":[{"length":{"filterReferenceByType":[{"var":"owners"},"team"]}},1]}',
      '{"<=":[{"length":{"filterTagsBySource":[{"var":"tags"},"Glossary"]}},1]}',
      '{"and":[{"!!":{"var":"description"}},{"<":[{"length":{"var":"owners"}},3]}]}',
      '{"some":[{"var":"owners"},{"==":[{"var":"type"},"user"]}]}',
    ];
    const tag = (source: string) => ({ tagFQN: `${source}.x`, source });
    const entities = [
      {},
      { owners: [] },
      { owners: [team('t')], description: 'x' },
      { owners: [user('a'), user('b')] },
      { owners: [team('t'), user('a')] },
      { owners: [team('t'), team('u')], description: '' },
      { owners: [user('a'), user('b'), user('c')], description: 'x' },
      { domains: [{ type: 'domain', name: 'd' }] },
      {
        domains: [
          { type: 'domain', name: 'd' },
          { type: 'domain', name: 'e' },
        ],
      },
      { tags: [tag('Glossary'), tag('Classification')] },
      { tags: [tag('Glossary'), tag('Glossary')] },
    ];
    for (const rule of rules)
      for (const entity of entities) {
        const planned = weighRule(rule, entity);
        if (planned !== 'holds' && planned !== 'broken') continue;
        expect({ rule, entity, holds: ruleHolds(rule, entity) }).toEqual({
          rule,
          entity,
          holds: planned === 'holds',
        });
      }
  });
});
