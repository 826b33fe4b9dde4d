// Typed findings: each producer makes its finding where the fact is known (code, severity,
// sentence, pointer), one step places it at its line and column, and every rendering reads it.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContract, type ContractFile } from '../src/contract/parse.js';
import { breakingFindings } from '../src/diff/breaking.js';
import { FINDING_CODES, pointerTo } from '../src/model/finding.js';
import { planFindings } from '../src/plan/findings.js';
import { createPlan, type PlanInput } from '../src/plan/create-plan.js';
import { renderPlanHuman } from '../src/views/render-human.js';
import { renderPlanMarkdown } from '../src/views/render-markdown.js';
import { findingResults } from '../src/plan/sarif-results.js';
import { breaches, compilePolicies } from '../src/policy/policies.js';
import { codecFor } from '../src/profile/codec.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../src/plan/types.js';
import { readPlanFile, writePlanFile } from '../src/plan/plan-file.js';
import { planChecksum } from '../src/plan/seal.js';
import { tempDir } from './helpers/temp-dir.js';
import { PLAIN as plain } from '../src/views/colors.js';

const root = path.resolve(import.meta.dirname, '..');

const TEXT = `name: payments
fullyQualifiedName: db.s.payments.dataContract_payments
entity:
  type: table
  fullyQualifiedName: db.s.payments
description: Payments.
entityStatus: Active
schema:
  - name: id
    dataType: BIGINT
    constraint: PRIMARY_KEY
  - name: amount
    dataType: VARCHAR
sla:
  refreshFrequency: PT2H
`;

function contractFile(text: string, file = 'contracts/payments.yaml'): ContractFile {
  const parsed = parseContract(text, file);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

/** The line (1-based) of the first line of `text` that starts with `start`, and its column. */
function placeOf(text: string, start: string, column = 1): string {
  const line = text.split('\n').findIndex((row) => row.trimStart().startsWith(start)) + 1;
  return `${line}:${column}`;
}

const live = {
  id: 'c1',
  version: 0.2,
  name: 'payments',
  fullyQualifiedName: 'db.s.payments.dataContract_payments',
  entity: { type: 'table', fullyQualifiedName: 'db.s.payments' },
  description: 'Payments.',
  entityStatus: 'Active',
  schema: [
    { name: 'id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' },
    { name: 'amount', dataType: 'DECIMAL' },
    { name: 'gone', dataType: 'INT' },
  ],
  sla: { refreshFrequency: 'PT1H' },
};

const META = {
  catalogUrl: 'http://catalog',
  catalogProfile: 'spec' as const,
  gitCommit: null,
  createdAt: '2026-11-28T00:00:00.000Z',
};

function plan(inputs: PlanInput[], options: Parameters<typeof createPlan>[2] = {}): Plan {
  return createPlan(inputs, META, options);
}

describe('breaking changes, each at the field the diff knows', () => {
  const desired = contractFile(TEXT).contract;
  it('says each with its code and pointer', () => {
    expect(
      breakingFindings(live, desired).map(({ code, pointer, severity }) => ({
        code,
        pointer,
        severity,
      })),
    ).toEqual([
      { code: 'breaking.column-type-changed', pointer: '/schema/1/dataType', severity: 'warning' },
      { code: 'breaking.column-removed', pointer: '/schema', severity: 'warning' },
      { code: 'breaking.sla-weakened', pointer: '/sla/refreshFrequency', severity: 'warning' },
    ]);
  });

  it('a rename at the new name, a constraint at its own property (else its column), the status, rules and SLA', () => {
    const was = {
      ...live,
      entityStatus: 'Active',
      schema: [
        { name: 'id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' },
        { name: 'old', dataType: 'VARCHAR' },
      ],
      semantics: [{ name: 'r', rule: '{}' }],
      sla: { availability: 99.9, maxLatency: 'PT1M' },
    };
    const now = {
      ...desired,
      entityStatus: 'Deprecated',
      schema: [
        { name: 'id', dataType: 'BIGINT' },
        { name: 'new', dataType: 'VARCHAR' },
      ],
      semantics: [],
      sla: { availability: 99, maxLatency: 'PT5M' },
    };
    expect(breakingFindings(was, now).map(({ code, pointer }) => [code, pointer])).toEqual([
      ['breaking.status-deprecated', '/entityStatus'],
      ['breaking.constraint-dropped', '/schema/0'],
      ['breaking.column-renamed', '/schema/1/name'],
      ['breaking.semantics-rule-removed', '/semantics'],
      ['breaking.sla-weakened', '/sla/availability'],
      ['breaking.sla-weakened', '/sla/maxLatency'],
    ]);
    expect(
      breakingFindings(was, { ...now, sla: null }).filter((f) => f.code === 'breaking.sla-removed'),
    ).toEqual([
      {
        code: 'breaking.sla-removed',
        severity: 'warning',
        message: 'SLA removed',
        pointer: '/sla',
      },
    ]);
  });
});

describe('policies, each breach at the field it concerns', () => {
  it('a built-in policy by its own code, a team rule as policy.rule', () => {
    const checks = compilePolicies([
      { use: 'owner-required', severity: 'warning' },
      { use: 'name-pattern', pattern: '^x' },
      {
        name: 'terms',
        rule: { '!!': [{ var: 'contract.termsOfUse' }] },
        severity: 'error',
        message: 'say terms',
      },
    ]);
    const found = breaches(checks, {
      contract: contractFile(TEXT).contract,
      live: null,
      asset: { piiColumns: [] },
    });
    expect(found.map(({ code, severity, pointer }) => ({ code, severity, pointer }))).toEqual([
      { code: 'policy.owner-required', severity: 'warning', pointer: '/owners' },
      { code: 'policy.name-pattern', severity: 'error', pointer: '/name' },
      { code: 'policy.rule', severity: 'error', pointer: '/termsOfUse' },
    ]);
  });
});

describe('the release check, at the status', () => {
  it('Archived on OpenMetadata 1.12 is release.status-unsupported at /entityStatus', () => {
    const file = contractFile(TEXT.replace('entityStatus: Active', 'entityStatus: Archived'));
    expect(codecFor('openmetadata', '1.12.3').refusedByRelease?.(file.contract)).toEqual([
      {
        code: 'release.status-unsupported',
        severity: 'error',
        pointer: '/entityStatus',
        message: expect.stringMatching(
          /^entityStatus Archived is not a status OpenMetadata 1\.12\.3 stores/,
        ),
      },
    ]);
    expect(codecFor('openmetadata', '1.13.0').refusedByRelease?.(file.contract)).toEqual([]);
  });
});

describe('the human plan shows file:line:col before each finding', () => {
  it('a breaking change at its line, and the plan JSON carries code, severity, message and line', () => {
    const file = contractFile(TEXT);
    const planned = plan([{ file, live: { kind: 'found', contract: live } }]);
    const human = renderPlanHuman(planned, plain);
    expect(human).toContain(
      `      ! breaking: contracts/payments.yaml:${placeOf(TEXT, 'dataType: VARCHAR', 15)} column amount type changed from DECIMAL to VARCHAR\n`,
    );
    expect(human).toContain(
      `      ! breaking: contracts/payments.yaml:${placeOf(TEXT, 'schema:')} column gone removed\n`,
    );
    expect(planned.formatVersion).toBe(PLAN_FORMAT_VERSION);
    const json = JSON.parse(JSON.stringify(planned)) as Plan;
    expect(json.changes[0]!.findings![0]).toEqual({
      code: 'breaking.column-type-changed',
      severity: 'warning',
      message: 'column amount type changed from DECIMAL to VARCHAR',
      file: 'contracts/payments.yaml',
      line: Number(placeOf(TEXT, 'dataType: VARCHAR').split(':')[0]),
      column: 15,
      pointer: '/schema/1/dataType',
    });
    // The older fields say the same sentences.
    expect(json.changes[0]!.breaking).toEqual(
      json.changes[0]!.findings!.map((finding) => finding.message),
    );
  });

  it('a release error (Archived on OpenMetadata 1.12) at the status', () => {
    const text = TEXT.replace('entityStatus: Active', 'entityStatus: Archived');
    const file = contractFile(text);
    const planned = plan([{ file, live: { kind: 'found', contract: live } }], {
      codec: codecFor('openmetadata', '1.12.3'),
    });
    const human = renderPlanHuman(planned, plain);
    expect(human).toMatch(
      new RegExp(
        `\\n      error: contracts/payments\\.yaml:${placeOf(text, 'entityStatus:')} entityStatus Archived is not a status OpenMetadata 1\\.12\\.3 stores`,
      ),
    );
    expect(planFindings(planned)).toEqual([
      expect.objectContaining({
        code: 'release.status-unsupported',
        severity: 'error',
        line: Number(placeOf(text, 'entityStatus:').split(':')[0]),
        column: 1,
        pointer: '/entityStatus',
      }),
    ]);
  });

  it('a policy breach, as a warning and as an error, at the field it concerns', () => {
    const text = `${TEXT}owners:\n  - type: user\n    name: ann\n`;
    const file = contractFile(text);
    const policies = compilePolicies([
      {
        name: 'no-ann',
        rule: { '!': [{ var: 'contract.owners' }] },
        severity: 'warning',
        message: 'no owners',
      },
    ]);
    const warned = renderPlanHuman(
      plan([{ file, live: { kind: 'found', contract: live } }], { policies }),
      plain,
    );
    expect(warned).toContain(
      `      warning: contracts/payments.yaml:${placeOf(text, 'owners:')} policy no-ann (owners): no owners\n`,
    );
    const refused = plan([{ file, live: { kind: 'found', contract: live } }], {
      policies: compilePolicies([
        {
          name: 'no-ann',
          rule: { '!': [{ var: 'contract.owners' }] },
          severity: 'error',
          message: 'no owners',
        },
      ]),
    });
    expect(renderPlanHuman(refused, plain)).toContain(
      `      error: contracts/payments.yaml:${placeOf(text, 'owners:')} policy no-ann (owners): no owners\n`,
    );
    expect(findingResults(planFindings(refused))).toEqual([
      expect.objectContaining({
        rule: 'policy',
        level: 'error',
        line: Number(placeOf(text, 'owners:').split(':')[0]),
      }),
    ]);
    // The markdown comment says the place too, as code.
    expect(renderPlanMarkdown(refused)).toContain(
      `**Error:** \`contracts/payments.yaml:${placeOf(text, 'owners:')}\` policy no-ann (owners): no owners`,
    );
  });

  it('a plan of format version 1, without findings, is shown as before: without places', () => {
    const file = contractFile(TEXT);
    const planned = plan([{ file, live: { kind: 'found', contract: live } }]);
    const older = {
      ...planned,
      formatVersion: 1,
      changes: planned.changes.map(({ findings: _findings, ...change }) => change),
    } as Plan;
    expect(renderPlanHuman(older, plain)).toContain(
      '      ! breaking: column amount type changed from DECIMAL to VARCHAR\n',
    );
  });
});

describe('a saved plan', () => {
  it('of format 2 carries its findings; one of format 1, without them, is read as before', async () => {
    const dir = await tempDir({});
    try {
      const file = contractFile(TEXT);
      const planned = plan([{ file, live: { kind: 'found', contract: live } }]);
      const saved = path.join(dir.dir, 'plan.json');
      await writePlanFile(saved, planned);
      const read = await readPlanFile(saved);
      expect(read.formatVersion).toBe(2);
      expect(read.changes[0]!.findings).toEqual(planned.changes[0]!.findings);
      // What the release before findings saved: format 1, no findings, its own checksum.
      const { checksum: _checksum, ...content } = JSON.parse(JSON.stringify(planned)) as Plan;
      const older = {
        ...content,
        formatVersion: 1 as const,
        changes: content.changes.map(({ findings: _findings, ...change }) => change),
      };
      const v1 = path.join(dir.dir, 'v1.json');
      await writeFile(v1, JSON.stringify({ ...older, checksum: planChecksum(older) }));
      const reread = await readPlanFile(v1);
      expect(reread.formatVersion).toBe(1);
      expect(reread.changes[0]!.findings).toBeUndefined();
      // Format 2 without findings is no plan this tool wrote.
      const odd = { ...content, changes: older.changes };
      const v2 = path.join(dir.dir, 'v2.json');
      await writeFile(v2, JSON.stringify({ ...odd, checksum: planChecksum(odd) }));
      await expect(readPlanFile(v2)).rejects.toThrow(/lacks findings/);
      // A format this release does not know is refused, as before.
      const next = { ...content, formatVersion: 3 };
      const v3 = path.join(dir.dir, 'v3.json');
      await writeFile(v3, JSON.stringify({ ...next, checksum: 'x' }));
      await expect(readPlanFile(v3)).rejects.toThrow(/is not a plan this version can apply/);
    } finally {
      await dir.remove();
    }
  });
});

describe('the list of codes', () => {
  it('is documented in docs/plan-json.md, each with its sentence, and only those', () => {
    const doc = readFileSync(path.join(root, 'docs', 'plan-json.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z]+\.[a-z-]+)` *\| (.+?) *\|$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(listed).toEqual(Object.entries(FINDING_CODES));
  });

  it('each matches the pattern the plan schema gives a code', () => {
    const schema = JSON.parse(
      readFileSync(path.join(root, 'schemas', 'plan.schema.json'), 'utf8'),
    ) as { properties: { changes: { items: { properties: Record<string, any> } } } };
    const pattern = new RegExp(
      schema.properties.changes.items.properties.findings.items.properties.code.pattern,
    );
    for (const code of Object.keys(FINDING_CODES)) expect(code).toMatch(pattern);
  });

  it('src/model imports only src/model, src/support and the schemas it is defined by', () => {
    const folder = path.join(root, 'src', 'model');
    for (const name of readdirSync(folder)) {
      const text = readFileSync(path.join(folder, name), 'utf8');
      const from = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(?\s*'([^']+)'/g)].map(
        (m) => m[1] ?? m[2],
      );
      expect(
        from.filter(
          (specifier) => !/^(?:\.\/|\.\.\/support\/|\.\.\/\.\.\/schemas\/)/.test(specifier!),
        ),
        name,
      ).toEqual([]);
    }
  });

  it('a pointer escapes ~ and / in each token', () => {
    expect(pointerTo('extension', 'a/b~c', 0)).toBe('/extension/a~1b~0c/0');
  });
});
