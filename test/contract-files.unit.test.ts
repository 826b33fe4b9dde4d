// Contract files: every invalid fixture is reported at its exact position, valid contracts
// survive a YAML round trip, and the schema compiles strictly and accepts the examples.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { crossFileProblems, loadContracts } from '../src/read/load.js';
import { contractSchema } from '../src/model/contract.js';
import {
  fastParseContract,
  parseContract,
  positionOf,
  withContract,
  type ContractFile,
} from '../src/contract/parse.js';
import { formatProblem, type Problem } from '../src/model/problem.js';
import { hasOddNode, MAX_NESTING, oddNodeProblems } from '../src/contract/value-checks.js';
import { createContractAjv } from '../src/contract/contract-ajv.mjs';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/capture-io.js';
import { tempDir } from './helpers/temp-dir.js';
import { arbitraryContract, yamlStylesArb } from './helpers/arbitraries.js';
import { expectSameAnswer } from './helpers/same-answer.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtureDir = path.join(root, 'test/fixtures/invalid');
const fixtures = readdirSync(fixtureDir)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

function mustParse(text: string, file = 'c.yaml'): ContractFile {
  const result = parseContract(text, file);
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  return result.value;
}

describe('invalid fixtures', () => {
  it('has at least 30 of them', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
  });

  it.each(fixtures)('%s is reported at the expected line and column', (name) => {
    const bytes = readFileSync(path.join(fixtureDir, name));
    const header = /^# expect (\d+):(\d+) (.+)$/m.exec(bytes.toString('latin1').split('\n')[0]!);
    expect(header, 'fixture needs an "# expect L:C message" first line').not.toBeNull();
    const [, line, column, fragment] = header!;
    const result = parseContract(bytes, name);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.problems.find((p) => p.message.includes(fragment!));
    expect(match, `problems were:\n${result.problems.map(formatProblem).join('\n')}`).toBeDefined();
    expect([match!.line, match!.column]).toEqual([Number(line), Number(column)]);
  });
});

describe('parseContract', () => {
  const minimal =
    'name: a\nfullyQualifiedName: a.b\nentity: { type: table, fullyQualifiedName: db.a }\n';

  it('reports every problem of a file, not just the first', () => {
    const result = parseContract(
      `${minimal}entityStatus: active\nsla: { availability: 101 }\nfoo: 1\n`,
      'x.yaml',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.line)).toEqual([4, 5, 6]);
  });

  it('rejects files over 1 MiB without parsing them', () => {
    const big = new TextEncoder().encode(`${minimal}description: "${'x'.repeat(1024 * 1024)}"\n`);
    const result = parseContract(big, 'big.yaml');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0]!.message).toContain('over the limit of 1048576 bytes');
  });

  it('rejects a 2 KB alias bomb with a problem, not a crash', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array.from({ length: 9 }, () => `*${prev}`).join(',')}]`);
    }
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeLessThan(2048);
    const result = parseContract(text, 'bomb.yaml');
    expect(result.ok).toBe(false);
  });

  it('does not pollute prototypes', () => {
    parseContract(`${minimal}extension: { "__proto__": { "polluted": true } }\n`, 'p.yaml');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps positions of top-level keys, and finds nested ones, on both paths', () => {
    const text = `${minimal}schema:\n  - { name: id, dataType: INT }\n  - { name: b, dataType: INT }\n`;
    for (const options of [{}, { fastPath: false }]) {
      const result = parseContract(text, 'c.yaml', options);
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect(positionOf(result.value, '/schema')).toEqual({ line: 4, column: 1 });
        expect(positionOf(result.value, '/schema/1/name')).toEqual({ line: 6, column: 13 });
      }
    }
  });

  it('accepts a byte order mark and CRLF line ends', () => {
    const file = mustParse(`\uFEFF${minimal.replace(/\n/g, '\r\n')}`);
    expect(file.contract.name).toBe('a');
  });
});

describe('loaded files', () => {
  const text = `\uFEFFname: a\r\nfullyQualifiedName: a.c\r\nentity: { type: table, fullyQualifiedName: db.a }\r\nschema:\r\n  - { name: id, dataType: INT }\r\n  - { name: created_at_timestamp, dataType: TIMESTAMP }\r\n`;
  const changed = 'contracts/a.yaml changed on disk after it was validated; run the command again';

  /** `text` loaded as contracts/a.yaml; `edit` changes the file on disk. */
  async function withLoaded(
    check: (file: ContractFile, edit: () => Promise<void>) => Promise<void> | void,
    loadedText = text,
  ): Promise<void> {
    const dir = await tempDir({ 'contracts/a.yaml': loadedText });
    try {
      const loaded = await loadContracts(['contracts'], dir.dir);
      expect(loaded.problems).toEqual([]);
      await check(loaded.files[0]!, () =>
        writeFile(path.join(dir.dir, 'contracts/a.yaml'), loadedText.replace('INT', 'BIGINT')),
      );
    } finally {
      await dir.remove();
    }
  }

  it('read their text again to locate a value, at the same positions as the parsed text', () =>
    withLoaded((file) => {
      const parsed = mustParse(text, 'contracts/a.yaml');
      expect(file.text).toBe(parsed.text);
      expect(file.contract).toEqual(parsed.contract);
      for (const pointer of ['/schema/1/name', '/schema/1/dataType', '/entity'])
        expect(positionOf(file, pointer)).toEqual(positionOf(parsed, pointer));
    }));

  it('keep only what names the contract, read the contract again at each use, and refuse it if the file changed', () =>
    withLoaded(async (file, edit) => {
      expect(file.identity).toEqual({
        fullyQualifiedName: 'a.c',
        entity: { type: 'table', fullyQualifiedName: 'db.a' },
      });
      const first = file.contract;
      expect(file.contract).not.toBe(first);
      expect(file.contract).toEqual(first);
      expect(first).toEqual(mustParse(text, 'contracts/a.yaml').contract);
      const held = withContract(file);
      expect(held.contract).toBe(held.contract);
      expect(held.text).toBe(file.text);
      await edit();
      expect(() => file.contract).toThrow(changed);
      // What was read before the change stays as it was read.
      expect(held.contract).toEqual(first);
    }));

  it('read a file the positional parser took (an alias) again by that parser, to the same contract', () => {
    const aliased = `${text}description: &d Shared words.\nsla: { refreshFrequency: PT1H }\ntermsOfUse: *d\n`;
    return withLoaded((file) => {
      expect(file.contract).toEqual(mustParse(aliased, 'contracts/a.yaml').contract);
      expect(file.contract.termsOfUse).toBe('Shared words.');
    }, aliased);
  });

  it('say which of the profiles asked about cannot store each valid file', async () => {
    // OpenMetadata has no status Active; the spec has no Approved.
    const withStatus = (status: string, name: string): string =>
      `${text}entityStatus: ${status}\n`.replace('a.c', `${name}.c`).replace('db.a', `db.${name}`);
    const dir = await tempDir({
      'contracts/a.yaml': text,
      'contracts/b.yaml': 'name: b\nfullyQualifiedName: b.c\n',
      'contracts/c.yaml': withStatus('Active', 'c'),
      'contracts/d.yaml': withStatus('Approved', 'd'),
    });
    try {
      const loaded = await loadContracts(['contracts'], dir.dir, {
        unstorableIn: ['spec', 'openmetadata'],
      });
      expect(loaded.problems.map((problem) => problem.file)).toContain('contracts/b.yaml');
      expect(loaded.files.map((file) => file.file)).toEqual([
        'contracts/a.yaml',
        'contracts/c.yaml',
        'contracts/d.yaml',
      ]);
      expect(loaded.unstorable).toEqual(
        new Map([
          ['spec', new Set(['contracts/d.yaml'])],
          ['openmetadata', new Set(['contracts/c.yaml'])],
        ]),
      );
    } finally {
      await dir.remove();
    }
  });

  it('are read whole up to 1 MiB; one byte more is a problem that gives the size, one after another', async () => {
    const limit = 1024 * 1024;
    const head = `${text}description: "`;
    // The description's length, for a file of `size` bytes: the head, then `"` and a newline.
    const fill = (size: number): number => size - Buffer.byteLength(head) - 2;
    const padded = (size: number): string => `${head}${'x'.repeat(fill(size))}"\n`;
    const third = text.replace('a.c', 'c.c').replace('db.a', 'db.c');
    const dir = await tempDir({
      'contracts/a.yaml': padded(limit),
      'contracts/b.yaml': padded(limit + 1),
      'contracts/c.yaml': third,
    });
    try {
      const loaded = await loadContracts(['contracts'], dir.dir);
      expect(loaded.files.map((file) => file.file)).toEqual([
        'contracts/a.yaml',
        'contracts/c.yaml',
      ]);
      expect(loaded.files[0]!.contract.description).toHaveLength(fill(limit));
      expect(loaded.files[1]!.contract).toEqual(mustParse(third, 'c.yaml').contract);
      expect(loaded.problems.map((problem) => [problem.file, problem.message])).toEqual([
        [
          'contracts/b.yaml',
          'the file is 1048577 bytes, over the limit of 1048576 bytes (1 MiB); a contract file should be a few kilobytes',
        ],
      ]);
    } finally {
      await dir.remove();
    }
  });

  it('refuse to locate anything in a file that changed after it was validated', () =>
    withLoaded(async (file, edit) => {
      await edit();
      expect(() => positionOf(file, '/schema/0/dataType')).toThrow(changed);
    }));
});

describe('cross-file checks', () => {
  const contract = (fqn: string, entity: string): string =>
    `name: x\nfullyQualifiedName: ${fqn}\nentity: { type: table, fullyQualifiedName: ${entity} }\n`;

  it('names both files when two files share a fullyQualifiedName', () => {
    const problems = crossFileProblems([
      mustParse(contract('a.c', 'db.a'), 'one.yaml'),
      mustParse(contract('a.c', 'db.b'), 'two.yaml'),
    ]);
    expect(problems.map(formatProblem)).toEqual([
      "two.yaml:2:1 fullyQualifiedName 'a.c' is also used by one.yaml:2:1; keep each contract in exactly one file",
    ]);
  });

  it('names both files when two contracts bind one asset', () => {
    const problems = crossFileProblems([
      mustParse(contract('a.c', 'db.a'), 'one.yaml'),
      mustParse(contract('b.c', 'db.a'), 'two.yaml'),
    ]);
    expect(problems).toHaveLength(1);
    expect(formatProblem(problems[0]!)).toBe(
      "two.yaml:3:1 entity table 'db.a' already has a contract in one.yaml:3:1; an asset has at most one contract",
    );
  });
});

describe('schema', () => {
  it('compiles with ajv in strict mode and accepts every example contract', async () => {
    const ajv = createContractAjv();
    expect(ajv.validateSchema(contractSchema), ajv.errorsText()).toBe(true);
    const validate = ajv.compile(contractSchema);
    const loaded = await loadContracts(['contracts'], root);
    expect(loaded.fileCount).toBeGreaterThanOrEqual(4);
    expect(loaded.problems).toEqual([]);
    for (const file of loaded.files) expect(validate(file.contract), file.file).toBe(true);
    for (const name of readdirSync(path.join(root, 'contracts'))) {
      expect(readFileSync(path.join(root, 'contracts', name), 'utf8')).toMatch(
        /^# yaml-language-server: \$schema=\.\.\/schemas\/data-contract\.schema\.json\n/,
      );
    }
  });

  it('describes every property so editors can show help', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, { description?: unknown }> })
        .properties;
      for (const [name, child] of Object.entries(properties ?? {})) {
        if (typeof child.description !== 'string') missing.push(`${where}.${name}`);
      }
      for (const [name, child] of Object.entries(node)) walk(child, `${where}.${name}`);
    };
    walk(contractSchema, '$');
    expect(missing).toEqual([]);
  });
});

describe('round trip', () => {
  it('any valid contract survives stringify → load unchanged', () => {
    fc.assert(
      fc.property(arbitraryContract(), (contract) => {
        const file = mustParse(stringify(contract));
        expect(file.contract).toEqual(contract);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fast path', () => {
  it('agrees with the positional parser on every document it accepts: value, validity and positions', () => {
    let accepted = 0;
    fc.assert(
      fc.property(arbitraryContract(), yamlStylesArb, (contract, options) => {
        const text = stringify(contract, options as unknown as Parameters<typeof stringify>[1]);
        expectSameAnswer(
          parseContract(text, 'f.yaml'),
          parseContract(text, 'f.yaml', { fastPath: false }),
        );
        if (fastParseContract(text, 'f.yaml') !== undefined) accepted += 1;
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  const minimal =
    'name: a\nfullyQualifiedName: a.b\nentity: { type: table, fullyQualifiedName: db.a }\n';
  it.each([
    ['hex', 'sla: { availability: 0x1F }'],
    ['octal', 'sla: { availability: 0o17 }'],
    ['underscores', 'sla: { availability: 9_9 }'],
    ['leading zero', 'sla: { availability: 010 }'],
    ['exponent', 'sla: { availability: 1e1 }'],
    ['exponent in extension', 'extension: { a: 1e3, b: -.5e1, c: +.5, d: 1E3 }'],
    ['overflowing exponent', 'extension: { big: 1e400 }'],
    ['infinity', 'sla: { availability: .inf }'],
    ['yes is a string', 'description: yes'],
    ['tilde is null', 'description: ~'],
    ['anchors', 'sla: &s { availability: 99 }\nextension: { copy: *s }'],
    ['tags', 'description: !!str 12'],
    ['merge keys', 'extension: { <<: { a: 1 } }'],
    ['complex keys', '? description\n: text'],
    ['literal block', 'termsOfUse: |-\n  line one\n  line two'],
    ['folded block', 'termsOfUse: >\n  folded\n  text'],
    ['quoted keys', '"description": "quoted"'],
    ['comments', 'description: text # a comment'],
    ['document end', 'description: x\n...'],
    ['indented complex key', 'extension:\n  ? a\n  : 1'],
    ['anchor and alias in a flow list', 'extension: { list: [&a 1, *a] }'],
    ['negative zeros', 'extension: { a: -0, b: -0.0, c: -.0, d: [-0] }'],
    ['special floats and hex in other cases', 'extension: { a: .NaN, b: -.Inf, c: 0X1F, d: .INF }'],
  ])('%s: both paths give the same answer', (_name, extra) => {
    const text = `${minimal}${extra}\n`;
    expectSameAnswer(
      parseContract(text, 'e.yaml'),
      parseContract(text, 'e.yaml', { fastPath: false }),
    );
  });
});

describe('odd values', () => {
  /** A value nested `depth` levels down, in mappings and lists by turns. */
  const nested = (depth: number, leaf: unknown): unknown =>
    depth === 0
      ? leaf
      : depth % 2 === 0
        ? { level: nested(depth - 1, leaf) }
        : [nested(depth - 1, leaf)];
  const odd = fc.oneof(
    fc.anything({
      withNullPrototype: true,
      withObjectString: true,
      key: fc.constantFrom('a', 'b', '__proto__', 'constructor', 'prototype', 'schema'),
    }),
    fc.constantFrom(Number.POSITIVE_INFINITY, Number.NaN, -0, 1e308),
    fc
      .tuple(fc.integer({ min: MAX_NESTING - 3, max: MAX_NESTING + 3 }), fc.anything())
      .map(([depth, leaf]) => nested(depth, leaf)),
  );

  it('the yes-or-no check agrees with the problems the positional path reports', () => {
    const at = (): Problem => ({ file: 'f', line: 1, column: 1, path: '', message: '' });
    let found = 0;
    fc.assert(
      fc.property(odd, (value) => {
        const problems = oddNodeProblems(value, at).length;
        expect(hasOddNode(value)).toBe(problems > 0);
        if (problems > 0) found += 1;
      }),
      { numRuns: 2000 },
    );
    expect(found).toBeGreaterThan(100);
  });
});

describe('contracts validate', () => {
  it('exits 0 and says the example contracts are valid', async () => {
    const io = captureIo(root);
    expect(await runCli(['validate'], io)).toBe(0);
    expect(io.out()).toMatch(/✓ \d+ contract files are valid\./);
  });

  it('exits 1 and starts every problem line with file:line:col', async () => {
    const dir = await tempDir({
      'c/bad.yaml': 'name: a\nfullyQualifiedName: 3\nentity: {type: table}\nx: 1\n',
      'c/ok.yml':
        'name: b\nfullyQualifiedName: b.c\nentity: {type: table, fullyQualifiedName: t}\n',
    });
    try {
      const io = captureIo(dir.dir);
      expect(await runCli(['validate', 'c'], io)).toBe(1);
      const lines = io.out().trim().split('\n');
      const problemLines = lines.slice(0, -1);
      expect(problemLines.length).toBe(3);
      for (const line of problemLines) expect(line).toMatch(/^c\/bad\.yaml:\d+:\d+ /);
      expect(lines.at(-1)).toBe('✗ 3 problems in 1 of 2 files.');
    } finally {
      await dir.remove();
    }
  });

  it('writes GitHub workflow commands with --format github', async () => {
    const dir = await tempDir({
      'a,b.yaml':
        'name: a\nfullyQualifiedName: a\nentity: {type: table, fullyQualifiedName: t}\nentityStatus: "x:\\ny"\n',
    });
    try {
      const io = captureIo(dir.dir);
      expect(await runCli(['validate', 'a,b.yaml', '--format', 'github'], io)).toBe(1);
      expect(io.out()).toBe(
        "::error file=a%2Cb.yaml,line=4,col=15,title=invalid contract::entityStatus must be one of Draft, Active, Deprecated, In Review, Approved, Archived, Rejected or Unprocessed, got 'x:%0Ay'\n",
      );
    } finally {
      await dir.remove();
    }
  });

  it('with --catalog-profile (or CATALOG_PROFILE) also reports what that catalog cannot store, at its line, without a catalog', async () => {
    const head = (name: string) =>
      `name: ${name}\nfullyQualifiedName: t${name}.c\nentity: {type: table, fullyQualifiedName: t${name}}\n`;
    const dir = await tempDir({
      'c/active.yaml': `${head('a')}entityStatus: Active\n`,
      'c/reviewers.yaml': `${head('b')}reviewers:\n  - {type: team, name: x}\n  - {type: team, name: y}\n`,
      'c/bad.yaml': `${head('c')}x: 1\n`,
    });
    try {
      // Without a profile, the file format only: both are valid contract files.
      const plain = captureIo(dir.dir);
      expect(await runCli(['validate', 'c'], plain)).toBe(1);
      expect(plain.out()).toMatch(/^c\/bad\.yaml:4:1 /);
      expect(plain.out()).toContain('✗ 1 problem in 1 of 3 files.');
      const io = captureIo(dir.dir);
      expect(await runCli(['validate', 'c', '--catalog-profile', 'openmetadata'], io)).toBe(1);
      expect(io.out()).toContain(
        'c/active.yaml:4:15 entityStatus Active is not a status OpenMetadata stores',
      );
      expect(io.out()).toContain(
        'c/reviewers.yaml:6:5 OpenMetadata takes as reviewers one team alone, or users, and these are 2 teams (team x, team y)',
      );
      expect(io.out()).toContain('✗ 3 problems in 3 of 3 files.');
      const json = captureIo(dir.dir, { CATALOG_PROFILE: 'openmetadata' });
      expect(await runCli(['validate', '--json', 'c/active.yaml', 'c/reviewers.yaml'], json)).toBe(
        1,
      );
      expect(JSON.parse(json.out())).toMatchObject({ valid: false, fileCount: 2, validCount: 0 });
      // The spec's catalog stores both.
      const spec = captureIo(dir.dir, { CATALOG_PROFILE: 'openmetadata' });
      expect(
        await runCli(
          ['validate', '--catalog-profile', 'spec', 'c/active.yaml', 'c/reviewers.yaml'],
          spec,
        ),
      ).toBe(0);
    } finally {
      await dir.remove();
    }
  });

  it('prints a JSON report with --json', async () => {
    const io = captureIo(root);
    expect(
      await runCli(['validate', '--json', 'test/fixtures/invalid/01-status-lowercase.yaml'], io),
    ).toBe(1);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ valid: false, fileCount: 1, validCount: 0 });
    expect(report.problems[0]).toMatchObject({ line: 7, column: 15, path: 'entityStatus' });
  });

  it('follows symbolic links to files and folders, once each, and reports a broken one', async () => {
    const contract =
      'name: a\nfullyQualifiedName: a.c\nentity: {type: table, fullyQualifiedName: t}\n';
    const dir = await tempDir({ 'elsewhere/a.yaml': contract, 'c/readme.txt': 'x' });
    try {
      await symlink(path.join(dir.dir, 'elsewhere/a.yaml'), path.join(dir.dir, 'c/linked.yaml'));
      await symlink(path.join(dir.dir, 'c'), path.join(dir.dir, 'c/loop'));
      const io = captureIo(dir.dir);
      expect(await runCli(['validate', 'c'], io)).toBe(0);
      expect(io.out()).toBe('✓ 1 contract file is valid.\n');
      await symlink(path.join(dir.dir, 'gone.yaml'), path.join(dir.dir, 'c/broken.yaml'));
      const broken = captureIo(dir.dir);
      expect(await runCli(['validate', 'c'], broken)).toBe(1);
      expect(broken.err()).toContain(
        'c/broken.yaml is a symbolic link to a file that does not exist',
      );
    } finally {
      await dir.remove();
    }
  });

  it('escapes control and bidi characters of file names and values: no line becomes a workflow command', async () => {
    const dir = await tempDir({
      'c/x\n::error::pwned\u202e.yaml':
        'name: a\nfullyQualifiedName: a.c\nentity: {type: table, fullyQualifiedName: t}\nentityStatus: "\\n::warning::x\\u202e"\n',
    });
    try {
      const io = captureIo(dir.dir);
      expect(await runCli(['validate', 'c'], io)).toBe(1);
      const out = io.out();
      expect(out).toContain('c/x\\n::error::pwned\\u202e.yaml:4:15 ');
      expect(out).not.toContain('\u202e');
      for (const line of out.split('\n')) expect(line).not.toMatch(/^::/);
    } finally {
      await dir.remove();
    }
  });

  it('reports a missing path as an error', async () => {
    const io = captureIo(root);
    expect(await runCli(['validate', 'no/such/dir'], io)).toBe(1);
    expect(io.err()).toBe('Error: no/such/dir: no such file or directory\n');
  });
});
