// The catalog token never shows: not in anything the CLI writes (stdout, stderr, plan files,
// --debug output), not in errors from a catalog that echoes the request, and it is never sent to
// another origin on a redirect. (The Action's summary, comment, outputs and plan file are checked
// in action.test.ts.)
import { cp, readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mintToken } from '@contracts-gitops/sandbox';
import { cli, type CliRun } from './helpers/cli.js';
import { openSandbox, SECRET } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function workspace(): Promise<string> {
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  await cp(path.join(root, 'contracts'), path.join(dir.dir, 'contracts'), { recursive: true });
  return dir.dir;
}

async function server(
  handler: (
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
  ) => { status: number; headers?: Record<string, string>; body: string },
): Promise<{ url: string; requests: { url: string; authorization: string | undefined }[] }> {
  const requests: { url: string; authorization: string | undefined }[] = [];
  const srv: Server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', authorization: request.headers.authorization });
    const answer = handler(request.method ?? '', request.url ?? '', request.headers);
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => srv.close(() => resolve())));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, requests };
}

function expectAbsent(token: string, ...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(token);
    // Not even a telling part of it.
    expect(text).not.toContain(token.slice(-24));
  }
}

describe('the token never shows', () => {
  it('in anything plan and apply write, on success and on failure, with --debug too', async () => {
    const opened = await openSandbox();
    cleanups.push(() => opened.sandbox.close());
    const token = await opened.token('alice');
    const dir = await workspace();
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: token };
    const runs: CliRun[] = [];
    for (const args of [
      ['validate', '--debug'],
      ['plan', '--debug'],
      ['plan', '--json', '--out', 'plan.json'],
      ['plan', '--markdown'],
      ['apply', 'plan.json', '--debug'],
      ['apply', 'plan.json', '--json'],
      ['apply', '--auto-approve', '--json'],
      ['coverage', '--json'],
      [
        'import',
        '--fqn',
        'warehouse.sales.public.orders.dataContract_orders',
        '--out',
        'imported',
        '--debug',
      ],
    ]) {
      runs.push(await cli(args, { cwd: dir, env }));
    }
    // Failures: an unreachable catalog, a forbidden PATCH, an expired token.
    runs.push(
      await cli(['plan', '--debug', '--catalog-url', 'http://127.0.0.1:9'], { cwd: dir, env }),
    );
    const bob = await mintToken('bob', SECRET);
    runs.push(
      await cli(['apply', '--auto-approve', '--debug'], {
        cwd: dir,
        env: { ...env, CATALOG_TOKEN: bob },
      }),
    );
    const expired = await mintToken('alice', SECRET, Math.floor(Date.now() / 1000) - 10);
    runs.push(
      await cli(['plan', '--debug'], { cwd: dir, env: { ...env, CATALOG_TOKEN: expired } }),
    );
    expect(runs.at(-1)!.err).toContain('Expired token!');
    const planFile = await readFile(path.join(dir, 'plan.json'), 'utf8');
    expectAbsent(token, planFile, ...runs.flatMap((r) => [r.out, r.err]));
    expectAbsent(bob, ...runs.flatMap((r) => [r.out, r.err]));
    expectAbsent(expired, ...runs.flatMap((r) => [r.out, r.err]));
  });

  it('in errors from a catalog that echoes the request back', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.echo-me-if-you-dare.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ';
    const echo = await server((method, url, headers) => {
      if (url.includes('payments'))
        return {
          status: 500,
          body: `<html>upstream error for ${method} ${url} with ${String(headers.authorization)}</html>`,
        };
      if (url.includes('search'))
        return {
          status: 403,
          body: JSON.stringify({ code: 403, message: `denied: ${String(headers.authorization)}` }),
        };
      return {
        status: 400,
        body: JSON.stringify({
          code: 400,
          message: `bad request, headers were ${JSON.stringify(headers)}`,
        }),
      };
    });
    const dir = await workspace();
    const runs = [
      await cli(['plan', '--debug'], {
        cwd: dir,
        env: { CATALOG_URL: echo.url, CATALOG_TOKEN: token },
      }),
      await cli(['plan', '--json'], {
        cwd: dir,
        env: { CATALOG_URL: echo.url, CATALOG_TOKEN: token },
      }),
    ];
    expect(echo.requests.length).toBeGreaterThan(0);
    expect(runs[0]!.out).toContain('***');
    expectAbsent(token, ...runs.flatMap((r) => [r.out, r.err]));
  });

  it('in errors that quote it percent-encoded, or only its signature', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ==';
    const echo = await server(() => ({
      status: 400,
      body: JSON.stringify({
        code: 400,
        message: `bad token ${encodeURIComponent(token)}; signature ${token.split('.')[2]!} unknown`,
      }),
    }));
    const dir = await workspace();
    const run = await cli(['plan', '--debug'], {
      cwd: dir,
      env: { CATALOG_URL: echo.url, CATALOG_TOKEN: token },
    });
    expect(echo.requests.length).toBeGreaterThan(0);
    expect(run.out + run.err).toContain('***');
    for (const form of [
      token,
      encodeURIComponent(token),
      token.split('.')[2]!,
      token.split('.')[1]!,
    ])
      expectAbsent(form, run.out, run.err);
  });

  it('a token holding a line break or a space is refused at once, without quoting it, and nothing is sent', async () => {
    const echo = await server(() => ({ status: 200, body: '{}' }));
    const dir = await workspace();
    for (const [token, what] of [
      ['abc.def\nghi.jkl', 'a line break'],
      ['abc def', 'a space'],
    ] as const) {
      const started = Date.now();
      const run = await cli(['plan'], {
        cwd: dir,
        env: { CATALOG_URL: echo.url, CATALOG_TOKEN: token },
      });
      expect(run.code).toBe(1);
      expect(run.err).toContain(`CATALOG_TOKEN holds a character a token cannot hold (${what}`);
      expectAbsent('ghi.jkl', run.out, run.err);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(echo.requests).toEqual([]);
  });

  it('on a redirect to another origin: not followed, nothing sent there', async () => {
    const elsewhere = await server(() => ({ status: 200, body: '{}' }));
    const redirecting = await server((_method, url) => ({
      status: 307,
      headers: { location: `${elsewhere.url}${url}` },
      body: '',
    }));
    const dir = await workspace();
    const token = await mintToken('alice', SECRET);
    const run = await cli(['plan'], {
      cwd: dir,
      env: { CATALOG_URL: redirecting.url, CATALOG_TOKEN: token },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `to another origin (${elsewhere.url}); the token is only sent to ${redirecting.url}`,
    );
    expect(elsewhere.requests).toEqual([]);
    expectAbsent(token, run.out, run.err);
  });

  it('on a redirect within the same origin: followed, with the token', async () => {
    const token = await mintToken('alice', SECRET);
    const moved = await server((_method, url) =>
      url.startsWith('/api/v1/tables')
        ? { status: 200, body: JSON.stringify({ data: [], paging: { total: 0 } }) }
        : url.startsWith('/api/')
          ? {
              status: 404,
              body: JSON.stringify({ code: 404, message: 'dataContract instance not found' }),
            }
          : { status: 308, headers: { location: `/api${url}` }, body: '' },
    );
    const dir = await workspace();
    const run = await cli(['plan', '--json'], {
      cwd: dir,
      env: { CATALOG_URL: moved.url, CATALOG_TOKEN: token },
    });
    const followed = moved.requests.filter((r) => r.url.startsWith('/api/v1/dataContracts/name/'));
    expect(followed.length).toBe(6);
    expect(followed.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    expect(JSON.parse(run.out).summary.missing).toBe(6);
  });
});
