// A catalog cannot keep a command running for ever: an answer trickled a byte at a time, or headers
// held open by informational answers, fail each request as a timeout once CATALOG_TIMEOUT_MS has
// passed (headers and body together), and a list whose cursor goes round in a circle, or never
// ends, is refused as the catalog's fault before anything is concluded from it.
import { execFileSync } from 'node:child_process';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, MAX_LIST_PAGES } from '../src/catalog/client.js';
import { CatalogError } from '../src/model/errors.js';
import { cli } from './helpers/cli.js';
import { json, Started } from './helpers/hostile-catalog.js';
import { tempDir } from './helpers/temp-dir.js';

const started = new Started();
afterEach(() => started.stop());

/** The most bytes a trickling answer sends (at one each 200 ms: 30 s), so that no test runs on. */
const TRICKLED_AT_MOST = 150;

/** Calls `each` every 200 ms until `socket` closes or TRICKLED_AT_MOST calls, then ends it. */
function trickle(socket: Socket, each: (sent: number) => string): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent >= TRICKLED_AT_MOST) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    socket.write(each(sent));
    sent += 1;
  }, 200);
  socket.on('close', () => clearInterval(timer));
  socket.on('error', () => clearInterval(timer));
}

describe('CATALOG_TIMEOUT_MS bounds each request whole', () => {
  for (const [what, answer] of [
    [
      'a body trickled a byte every 200 ms',
      (socket: Socket) => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n',
        );
        trickle(socket, (sent) => (sent === 0 ? '{' : ' '));
      },
    ],
    [
      'headers held open by an informational answer every 200 ms',
      (socket: Socket) => trickle(socket, () => 'HTTP/1.1 102 Processing\r\n\r\n'),
    ],
  ] as const)
    it(`plan ends with a timeout on ${what}`, { timeout: 60_000 }, async () => {
      const url = await started.raw(answer);
      const dir = await started.workspace();
      const began = Date.now();
      const run = await cli(['plan'], {
        cwd: dir,
        env: { CATALOG_URL: url, CATALOG_TOKEN: 'a-token', CATALOG_TIMEOUT_MS: '500' },
      });
      const took = Date.now() - began;
      expect(run.code).toBe(1);
      expect(run.err).toMatch(
        /^Error: GET \/v1\/[\w/]+ timed out \(no complete answer within 500 ms/m,
      );
      // Two reads (the first check, then the catalog's version), each tried five times at most:
      // 10 × 0.5 s, and at most 3 s of waits between tries each.
      expect(took).toBeLessThan(20_000);
    });
});

const REPOSITORY = 'https://github.com/acme/contracts';
/** List requests a test's catalog answers before it refuses more (so no loop runs for ever). */
const LISTED_AT_MOST = 50;

/**
 * A catalog that holds none of the files' contracts and lists, under `list` (a path), one page
 * after another of a contract managed from this repository by a file that is gone, each page
 * with the `after` cursor `cursorOf(page)`; past LISTED_AT_MOST list requests it answers 500.
 */
async function circlingCatalog(list: string, cursorOf: (page: number) => string) {
  let listed = 0;
  const catalog = await started.catalog((request, response) => {
    const url = new URL(request.url ?? '/', 'http://catalog');
    if (request.method !== 'GET') return json(response, 405, { code: 405, message: 'no' });
    if (
      url.pathname === list &&
      !(list === '/v1/tables' && url.searchParams.get('limit') === '1')
    ) {
      listed += 1;
      if (listed > LISTED_AT_MOST) return json(response, 500, { code: 500, message: 'enough' });
      return json(response, 200, {
        data: [
          {
            id: `2c000000-0000-4000-8000-${String(listed).padStart(12, '0')}`,
            name: `gone${listed}`,
            fullyQualifiedName: `db.s.gone${listed}.dataContract_gone${listed}`,
            entity: { type: 'table', fullyQualifiedName: `db.s.gone${listed}` },
            version: 0.1,
            extension: { managedBy: `${REPOSITORY}/blob/HEAD/contracts/gone${listed}.yaml` },
          },
        ],
        paging: { after: cursorOf(listed), total: 1_000_000 },
      });
    }
    if (url.pathname === '/v1/tables') return json(response, 200, { data: [], paging: {} });
    if (url.pathname === '/v1/search/fieldQuery')
      return json(response, 200, { hits: { total: { value: 0, relation: 'eq' }, hits: [] } });
    json(response, 404, { code: 404, message: 'not found' });
  });
  return { ...catalog, listed: () => listed };
}

async function gitWorkspace(): Promise<string> {
  const dir = await started.workspace();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', `${REPOSITORY}.git`);
  return dir;
}

describe('a list whose cursor goes round in a circle', () => {
  it('stops plan --prune with the catalog at fault, and nothing is deleted', async () => {
    // Page 3 gives page 2's cursor again.
    const catalog = await circlingCatalog('/v1/dataContracts', (page) =>
      page >= 2 ? 'cursor-2' : `cursor-${page}`,
    );
    const dir = await gitWorkspace();
    const run = await cli(['plan', '--prune', '--json'], {
      cwd: dir,
      env: { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      "Error: GET /v1/dataContracts failed with status 200 UNEXPECTED_RESPONSE: the catalog's list gave page 3 the same next-page cursor (paging.after) as page 2: its paging goes round in a circle",
    );
    expect(run.err).toContain("This is the catalog's fault");
    expect(JSON.parse(run.out).error.type).toBe('catalog');
    expect(catalog.listed()).toBe(3);
    expect(catalog.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('stops coverage the same way', async () => {
    const catalog = await circlingCatalog('/v1/tables', () => 'always-the-same');
    const dir = await gitWorkspace();
    const run = await cli(['coverage'], {
      cwd: dir,
      env: { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      "GET /v1/tables failed with status 200 UNEXPECTED_RESPONSE: the catalog's list gave page 2 the same next-page cursor (paging.after) as page 1",
    );
    expect(catalog.listed()).toBe(2);
  });

  it('a list that never ends, each page with a fresh cursor, stops at the page cap', async () => {
    const catalog = await circlingCatalog('/v1/dataContracts', (page) => `fresh-${page}`);
    const client = new CatalogClient({ baseUrl: catalog.url, token: 'a-token', maxListPages: 20 });
    const listed: unknown[] = [];
    await expect(
      (async () => {
        for await (const item of client.listAll('/dataContracts', { limit: '1' }))
          listed.push(item);
      })(),
    ).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof CatalogError &&
        error.errorType === 'UNEXPECTED_RESPONSE' &&
        error.request === 'GET /v1/dataContracts' &&
        error.serverMessage.startsWith(
          "the catalog's list went on past 20 pages without an end, more than any catalog this tool manages holds",
        ),
    );
    await client.close();
    expect(catalog.listed()).toBe(20);
    expect(MAX_LIST_PAGES).toBe(10_000);
  });
});

describe("plan's listing of a database's tables", () => {
  it('stops listing at a cursor given twice, and searches instead', async () => {
    // 50 contracts on tables of one database: plan lists the database's tables.
    const tables = Array.from({ length: 50 }, (_, i) => `svc.db.s.t${i}`);
    let listed = 0;
    const catalog = await started.catalog((request, response) => {
      const url = new URL(request.url ?? '/', 'http://catalog');
      if (url.pathname === '/v1/tables' && url.searchParams.has('database')) {
        listed += 1;
        if (listed > LISTED_AT_MOST) return json(response, 500, { code: 500, message: 'enough' });
        return json(response, 200, {
          data: [{ id: `id${listed}`, fullyQualifiedName: tables[listed % 50]! }],
          paging: { after: 'the-same-cursor', total: 50 },
        });
      }
      if (url.pathname === '/v1/tables') return json(response, 200, { data: [], paging: {} });
      if (url.pathname === '/v1/search/fieldQuery')
        return json(response, 200, { hits: { total: { value: 0, relation: 'eq' }, hits: [] } });
      json(response, 404, { code: 404, message: 'not found' });
    });
    const dir = await tempDir(
      Object.fromEntries(
        tables.map((fqn, i) => [
          `contracts/t${i}.yaml`,
          `name: t${i}\nfullyQualifiedName: ${fqn}.dataContract_t${i}\nentity: {type: table, fullyQualifiedName: ${fqn}}\n`,
        ]),
      ),
    );
    const run = await cli(['plan'], {
      cwd: dir.dir,
      env: { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' },
    });
    await dir.remove();
    // The listing stops at the repeat, and the tables are searched instead (the search finds none
    // here): the plan ends, with those tables said to be missing.
    expect(run.code).toBe(1);
    expect(run.out).toContain('table svc.db.s.t10 is not in the catalog');
    expect(listed).toBe(2);
  });
});
