// What a pull request's settings file and the catalog's rules can cost, through the CLI against
// the sandbox: a pattern RE2 does not compile (or that uses what RE2 lacks), a rule too deep, too
// large or with an unknown operation, and an alias bomb are located problems of `validate` and
// refusals of plan before anything is sent; a catastrophic pattern runs in linear time; a rule of
// the team's or of the catalog that would run for minutes stops at its budget, an error of the
// contract. Those that would hang run the built CLI in a process of its own, killed if it hangs.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, type CliRun } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { editorSeed, openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A catalog of one table, and a folder with a contract for it (named `name`) and `settings`. */
async function catalog(settings: string, name = 'people', options: { rules?: unknown[] } = {}) {
  const opened = await openSandbox({
    seed: {
      ...editorSeed(
        [
          {
            id: '7a000000-0000-4000-8000-000000000001',
            entityType: 'table',
            name: 'people',
            fullyQualifiedName: 'db.s.people',
            columns: [{ name: 'id', dataType: 'BIGINT' }],
          },
        ],
        [],
      ),
      ...(options.rules === undefined ? {} : { dataAssetRules: options.rules as never }),
    },
    profile: 'openmetadata',
  });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir({ '.contracts.yaml': settings });
  cleanups.push(() => dir.remove());
  await mkdir(path.join(dir.dir, 'contracts'));
  await writeFile(
    path.join(dir.dir, 'contracts', 'people.yaml'),
    [
      `name: ${JSON.stringify(name)}`,
      'fullyQualifiedName: db.s.people.dataContract_people',
      'entity: { type: table, fullyQualifiedName: db.s.people }',
      'description: People.',
      '',
    ].join('\n'),
  );
  return {
    sandbox: opened.sandbox,
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

/** Where `needle` is in `text` (its first occurrence), 1-based. */
function positionOf(text: string, needle: string): [number, number] {
  const offset = text.indexOf(needle);
  expect(offset, needle).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return [before.length, before.at(-1)!.length + 1];
}

/** A rule of the team's, in flow style, under `policies:`. */
const rule = (logic: unknown) =>
  `policies:\n  - { name: bounded, severity: error, message: it holds, rule: ${JSON.stringify(logic)} }\n`;

/** `{"!": {"!": … true}}`, `depth` operations deep. */
const nested = (depth: number): unknown =>
  Array.from({ length: depth }).reduce<unknown>((inner) => ({ '!': inner }), true);

/** A chain of anchors, each a list of `width` aliases of the one before. */
function aliasBomb(depth: number, width: number, first = '"x"'): string {
  const lines = [`    a0: &a0 [${Array.from({ length: width }, () => first).join(', ')}]`];
  for (let d = 1; d < depth; d++)
    lines.push(
      `    a${d}: &a${d} [${Array.from({ length: width }, () => `*a${d - 1}`).join(', ')}]`,
    );
  return `policies:\n  - name: bomb\n    severity: error\n    message: it holds\n    rule:\n${lines.join('\n')}\n`;
}

const refused: { what: string; settings: string; at: string; says: string }[] = [
  {
    what: 'a pattern that does not compile',
    settings: "policies:\n  - { use: name-pattern, pattern: '^[a-z' }\n",
    at: "'^[a-z'",
    says: 'the pattern is not a regular expression RE2 compiles: missing closing ]',
  },
  {
    what: 'a pattern with lookaround',
    settings: "policies:\n  - { use: name-pattern, pattern: '^(?!tmp_)[a-z_]+$' }\n",
    at: "'^(?!",
    says: 'the pattern uses lookaround ((?=, (?!, (?<=, (?<!), which RE2 (the linear-time engine patterns run on) does not support',
  },
  {
    what: 'a pattern with a backreference',
    settings: "policies:\n  - { use: name-pattern, pattern: '^(a)\\1$' }\n",
    at: "'^(a)",
    says: 'the pattern uses backreferences',
  },
  {
    what: 'a pattern too large',
    settings: "policies:\n  - { use: name-pattern, pattern: '^[a-z]{1000}$' }\n",
    at: "'^[a-z]{1000}",
    says: 'the pattern is too large: RE2 compiles it to',
  },
  {
    what: 'an unknown operation',
    settings: rule({ and: [{ '!!': [{ var: 'contract.owners' }] }, { isOwner: [1] }] }),
    at: '"isOwner"',
    says: 'unknown operation isOwner: a rule may use the operations of JSON Logic listed in docs/gates.md',
  },
  {
    what: 'log, which would print to the log',
    settings: rule({ log: '::error::pwned' }),
    at: '"log"',
    says: 'unknown operation log',
  },
  {
    what: 'a rule too deep',
    settings: rule(nested(40)),
    at: `${'{"!":'.repeat(8)}true`,
    says: 'the rule nests deeper than 32 levels here, the limit of a rule',
  },
  {
    what: 'a rule too large',
    settings: rule({ in: [{ var: 'contract.name' }, Array.from({ length: 1200 }, (_, i) => i)] }),
    at: '{"in"',
    says: 'the rule holds more than 1000 values, the limit of a rule',
  },
  {
    what: 'an alias bomb (many aliases)',
    settings: aliasBomb(12, 10),
    at: '*a0',
    says: 'the file uses 110 aliases, over the limit of 50',
  },
  {
    what: 'an alias bomb (few aliases, expanding to far too much)',
    settings: aliasBomb(24, 2, `[${Array.from({ length: 500 }, () => '"xxxxxxxx"').join(', ')}]`),
    at: '*a0',
    says: 'the aliases in this file expand to far too much data (a YAML alias bomb)',
  },
];

describe('a settings file that validate refuses, and plan before anything is sent', () => {
  it.each(refused)('$what: at its line and column', async (c) => {
    const { sandbox, cwd, env } = await catalog(c.settings);
    const started = performance.now();
    const validate = await cli(['validate', '--json'], { cwd });
    expect(validate.code, validate.out + validate.err).toBe(1);
    const problems = (
      JSON.parse(validate.out) as {
        problems: { file: string; line: number; column: number; message: string }[];
      }
    ).problems;
    const [line, column] = positionOf(c.settings, c.at);
    expect(problems).toEqual([expect.objectContaining({ file: '.contracts.yaml', line, column })]);
    expect(problems[0]!.message).toContain(c.says);
    const plan = await cli(['plan'], { cwd, env });
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.err).toContain(`.contracts.yaml:${line}:${column} `);
    expect(plan.err).toContain(c.says);
    expect(plan.err).toContain('Nothing was sent.');
    expect(plan.err).not.toMatch(/Internal error/);
    expect(sandbox.requests()).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

/** The built CLI in a process of its own, killed after `seconds` (a hang is a failure). */
async function bounded(args: string[], cwd: string, env: Record<string, string>, seconds = 30) {
  let timer: NodeJS.Timeout | undefined;
  const started = performance.now();
  const run: CliRun = await cliProcess(args, {
    cwd,
    env,
    onStart: (child) => (timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000)),
  });
  clearTimeout(timer);
  return { ...run, seconds: (performance.now() - started) / 1000 };
}

/** Ten `map`s, each over ten items: ten billion steps unbounded, a few hundred bytes of rule. */
const mapBomb = Array.from({ length: 10 }).reduce<unknown>(
  (inner) => ({ map: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], inner] }),
  { '==': [{ var: '' }, 1] },
);

describe('the linear-time engine', () => {
  it('is loaded only for a name-pattern (a run without one loads no re2js)', async () => {
    const loads = async (settings: string): Promise<boolean> => {
      const { cwd } = await catalog(settings);
      const run = await cliProcess(['validate'], { cwd, env: { NODE_DEBUG: 'module' } });
      expect(run.out).toContain('✓ 1 contract file is valid.');
      return /[\\/]re2js\.cjs\b/.test(run.err);
    };
    expect(await loads('policies:\n  - use: owner-required\n')).toBe(false);
    expect(await loads("policies:\n  - { use: name-pattern, pattern: '^[a-z]+$' }\n")).toBe(true);
  });
});

describe('what would run for minutes ends at its bound', () => {
  it('a catastrophic name-pattern runs in linear time: the breach is said at once', async () => {
    const { sandbox, cwd, env } = await catalog(
      "policies:\n  - { use: name-pattern, pattern: '^(a+)+$' }\n",
      `${'a'.repeat(60)}!`,
    );
    const validate = await bounded(['validate'], cwd, {});
    expect(validate.code, validate.out + validate.err).toBe(0);
    const plan = await bounded(['plan', '--format', 'github'], cwd, env);
    expect(plan.seconds).toBeLessThan(20);
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.out).toContain(
      "policy name-pattern (name): the contract's name must match ^(a+)+$",
    );
    expect(writesAmong(sandbox.requests())).toEqual([]);
  }, 60_000);

  it("a team's rule past its budget of steps: an error of the contract, nothing sent", async () => {
    const { sandbox, cwd, env } = await catalog(rule(mapBomb));
    const validate = await bounded(['validate'], cwd, {});
    expect(validate.code, validate.out + validate.err).toBe(0);
    const plan = await bounded(['plan', '--no-color'], cwd, env);
    expect(plan.seconds).toBeLessThan(20);
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.out).toContain(
      'policy bounded (fullyQualifiedName): cannot be checked on this contract, as it needs more than 100,000 steps to evaluate, the limit of one evaluation (docs/gates.md); make the rule simpler',
    );
    expect(writesAmong(sandbox.requests())).toEqual([]);
  }, 60_000);

  it("the catalog's data asset rule past its budget: an error of the contract, nothing sent", async () => {
    const { sandbox, cwd, env } = await catalog('failOn: never\n', 'people', {
      rules: [{ name: 'Hostile', rule: JSON.stringify(mapBomb), enabled: true }],
    });
    const plan = await bounded(['apply', '--auto-approve', '--no-color'], cwd, env);
    expect(plan.seconds).toBeLessThan(20);
    expect(plan.code, plan.out + plan.err).toBe(1);
    expect(plan.out).toContain(
      `this catalog's data asset rule "Hostile" cannot be weighed here: it needs more than 100,000 steps to evaluate, the limit of one evaluation (the bounds of a rule, docs/gates.md)`,
    );
    expect(plan.out).toContain(
      'the catalog weighs it on every change to a data contract, so whether it refuses this one is unknown: have an admin make the rule simpler, or turn the rule off for data contracts in Settings › Preferences › Data Asset Rules',
    );
    expect(writesAmong(sandbox.requests())).toEqual([]);
  }, 60_000);
});
