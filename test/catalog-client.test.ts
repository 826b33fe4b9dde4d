// The catalog client against local servers that misbehave on purpose: retries for reads only,
// Retry-After honoured, bounded attempts, both error body shapes and non-JSON bodies understood,
// FQNs sent as one path segment, and the User-Agent.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, normalizeCatalogUrl, retryAfterMs } from '../src/catalog/client.js';
import {
  AuthError,
  CatalogError,
  ConfigError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  TimeoutError,
} from '../src/model/errors.js';
import { etagOf, ifMatchFor, RESPONSE_ETAG } from '../src/catalog/etag.js';
import { patchText } from '../src/catalog/patch-text.js';
import { codecFor, specCodec } from '../src/profile/codec.js';
import type { Operation } from '../src/model/operation.js';
import fc from 'fast-check';
import { VERSION } from '../src/support/version.js';
import { cli } from './helpers/cli.js';
import { spawnSandboxProcess } from './helpers/sandbox-process.js';
import { mintToken, type RequestRecord } from '@contracts-gitops/sandbox';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    handler(request, response, seen.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The asset of the contracts these servers answer with. */
const ENTITY = { type: 'table', fullyQualifiedName: 'a' };

function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function client(
  url: string,
  waits: number[] = [],
  options: Partial<ConstructorParameters<typeof CatalogClient>[0]> = {},
): CatalogClient {
  const c = new CatalogClient({
    baseUrl: url,
    token: 'tok',
    retries: 3,
    retryBaseMs: 100,
    retryMaxMs: 5000,
    random: () => 1,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  cleanups.push(() => c.close());
  return c;
}

describe('CatalogClient', () => {
  it('sends the token, the User-Agent and the FQN as one encoded path segment', async () => {
    const server = await serve((_q, r) =>
      json(r, 200, {
        id: 'x',
        name: 'n',
        fullyQualifiedName: 'a/b c',
        entity: { type: 'table', fullyQualifiedName: 't' },
        version: 0.1,
      }),
    );
    await client(`${server.url}/api/`).getContractByName('a/b c', ['owners', 'reviewers']);
    expect(server.seen[0]!.url).toBe(
      '/api/v1/dataContracts/name/a%2Fb%20c?fields=owners%2Creviewers',
    );
    expect(server.seen[0]!.headers.authorization).toBe('Bearer tok');
    expect(server.seen[0]!.headers['user-agent']).toBe(`contracts-gitops/${VERSION}`);
  });

  it('retries reads on 429, 502, 503 and 504 with exponential backoff and honours Retry-After', async () => {
    const statuses = [503, 429, 502, 504];
    const server = await serve((_q, r, i) =>
      i < statuses.length
        ? json(
            r,
            statuses[i]!,
            { code: statuses[i], message: 'busy' },
            i === 1 ? { 'retry-after': '2' } : {},
          )
        : json(r, 200, { id: 'id', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.1 }),
    );
    const waits: number[] = [];
    const c = client(server.url, waits, { retries: 4 });
    await expect(c.getContractById('id')).resolves.toMatchObject({ id: 'id', version: 0.1 });
    expect(server.seen).toHaveLength(5);
    expect(waits).toEqual([100, 2000, 400, 800]);
  });

  it('gives up after the bounded number of retries with the last error', async () => {
    const server = await serve((_q, r) =>
      json(r, 503, { code: 503, message: 'down for maintenance' }),
    );
    const waits: number[] = [];
    await expect(client(server.url, waits).getContractById('id')).rejects.toMatchObject({
      status: 503,
      errorType: 'SERVER_ERROR',
      serverMessage: 'down for maintenance',
    });
    expect(server.seen).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  it('sends a PATCH again only after a 429, waiting as Retry-After asks, bounded', async () => {
    const server = await serve((_q, r, index) =>
      index < 2
        ? json(
            r,
            429,
            { code: 429, message: 'slow down' },
            { 'retry-after': index === 0 ? '2' : '600' },
          )
        : json(r, 200, { id: 'id', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.2 }),
    );
    const waits: number[] = [];
    await expect(client(server.url, waits).patchContract('id', [])).resolves.toMatchObject({
      version: 0.2,
    });
    expect(server.seen.map((s) => s.method)).toEqual(['PATCH', 'PATCH', 'PATCH']);
    // 2 s as asked; 600 s is cut to the longest wait (5 s here).
    expect(waits).toEqual([2000, 5000]);
    const always = await serve((_q, r) => json(r, 429, { code: 429, message: 'slow down' }));
    await expect(client(always.url).patchContract('id', [])).rejects.toMatchObject({ status: 429 });
    expect(always.seen).toHaveLength(4);
  });

  it('keeps the ETag a contract was read with, and sends it as If-Match on a PATCH', async () => {
    const server = await serve((q, r) =>
      q.method === 'GET'
        ? json(
            r,
            200,
            { id: 'x', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.3 },
            { etag: 'W/"0.3"' },
          )
        : json(r, 200, { id: 'x', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.4 }),
    );
    const c = client(server.url);
    const live = await c.getContractByName('a.b');
    expect(etagOf(live)).toBe('W/"0.3"');
    expect(JSON.stringify(live)).toBe(
      '{"id":"x","fullyQualifiedName":"a.b","entity":{"type":"table","fullyQualifiedName":"a"},"version":0.3}',
    );
    await c.patchContract('x', [], { ifMatch: etagOf(live)! });
    await c.patchContract('x', []);
    expect(server.seen[1]!.headers['if-match']).toBe('W/"0.3"');
    expect(server.seen[2]!.headers['if-match']).toBeUndefined();
  });

  it('If-Match: the ETag as read under the spec; under OpenMetadata 1.13.1+ 1.x\'s ETag of version and updatedAt as read, else W/"<version>", the version as Java writes it; none to 1.10.0–1.13.0 or a release that does not say; nothing without an ETag', async () => {
    const server = await serve((q, r) =>
      json(
        r,
        200,
        {
          id: 'x',
          fullyQualifiedName: 'a.b',
          entity: ENTITY,
          version: q.url!.includes('one') ? 1 : 0.3,
        },
        q.url!.includes('none') ? {} : { etag: '"6dc39a9f444addf2"' },
      ),
    );
    const c = client(server.url);
    const [one, other, none] = await Promise.all(
      ['a.one', 'a.other', 'a.none'].map((fqn) => c.getContractByName(fqn)),
    );
    const om = codecFor('openmetadata', '2.0.5');
    const om1 = codecFor('openmetadata', '1.13.1');
    expect(ifMatchFor(other, specCodec)).toBe('"6dc39a9f444addf2"');
    expect(ifMatchFor(other, om)).toBe('W/"0.3"');
    expect(ifMatchFor(one, om)).toBe('W/"1.0"');
    expect(ifMatchFor(none, om)).toBeUndefined();
    expect(ifMatchFor(none, specCodec)).toBeUndefined();
    // The releases whose If-Match path drops contract changes (open-metadata/OpenMetadata#28876).
    for (const release of ['1.10.0', '1.12.3', '1.13.0', null])
      expect(ifMatchFor(other, codecFor('openmetadata', release))).toBeUndefined();
    // OpenMetadata 1.x's strong ETag, a hash of "<version>-<updatedAt>", is sent as read: it
    // moves with a change folded into the same version, which W/"<version>" does not see.
    const hash = createHash('sha256').update('0.3-1700000000000').digest('hex').slice(0, 16);
    const read = Object.assign(
      { version: 0.3, updatedAt: 1_700_000_000_000 },
      {
        [RESPONSE_ETAG]: `"${hash}"`,
      },
    );
    expect(ifMatchFor(read, om1)).toBe(`"${hash}"`);
    expect(ifMatchFor({ ...read, updatedAt: 1_700_000_000_001 }, om1)).toBe('W/"0.3"');
  });

  it('an answer past 64 MiB (here 600 MiB, more than one string can hold) is not read: a network error saying so, never a crash', async () => {
    let sent = 0;
    const server = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const more = (): void => {
        while (sent < 600 && !r.destroyed) {
          sent += 1;
          if (!r.write(chunk)) {
            r.once('drain', more);
            return;
          }
        }
        if (!r.destroyed) r.end();
      };
      r.on('close', () => undefined);
      more();
    });
    const c = client(server.url, [], { retries: 0 });
    const failure = await c.getContractByName('a.b').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as Error).message).toContain('the answer was larger than 64 MiB');
    expect(sent).toBeLessThan(600);
  });

  it('percent-encodes the FQNs . and .., which would otherwise name other paths', async () => {
    const server = await serve((_q, r) =>
      json(r, 200, { id: 'x', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.1 }),
    );
    await client(server.url).getContractByName('..');
    await client(server.url).getContractByName('.');
    expect(server.seen.map((s) => s.url)).toEqual([
      '/v1/dataContracts/name/%2E%2E',
      '/v1/dataContracts/name/%2E',
    ]);
  });

  it('masks a password in a URL it cannot read up to the last @', () => {
    expect(() => normalizeCatalogUrl('http://me:pa@ss@word@host:99999/api')).toThrow(ConfigError);
    try {
      normalizeCatalogUrl('http://me:pa@ss@word@host:99999/api');
    } catch (error) {
      expect((error as Error).message).toContain("'http://***@host:99999/api'");
      expect((error as Error).message).not.toMatch(/pa|ss|word/);
    }
  });

  it('never retries a PATCH after a 5xx', async () => {
    const server = await serve((_q, r) => json(r, 503, { code: 503, message: 'busy' }));
    await expect(client(server.url).patchContract('id', [])).rejects.toBeInstanceOf(CatalogError);
    expect(server.seen.map((s) => s.method)).toEqual(['PATCH']);
    expect(server.seen[0]!.headers['content-type']).toBe('application/json-patch+json');
  });

  it('never has more requests at once than its concurrency, reads and PATCHes together', async () => {
    let open = 0;
    let peak = 0;
    const server = await serve((_q, r) => {
      open += 1;
      peak = Math.max(peak, open);
      setTimeout(() => {
        open -= 1;
        json(r, 200, { id: 'x', fullyQualifiedName: 'a.b', entity: ENTITY, version: 0.2 });
      }, 20);
    });
    const c = client(server.url, [], { concurrency: 3 });
    await Promise.all([
      ...Array.from({ length: 9 }, (_, i) => c.getContractById(`read-${i}`)),
      ...Array.from({ length: 4 }, (_, i) => c.patchContract(`patch-${i}`, [])),
    ]);
    expect(server.seen).toHaveLength(13);
    // Bounded, and the bound is used: three at once, never four.
    expect(peak).toBe(3);
  });

  it('reads answers and sends the next requests while the thread that asked is busy', async () => {
    // The catalog in a process of its own, so that it answers while this thread is kept busy;
    // each answer 100 ms after its request.
    const sandbox = spawnSandboxProcess(['--secret', 'busy-secret', '--faults', 'latency=100']);
    cleanups.push(async () => {
      await sandbox.stop();
    });
    const url = await sandbox.url;
    const c = new CatalogClient({
      baseUrl: url,
      token: await mintToken('alice', 'busy-secret', '1h'),
      concurrency: 1,
    });
    cleanups.push(() => c.close());
    const read = (name: string) => c.getContractByName(name).catch((error: unknown) => error);
    const reads = ['busy.a', 'busy.b', 'busy.c'].map(read);
    expect(await reads[0]).toBeInstanceOf(NotFoundError);
    // Busy for half a second, as a plan is while it works on answers: the connection must take
    // busy.b at once, and busy.c as soon as busy.b is answered, meanwhile.
    const busyUntil = performance.now() + 500;
    while (performance.now() < busyUntil);
    expect(await Promise.all(reads.slice(1))).toEqual([
      expect.any(NotFoundError),
      expect.any(NotFoundError),
    ]);
    const { data } = (await (
      await fetch(`${url}/sandbox/requests`, {
        headers: { authorization: `Bearer ${await mintToken('alice', 'busy-secret', '1h')}` },
      })
    ).json()) as {
      data: RequestRecord[];
    };
    const [a, b, c2] = data.filter((record) =>
      record.path.startsWith('/v1/dataContracts/name/busy.'),
    );
    // On the catalog's clock: each request went out as soon as the one before was answered.
    expect(b!.startedAt - a!.finishedAt).toBeLessThan(250);
    expect(c2!.startedAt - b!.finishedAt).toBeLessThan(250);
  });

  it('reads both error body shapes, and survives bodies that are not JSON', async () => {
    const bodies: [number, string][] = [
      [401, JSON.stringify({ code: 401, errorType: 'UNAUTHORIZED', message: 'Expired token!' })],
      [403, JSON.stringify({ code: 403, message: 'Principal: x not allowed' })],
      [404, JSON.stringify({ code: 404, message: 'dataContract instance for x not found' })],
      [400, '<html><body>Bad   Request</body></html>'],
    ];
    const server = await serve((_q, r, i) => {
      r.writeHead(bodies[i]![0], { 'content-type': 'text/plain' });
      r.end(bodies[i]![1]);
    });
    const c = client(server.url);
    await expect(c.getContractById('a')).rejects.toBeInstanceOf(AuthError);
    await expect(c.getContractById('b')).rejects.toSatisfy(
      (e: unknown) => e instanceof ForbiddenError && e.errorType === 'FORBIDDEN',
    );
    await expect(c.getContractById('c')).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.getContractById('d')).rejects.toMatchObject({
      status: 400,
      errorType: 'BAD_REQUEST',
      serverMessage: '<html><body>Bad Request</body></html>',
    });
  });

  it('turns a refused connection into a NetworkError and a silent server into a TimeoutError', async () => {
    await expect(
      client('http://127.0.0.1:9', [], { retries: 0 }).getContractById('x'),
    ).rejects.toBeInstanceOf(NetworkError);
    const silent = await serve(() => undefined);
    await expect(
      client(silent.url, [], { retries: 0, headersTimeoutMs: 200 }).getContractById('x'),
    ).rejects.toBeInstanceOf(TimeoutError);
  });

  it('checks its settings before sending anything', () => {
    expect(() => new CatalogClient({ baseUrl: 'ftp://x', token: 't' })).toThrow(ConfigError);
    expect(() => new CatalogClient({ baseUrl: 'http://u:p@x', token: 't' })).toThrow(
      /must not hold credentials/,
    );
    expect(() => new CatalogClient({ baseUrl: 'http://x', token: ' ' })).toThrow(
      /CATALOG_TOKEN is empty/,
    );
    expect(normalizeCatalogUrl('http://x:8585/api/v1/').toString()).toBe('http://x:8585/api');
    for (const concurrency of [0, -1, 1.5, Number.NaN])
      expect(() => new CatalogClient({ baseUrl: 'http://x', token: 't', concurrency })).toThrow(
        /concurrency must be a whole number of at least 1/,
      );
  });

  it('preflight turns a wrong URL, an unreachable catalog and a bad token into one clear error each', async () => {
    const routes = await serve((_q, r) => json(r, 404, { code: 404, message: 'Route not found' }));
    await expect(client(`${routes.url}/wrong`).preflight()).rejects.toThrow(
      `${routes.url}/wrong does not look like the catalog: GET /wrong/v1/tables answered 404`,
    );
    await expect(client('http://127.0.0.1:9', [], { retries: 0 }).preflight()).rejects.toThrow(
      /^cannot reach the catalog at http:\/\/127\.0\.0\.1:9: /,
    );
    const denied = await serve((_q, r) =>
      json(r, 401, { code: 401, message: 'Not Authorized! Invalid token.' }),
    );
    // (This client's token is 'tok', so the server's message comes back with it redacted.)
    await expect(client(denied.url).preflight()).rejects.toThrow(
      /^the catalog at http:\S+ refused the token \(401: Not Authorized! Invalid \*\*\*en\.\)\. Check CATALOG_TOKEN: it may have expired, or belong to another catalog or user\.$/,
    );
    const page = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<html><body>OpenMetadata</body></html>');
    });
    await expect(client(page.url).preflight()).rejects.toThrow(
      `${page.url} answered GET /v1/tables with a page that is not the catalog's API (not JSON). If ${page.url} is the catalog's web address, its API is under /api: try --catalog-url ${page.url}/api.`,
    );
    const fine = await serve((_q, r) => json(r, 200, { data: [], paging: { total: 0 } }));
    await expect(client(fine.url).preflight()).resolves.toBeUndefined();
    expect(fine.seen[0]!.url).toBe('/v1/tables?limit=1');
  });

  it('an https URL against a plain http catalog is one sentence, not an OpenSSL dump', async () => {
    const plain = await serve((_q, r) => json(r, 200, {}));
    const secure = plain.url.replace('http:', 'https:');
    const error = await client(secure, [], { retries: 0 })
      .preflight()
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(
      `does not answer TLS (https); if it serves plain http, use ${plain.url}`,
    );
    expect((error as Error).message).not.toMatch(/ssl3|openssl/i);
  });

  it('an answer of the wrong shape is one sentence from coverage, plan and import, never a crash', async () => {
    // Any catalog that answers 200 with JSON that is not what the interface says: the preflight
    // passes (an empty page), everything else is `{}` or rows without ids.
    const odd = await serve((q, r) => {
      if (/^\/v1\/tables\?limit=1($|&)/.test(q.url ?? ''))
        return json(r, 200, { data: [], paging: {} });
      if ((q.url ?? '').startsWith('/v1/tables')) return json(r, 200, { data: [{ name: 'x' }] });
      json(r, 200, {});
    });
    const dir = await tempDir({
      'contracts/c.yaml':
        'name: c\nfullyQualifiedName: db.s.t.dataContract_c\nentity: {type: table, fullyQualifiedName: db.s.t}\n',
    });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: odd.url, CATALOG_TOKEN: 'tok' };
    const coverage = await cli(['coverage'], { cwd: dir.dir, env });
    expect(coverage.code).toBe(1);
    expect(coverage.err).toBe(
      `Error: GET /v1/tables failed with status 200 UNEXPECTED_RESPONSE: the catalog answered 200 with something that is not a page of a list (an object with a data list): data[0].id is missing, not a string\n`,
    );
    const plan = await cli(['plan', '--catalog-profile', 'spec'], { cwd: dir.dir, env });
    expect(plan.code).toBe(1);
    expect(plan.out).toContain(
      "error: contracts/c.yaml:2:1 GET /v1/dataContracts/name/db.s.t.dataContract_c failed with status 200 UNEXPECTED_RESPONSE: the catalog answered 200 with something that is not a data contract (an object with id, fullyQualifiedName, version and entity): id is missing, not a string; is the catalog URL that of the catalog's API?",
    );
    const imported = await cli(['import', '--fqn', 'db.s.t.dataContract_c'], { cwd: dir.dir, env });
    expect(imported.code).toBe(1);
    expect(imported.err).toMatch(
      /^Error: GET \/v1\/dataContracts\/name\/\S+ failed with status 200 UNEXPECTED_RESPONSE: /,
    );
    for (const run of [coverage, plan, imported])
      expect(run.out + run.err).not.toMatch(/Cannot read|undefined|Internal error/);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('the PATCH body', () => {
  it('writes a whole version as a Java Double (1.0), and every operation as JSON.stringify reads it back', () => {
    expect(patchText([{ op: 'test', path: '/version', value: 2 }])).toBe(
      '[{"op":"test","path":"/version","value":2.0}]',
    );
    expect(patchText([{ op: 'test', path: '/version', value: 0.3 }])).toBe(
      '[{"op":"test","path":"/version","value":0.3}]',
    );
    const op = fc.oneof(
      fc.record({
        op: fc.constantFrom('add', 'replace', 'test'),
        path: fc.constantFrom('/version', '/description', '/sla/retention'),
        value: fc.jsonValue(),
      }),
      fc.record({ op: fc.constant('remove'), path: fc.constantFrom('/version', '/schema/0') }),
    ) as fc.Arbitrary<Operation>;
    fc.assert(
      fc.property(fc.array(op), (ops) => {
        expect(JSON.parse(patchText(ops))).toEqual(JSON.parse(JSON.stringify(ops)));
      }),
    );
  });
});
