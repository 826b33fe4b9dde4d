// SARIF 2.1.0 from validate and plan: the log validates against the SARIF schema (the test's copy),
// each result points at the right line, rule ids are stable, and a result's fingerprint stays the
// same when lines are added above it (a finding keeps its identity across pushes).
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { sandboxWithFolder } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; name: string }[] } };
    results: {
      ruleId: string;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string };
          region: { startLine: number; startColumn: number };
        };
      }[];
      partialFingerprints: Record<string, string>;
    }[];
  }[];
}

async function sarifValidator() {
  const schema = JSON.parse(
    await readFile(
      path.join(import.meta.dirname, 'fixtures', 'sarif-2.1.0', 'sarif-schema-2.1.0.json'),
      'utf8',
    ),
  ) as object;
  // The schema is draft-04, as SARIF 2.1.0 publishes it.
  // A CommonJS default export; its languageCode pattern is not valid in unicode mode.
  const Ajv04 = (
    AjvDraft04 as unknown as {
      default: new (options: object) => { compile(schema: object): ValidateFunction };
    }
  ).default;
  return new Ajv04({
    allErrors: true,
    strict: false,
    validateFormats: false,
    unicodeRegExp: false,
  }).compile(schema);
}

const lineOf = (text: string, start: RegExp): number =>
  text.split('\n').findIndex((line) => start.test(line)) + 1;

describe('SARIF', () => {
  it('plan --format sarif: a log the SARIF 2.1.0 schema takes, each result at its line, fingerprints that survive lines added above', async () => {
    const { cwd, env } = await sandboxWithFolder(cleanups);
    await cp(path.join(root, 'contracts'), path.join(cwd, 'contracts'), { recursive: true });
    const run = await cli(['plan', '--format', 'sarif'], { cwd: cwd, env });
    expect(run.code, run.err).toBe(0);
    const log = JSON.parse(run.out) as SarifLog;
    const validate = await sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const [sarifRun] = log.runs;
    expect(sarifRun!.tool.driver.name).toBe('contracts-gitops');
    const breaking = sarifRun!.results.find((r) => r.ruleId === 'CG102')!;
    expect(breaking.message.text).toBe('breaking: column phone removed');
    expect(breaking.level).toBe('warning');
    const customers = await readFile(path.join(cwd, 'contracts', 'customers.yaml'), 'utf8');
    const place = breaking.locations[0]!.physicalLocation;
    expect(place.artifactLocation.uri).toBe('contracts/customers.yaml');
    // A removed column is said at the file's schema key.
    expect(place.region.startLine).toBe(lineOf(customers, /^schema:/));
    expect(sarifRun!.tool.driver.rules.find((r) => r.id === 'CG102')!.name).toBe('breaking-change');
    // Lines added above: the same finding, the same fingerprint, a line further down.
    await writeFile(
      path.join(cwd, 'contracts', 'customers.yaml'),
      `# reviewed by the CRM team\n# see DATA-123\n${customers}`,
    );
    const again = JSON.parse(
      (await cli(['plan', '--format', 'sarif'], { cwd: cwd, env })).out,
    ) as SarifLog;
    const moved = again.runs[0]!.results.find((r) => r.ruleId === 'CG102')!;
    expect(moved.partialFingerprints).toEqual(breaking.partialFingerprints);
    expect(moved.locations[0]!.physicalLocation.region.startLine).toBe(place.region.startLine + 2);
  });

  it('plan --format sarif that cannot reach its catalog: still a SARIF log, its run said to have failed and why', async () => {
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await cp(path.join(root, 'contracts'), path.join(dir.dir, 'contracts'), { recursive: true });
    const run = await cli(['plan', '--format', 'sarif'], {
      cwd: dir.dir,
      env: { CATALOG_URL: 'http://127.0.0.1:1', CATALOG_TOKEN: 'x' },
    });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.out) as SarifLog & {
      runs: {
        invocations: {
          executionSuccessful: boolean;
          toolExecutionNotifications: { message: { text: string } }[];
        }[];
      }[];
    };
    const validate = await sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const [invocation] = log.runs[0]!.invocations;
    expect(invocation!.executionSuccessful).toBe(false);
    expect(invocation!.toolExecutionNotifications[0]!.message.text).toContain(
      'cannot reach the catalog at http://127.0.0.1:1',
    );
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('validate --format sarif: each problem at its line and column, rule CG001, and an empty log for valid files', async () => {
    const dir = await tempDir({
      'contracts/bad.yaml':
        'name: x\nfullyQualifiedName: y\nentity: { type: table, fullyQualifiedName: z }\nentityStatus: Live\n',
    });
    cleanups.push(() => dir.remove());
    const run = await cli(['validate', '--format', 'sarif'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.out) as SarifLog;
    const validate = await sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const [result] = log.runs[0]!.results;
    expect(result!.ruleId).toBe('CG001');
    expect(result!.level).toBe('error');
    expect(result!.locations[0]!.physicalLocation.region).toEqual({
      startLine: 4,
      startColumn: 15,
    });
    // Files are read from inside the working folder only: the examples, copied in.
    await cp(path.join(root, 'contracts'), path.join(dir.dir, 'good'), { recursive: true });
    const good = await cli(['validate', '--format', 'sarif', 'good'], { cwd: dir.dir });
    expect(good.code).toBe(0);
    expect((JSON.parse(good.out) as SarifLog).runs[0]!.results).toEqual([]);
  });

  it('a file whose name has a space, `#`, `%` or a character outside ASCII: its uri is a relative URI reference, percent-encoded segment by segment', async () => {
    const bad =
      'name: x\nfullyQualifiedName: y\nentity: { type: table, fullyQualifiedName: z }\nentityStatus: Live\n';
    const dir = await tempDir({ 'con tracts/a#b%.yaml': bad, 'con tracts/ü?.yaml': bad });
    cleanups.push(() => dir.remove());
    // The built CLI, as CI runs it.
    const run = await cliProcess(['validate', '--format', 'sarif', 'con tracts'], { cwd: dir.dir });
    expect(run.code, run.err).toBe(1);
    const log = JSON.parse(run.out) as SarifLog;
    const validate = await sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const uris = log.runs[0]!.results.map(
      (result) => result.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris.sort()).toEqual(['con%20tracts/%C3%BC%3F.yaml', 'con%20tracts/a%23b%25.yaml']);
    // Read back as a URI against the checkout, each names its file.
    for (const uri of uris)
      expect(decodeURIComponent(new URL(uri, 'file:///checkout/').pathname)).toMatch(
        /^\/checkout\/con tracts\/(a#b%|ü\?)\.yaml$/,
      );
  });
});
