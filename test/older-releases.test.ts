// A catalog that reports an OpenMetadata release older than 1.10 fits neither profile (its data
// contracts store `status`, not `entityStatus`, and have no SLA, terms of use or security): under
// `auto`, plan, apply and import refuse before reading a contract; naming the spec profile goes
// on. The catalog is the sandbox behind a forwarder that answers the version route as such a
// release does, since no old release can run here; everything else reaches the sandbox.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors.js';
import { profileForVersion } from '../src/profile/profile.js';
import type { Sandbox } from '../src/sandbox/server.js';
import { cli } from './helpers/cli.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir, type TempDir } from './helpers/temp-dir.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';

const OLD_RELEASE = '1.9.4';

/** Serves `version` at /v1/system/version and forwards every other request to `target`. */
async function reportingVersion(target: string, version: string): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/system/version') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ version, revision: 'abc123', timestamp: 0 }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'if-match'])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      fetch(`${target}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
      }).then(
        async (answer) => {
          const forwarded: Record<string, string> = {};
          for (const name of ['content-type', 'etag']) {
            const value = answer.headers.get(name);
            if (value !== null) forwarded[name] = value;
          }
          response.writeHead(answer.status, forwarded);
          response.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

let sandbox: Sandbox;
let proxy: Server;
let work: TempDir;
let env: Record<string, string>;

beforeAll(async () => {
  const opened = await openSandbox({ seed: threeSeed() });
  sandbox = opened.sandbox;
  proxy = await reportingVersion(sandbox.url, OLD_RELEASE);
  const { port } = proxy.address() as AddressInfo;
  env = { CATALOG_URL: `http://127.0.0.1:${port}`, CATALOG_TOKEN: await opened.token() };
  work = await tempDir(threeFiles(false));
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
  await work.remove();
});

/** The contract routes the sandbox was asked for since the log was cleared. */
function contractRequests(): string[] {
  return sandbox
    .requests()
    .map((record) => `${record.method} ${record.path}`)
    .filter((line) => line.includes('/dataContracts'));
}

describe('a catalog reporting OpenMetadata older than 1.10', () => {
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
    sandbox.clearRequests();
    const before = JSON.stringify([...sandbox.store.contracts.values()]);
    const run = await cli(args, { cwd: work.dir, env });
    expect(run.code, run.out).toBe(1);
    expect(run.err).toContain(`the catalog reports OpenMetadata ${OLD_RELEASE}, older than 1.10`);
    expect(run.err).toContain('--catalog-profile spec');
    expect(run.err).not.toContain(env.CATALOG_TOKEN!);
    expect(contractRequests()).toEqual([]);
    expect(JSON.stringify([...sandbox.store.contracts.values()])).toBe(before);
  });

  it('plans and applies when the spec profile is named', async () => {
    const plan = await cli(['plan', '--catalog-profile', 'spec', '--detailed-exitcode'], {
      cwd: work.dir,
      env,
    });
    expect(plan.code, plan.err).toBe(2);
    expect(plan.out).toContain('Plan: 3 to change, 0 unchanged, 0 errors.');
    const apply = await cli(['apply', '--auto-approve'], {
      cwd: work.dir,
      env: { ...env, CATALOG_PROFILE: 'spec' },
    });
    expect(apply.code, apply.err).toBe(0);
    expect(sandbox.store.contracts.get('1c000000-0000-4000-8000-000000000001')).toMatchObject({
      description: 'new a',
    });
  });
});
