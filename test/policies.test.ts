// The team's policies (`policies:` of .contracts.yaml), over HTTP against the sandbox: each
// built-in rule breached and satisfied in turn, a JSON Logic rule of the team's own, a warning that
// is said and an error that blocks apply, each at the line of the field it concerns.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { editorSeed, openMetadataDemo, openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A catalog of one table, its email column tagged PII, without a contract. */
async function catalog() {
  const opened = await openSandbox({
    seed: editorSeed(
      [
        {
          id: '7a000000-0000-4000-8000-000000000001',
          entityType: 'table',
          name: 'people',
          fullyQualifiedName: 'db.s.people',
          columns: [
            { name: 'id', dataType: 'BIGINT' },
            { name: 'email', dataType: 'VARCHAR', tags: [{ tagFQN: 'PII.Sensitive' }] },
          ],
        },
      ],
      [],
    ),
  });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  return {
    sandbox: opened.sandbox,
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

/** A contract file for db.s.people: its lines, with `extra` lines at the end. */
const contract = (name: string, extra: string[]) =>
  [
    `name: ${name}`,
    `fullyQualifiedName: db.s.people.dataContract_${name}`,
    'entity: { type: table, fullyQualifiedName: db.s.people }',
    'entityStatus: Draft',
    ...extra,
    '',
  ].join('\n');

const cases: {
  policy: string;
  breached: string[];
  satisfied: string[];
  field: string;
  says: string;
  name?: string;
}[] = [
  {
    policy: '- use: owner-required',
    breached: ['description: People.'],
    satisfied: ['owners: [{ type: user, name: alice }]'],
    field: 'owners',
    says: 'policy owner-required (owners): every contract needs an owner',
  },
  {
    policy: '- use: description-required',
    breached: ['description: "  "'],
    satisfied: ['description: The people we know.'],
    field: 'description',
    says: 'policy description-required (description): every contract needs a description',
  },
  {
    policy: '- use: pii-needs-security-policy',
    breached: ['schema: [{ name: id, dataType: BIGINT }, { name: email, dataType: VARCHAR }]'],
    satisfied: [
      'schema: [{ name: id, dataType: BIGINT }, { name: email, dataType: VARCHAR }]',
      'security: { dataClassification: Confidential }',
    ],
    field: 'security',
    says: 'policy pii-needs-security-policy (security): a contract on columns tagged PII needs a security policy',
  },
  {
    policy: '- { use: sla-floor, refreshFrequency: P1D }',
    breached: ['sla: { refreshFrequency: P1W }'],
    satisfied: ['sla: { refreshFrequency: PT6H }'],
    field: 'sla',
    says: "policy sla-floor (sla): the SLA's refreshFrequency must be at most P1D",
  },
  {
    policy: '- { use: sla-floor, refreshFrequency: P1D }',
    breached: ['sla: { maxLatency: PT1H }'],
    satisfied: ['sla: { refreshFrequency: PT6H }'],
    field: 'sla',
    says: "policy sla-floor (sla): the SLA's refreshFrequency must be set, at most P1D: the contract in force has none",
  },
  {
    policy: "- { use: name-pattern, pattern: '^[a-z]+$' }",
    breached: [],
    satisfied: [],
    name: 'people_2',
    field: 'name',
    says: "policy name-pattern (name): the contract's name must match ^[a-z]+$",
  },
  {
    policy:
      '- { name: terms-required, rule: { "!!": [{ var: contract.termsOfUse }] }, severity: error, message: every contract states its terms of use }',
    breached: ['description: People.'],
    satisfied: ['termsOfUse: Internal use only.'],
    field: 'termsOfUse',
    says: 'policy terms-required (termsOfUse): every contract states its terms of use',
  },
];

describe('policies as code', () => {
  it.each(cases)(
    '$policy: breached, an error at its field and nothing sent; satisfied, applied',
    async (c) => {
      const { sandbox, cwd, env } = await catalog();
      await writeFile(path.join(cwd, '.contracts.yaml'), `policies:\n  ${c.policy}\n`);
      const file = path.join(cwd, 'contracts', 'people.yaml');
      await mkdir(path.dirname(file), { recursive: true });
      const breached = contract(c.name ?? 'people', c.breached);
      await writeFile(file, breached);
      const plan = await cli(['plan', '--format', 'github'], { cwd, env });
      expect(plan.code, plan.out + plan.err).toBe(1);
      expect(plan.out).toContain(c.says);
      // At the field it concerns, or (a field the file does not set) at the top of the file.
      const line = breached.split('\n').findIndex((l) => l.startsWith(`${c.field}:`)) + 1;
      expect(plan.out).toMatch(
        new RegExp(
          `::error file=contracts/people\\.yaml,line=${line > 0 ? line : 1},col=\\d+,title=policy breach::`,
        ),
      );
      const apply = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(apply.code).toBe(1);
      expect(sandbox.requests().filter((r) => r.method === 'POST' || r.method === 'PATCH')).toEqual(
        [],
      );
      if (c.name !== undefined) return;
      await writeFile(file, contract('people', c.satisfied));
      const fixed = await cli(['apply', '--auto-approve'], { cwd, env });
      expect(fixed.code, fixed.out + fixed.err).toBe(0);
      expect(fixed.out).toContain('Apply complete: 1 created');
    },
  );

  it('a warning is said at its field and blocks nothing', async () => {
    const { cwd, env } = await catalog();
    await writeFile(
      path.join(cwd, '.contracts.yaml'),
      'policies:\n  - { use: owner-required, severity: warning, message: a contract should have an owner }\n',
    );
    await mkdir(path.join(cwd, 'contracts'));
    await writeFile(path.join(cwd, 'contracts', 'people.yaml'), contract('people', []));
    const plan = await cli(['plan', '--no-color'], { cwd, env });
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toContain(
      // The file has no owners: at its first line.
      'warning: contracts/people.yaml:1:1 policy owner-required (owners): a contract should have an owner',
    );
    expect((await cli(['apply', '--auto-approve'], { cwd, env })).code).toBe(0);
  });

  it('weighs the contract in force, and says where an inherited field comes from', async () => {
    const { cwd, env } = await openMetadataDemo(cleanups);
    await writeFile(
      path.join(cwd, '.contracts.yaml'),
      [
        'policies:',
        '  - { use: sla-floor, refreshFrequency: P1D }',
        '  - { name: terms-required, rule: { "!!": [{ var: contract.termsOfUse }] }, severity: warning, message: every contract states its terms of use }',
        '',
      ].join('\n'),
    );
    const plan = await cli(['plan', 'contracts/order-items.yaml', '--no-color'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    // The table inherits the product's SLA (a refresh of a day at most): the floor holds.
    expect(plan.out).not.toContain('sla-floor');
    expect(plan.out).toContain(
      "policy terms-required (termsOfUse): every contract states its terms of use (termsOfUse is inherited from data product sales-analytics: `contract.termsOfUse` is the file's own, which sets none; `live.termsOfUse` is the value in force",
    );
  });
});
