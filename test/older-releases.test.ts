// Catalogs that lack what the profiles expect, as releases before the ones the tool is built for
// may: the sandbox behind a forwarder that answers a few requests as such a release does, since no
// such release can run here; everything else reaches the sandbox.
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/model/errors.js';
import { profileForVersion } from '../src/profile/profile.js';
import { newerThanKnown } from '../src/profile/releases.js';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { forwarder, type Forwarder } from './helpers/forwarder.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A sandbox, a forwarder in front of it answering as `answer` says, and a directory of `files`. */
async function catalogBehind(
  options: Parameters<typeof openSandbox>[0],
  answer: Parameters<typeof forwarder>[1],
  files: Record<string, string> = {},
): Promise<{ sandbox: Sandbox; front: Forwarder; cwd: string; env: Record<string, string> }> {
  const opened = await openSandbox(options);
  cleanups.push(() => opened.sandbox.close());
  const front = await forwarder(opened.sandbox.root, answer);
  cleanups.push(() => front.close());
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  // The catalog's base keeps the sandbox's path (/api under the openmetadata profile).
  const base = `${front.url}${new URL(opened.sandbox.url).pathname.replace(/\/$/, '')}`;
  return {
    sandbox: opened.sandbox,
    front,
    cwd: dir.dir,
    env: { CATALOG_URL: base, CATALOG_TOKEN: await opened.token() },
  };
}

const OLD_RELEASE = '1.9.4';

describe('a catalog reporting OpenMetadata older than 1.10', () => {
  const asOldRelease = (_method: string, url: string) =>
    url === '/v1/system/version'
      ? { status: 200, body: { version: OLD_RELEASE, revision: 'abc123', timestamp: 0 } }
      : undefined;
  /** The contract routes the sandbox was asked for. */
  const contractRequests = (sandbox: Sandbox): string[] =>
    sandbox
      .requests()
      .map((record) => `${record.method} ${record.path}`)
      .filter((line) => line.includes('/dataContracts'));

  it('is refused by auto with both ways out, and only 1.10 or later is OpenMetadata', () => {
    expect(() => profileForVersion(OLD_RELEASE)).toThrow(ConfigError);
    expect(() => profileForVersion('1.8.0')).toThrow(/older than 1\.10/);
    expect(() => profileForVersion('v1.9.12')).toThrow(/--catalog-profile spec/);
    expect(profileForVersion('1.10.0-SNAPSHOT')).toBe('openmetadata');
    expect(profileForVersion('1.13.0')).toBe('openmetadata');
    expect(profileForVersion('2.0.0')).toBe('openmetadata');
    // Not OpenMetadata's numbering: a catalog of the specification with a version of its own.
    expect(profileForVersion('unknown')).toBe('spec');
  });

  it.each([
    ['plan', ['plan']],
    ['apply', ['apply', '--auto-approve']],
    ['import', ['import', '--fqn', 'db.s.a.dataContract_a', '--out', 'imported']],
  ])('%s refuses before reading any contract, with nothing changed', async (_name, args) => {
    const { sandbox, cwd, env } = await catalogBehind(
      { seed: threeSeed() },
      asOldRelease,
      threeFiles(false),
    );
    const before = JSON.stringify([...sandbox.store.contracts.values()]);
    const run = await cli(args, { cwd, env });
    expect(run.code, run.out).toBe(1);
    expect(run.err).toContain(`the catalog reports OpenMetadata ${OLD_RELEASE}, older than 1.10`);
    expect(run.err).toContain('--catalog-profile spec');
    expect(run.err).not.toContain(env.CATALOG_TOKEN!);
    expect(contractRequests(sandbox)).toEqual([]);
    expect(JSON.stringify([...sandbox.store.contracts.values()])).toBe(before);
  });

  it('plans and applies when the spec profile is named', async () => {
    const { sandbox, cwd, env } = await catalogBehind(
      { seed: threeSeed() },
      asOldRelease,
      threeFiles(false),
    );
    const plan = await cli(['plan', '--catalog-profile', 'spec', '--detailed-exitcode'], {
      cwd,
      env,
    });
    expect(plan.code, plan.err).toBe(2);
    expect(plan.out).toContain('Plan: 3 to change, 0 unchanged, 0 errors.');
    const apply = await cli(['apply', '--auto-approve'], {
      cwd,
      env: { ...env, CATALOG_PROFILE: 'spec' },
    });
    expect(apply.code, apply.err).toBe(0);
    expect(sandbox.store.contracts.get('1c000000-0000-4000-8000-000000000001')).toMatchObject({
      description: 'new a',
    });
  });
});

describe('an OpenMetadata whose data contracts have no custom properties', () => {
  /** Refuses `extension` among a contract's fields, as OpenMetadata does for an entity without it. */
  const withoutExtension = (method: string, url: string) => {
    const query = new URL(url, 'http://catalog').searchParams;
    return method === 'GET' &&
      url.startsWith('/api/v1/dataContracts/') &&
      (query.get('fields') ?? '').split(',').includes('extension')
      ? { status: 400, body: { code: 400, message: 'Invalid field name extension' } }
      : undefined;
  };

  it('reads contracts without extension once refused, and plans, applies and converges', async () => {
    const { front, cwd, env } = await catalogBehind({ profile: 'openmetadata' }, withoutExtension);
    await cp(
      path.join(root, 'examples', 'openmetadata', 'contracts'),
      path.join(cwd, 'contracts'),
      {
        recursive: true,
      },
    );
    const plan = await cli(['plan', '--json', '--detailed-exitcode'], { cwd, env });
    expect(plan.code, plan.err).toBe(2);
    expect(JSON.parse(plan.out).summary).toEqual({
      create: 1,
      update: 3,
      delete: 0,
      noop: 2,
      error: 0,
      missing: 0,
    });
    const reads = front.requests.filter((line) => line.startsWith('GET /api/v1/dataContracts/'));
    const refused = reads.filter((line) => /fields=[^&]*extension/.test(line));
    expect(refused.length).toBeGreaterThan(0);
    // Once refused, no read asks for it again.
    expect(reads.at(-1)).not.toMatch(/extension/);
    const apply = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    const again = await cli(['plan', '--detailed-exitcode'], { cwd, env });
    expect(again.code, again.out).toBe(0);
  });

  it('still reports any other 400 on a read as that contract’s error', async () => {
    const { cwd, env } = await catalogBehind(
      { seed: threeSeed() },
      (method, url) =>
        method === 'GET' && url.startsWith('/v1/dataContracts/name/db.s.b')
          ? { status: 400, body: { code: 400, message: 'Invalid field name owners' } }
          : undefined,
      threeFiles(false),
    );
    const plan = await cli(['plan', '--json'], { cwd, env });
    expect(plan.code).toBe(1);
    const changes = JSON.parse(plan.out).changes as { action: string; error: string | null }[];
    expect(changes.map((change) => change.action)).toEqual(['update', 'error', 'update']);
    expect(changes[1]!.error).toContain('Invalid field name owners');
  });
});

describe('a catalog reporting a release newer than the tool knows', () => {
  const NEWER = '2.1.0-rc2';
  const asNewerRelease = (_method: string, url: string) =>
    url === '/api/v1/system/version'
      ? { status: 200, body: { version: NEWER, revision: 'abc123', timestamp: 0 } }
      : undefined;

  it('is planned as the newest known release behaves, said once, and applies and converges', async () => {
    const { cwd, env } = await catalogBehind({ profile: 'openmetadata' }, asNewerRelease);
    await cp(
      path.join(root, 'examples', 'openmetadata', 'contracts'),
      path.join(cwd, 'contracts'),
      {
        recursive: true,
      },
    );
    const note = `OpenMetadata ${NEWER} is newer than the releases this tool knows (1.10.0 to 1.13.7 and 2.0.0 to 2.0.9): it is planned as 2.0.9 behaves`;
    const plan = await cli(['plan', '--no-color'], { cwd, env });
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out.split(note)).toHaveLength(2);
    const json = JSON.parse((await cli(['plan', '--json'], { cwd, env })).out);
    expect(json.notes).toEqual([expect.stringContaining(note)]);
    const markdown = await cli(['plan', '--format', 'markdown'], { cwd, env });
    expect(markdown.out).toContain(`ℹ️ Note: ${note}`);
    const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    const again = await cli(['plan', '--detailed-exitcode', '--no-color'], { cwd, env });
    expect(again.code, again.out).toBe(0);
  });

  it('knows which releases are newer', () => {
    for (const newer of ['2.0.10', '2.1.0-rc2', '1.13.8', '1.14.0', '3.0.0'])
      expect(newerThanKnown(newer), newer).toBe(true);
    for (const known of ['1.10.0', '1.12.6', '1.13.7', '2.0.0', '2.0.9', 'unknown', null])
      expect(newerThanKnown(known), String(known)).toBe(false);
  });
});
