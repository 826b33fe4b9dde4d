// Every catalog answer is checked to be of the shape the tool reads before anything reads it: a
// null in a list page, a verification result whose failed rules are nulls or whose failed fields
// are a number, a lineage node that is null, an owner that is null. Each is a typed error naming
// the request and the field that was wrong (or, for what is only extra, a note), never an
// internal error. Over HTTP: a local catalog, or the sandbox behind a proxy that rewrites answers.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, type CliRun } from './helpers/cli.js';
import { json, Started } from './helpers/hostile-catalog.js';
import { lineageSeed, ordersFile } from './helpers/lineage-seed.js';

const started = new Started();
afterEach(() => started.stop());

function expectNoCrash(...runs: CliRun[]): void {
  for (const run of runs)
    expect(run.out + run.err).not.toMatch(/Internal error|TypeError|Cannot read|is not iterable/);
}

/** A catalog that lists `data` under `list` and holds nothing else. */
async function listing(list: string, data: unknown[]) {
  return started.catalog((request, response) => {
    const url = new URL(request.url ?? '/', 'http://catalog');
    if (url.pathname === list && url.searchParams.get('limit') !== '1')
      return json(response, 200, { data, paging: { total: data.length } });
    if (url.pathname === '/v1/tables') return json(response, 200, { data: [], paging: {} });
    if (url.pathname === '/v1/search/fieldQuery')
      return json(response, 200, { hits: { total: { value: 0, relation: 'eq' }, hits: [] } });
    json(response, 404, { code: 404, message: 'not found' });
  });
}

describe('a list page with a null item', () => {
  it('stops coverage with an error naming the list and the item', async () => {
    const catalog = await listing('/v1/tables', [{ id: 't1', fullyQualifiedName: 'db.s.t' }, null]);
    const run = await cli(['coverage'], {
      cwd: await started.workspace(),
      env: { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      'Error: GET /v1/tables failed with status 200 UNEXPECTED_RESPONSE: the catalog answered 200 with something that is not a page of a list (an object with a data list): data[1] is null, not an object\n',
    );
    expectNoCrash(run);
  });

  it('stops plan --prune the same way, and nothing is deleted', async () => {
    const catalog = await listing('/v1/dataContracts', [null]);
    const dir = await started.workspace();
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/contracts.git'], {
      cwd: dir,
    });
    const run = await cli(['plan', '--prune'], {
      cwd: dir,
      env: { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'Error: GET /v1/dataContracts failed with status 200 UNEXPECTED_RESPONSE: the catalog answered 200 with something that is not a page of a list (an object with a data list): data[0] is null, not an object',
    );
    expect(catalog.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expectNoCrash(run);
  });
});

describe('a verification result of the wrong shape', () => {
  for (const [what, change, problem] of [
    [
      'failed rules that are nulls',
      { semanticsValidation: { passed: 0, failed: 1, total: 1, failedRules: [null] } },
      'semanticsValidation.failedRules[0] is null, not an object',
    ],
    [
      'failed fields that are a number',
      { schemaValidation: { passed: 1, failed: 1, total: 2, failedFields: 5 } },
      'schemaValidation.failedFields is a number, not a list',
    ],
  ] as const)
    it(`with ${what}: the contract's error names the request and the field`, async () => {
      const proxy = await started.proxied(
        { profile: 'openmetadata', seed: lineageSeed() },
        { orders: ordersFile },
        (_method, url, body) =>
          /\/dataContracts\/[^/]+\/(validate|results\/)/.test(url)
            ? { ...(body as object), contractExecutionStatus: 'Failed', ...change }
            : body,
      );
      const run = await cli(['verify'], { cwd: proxy.cwd, env: proxy.env });
      expect(run.code).toBe(1);
      expect(run.out).toMatch(
        new RegExp(
          `✗ db\\.s\\.orders\\.dataContract_orders {2}error: 200 UNEXPECTED_RESPONSE from POST /api/v1/dataContracts/[0-9a-f-]+/validate: the catalog answered 200 with something that is not a data contract result \\(an object with contractExecutionStatus\\): ${problem.replace(/[.[\]]/g, '\\$&')}`,
        ),
      );
      const asJson = await cli(['verify', '--json'], { cwd: proxy.cwd, env: proxy.env });
      expect(JSON.parse(asJson.out).results[0].status).toBe('error');
      expectNoCrash(run, asJson);
    });
});

describe('lineage and owners of the wrong shape', () => {
  it('a null lineage node: the consumers are unknown, said with the request and the field', async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (_method, url, body) =>
        url.includes('/lineage/') ? { ...(body as object), nodes: [null] } : body,
    );
    const run = await cli(['plan'], { cwd: proxy.cwd, env: proxy.env });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(
      'consumers of table db.s.orders: unknown, its lineage could not be read (200 UNEXPECTED_RESPONSE from GET /api/v1/lineage/table/name/db.s.orders: the catalog answered 200 with something that is not a lineage graph (an object with entity, nodes and edges): nodes[0] is null, not an object)',
    );
    expectNoCrash(run);
  });

  it('a null owner: that asset’s owners are unknown, the others are read', async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (_method, url, body) =>
        url.startsWith('/api/v1/dashboards/name/') ? { ...(body as object), owners: [null] } : body,
    );
    const run = await cli(['plan'], { cwd: proxy.cwd, env: proxy.env });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('dashboard looker.kpis · owners unknown');
    expect(run.out).toContain('table db.s.daily · owned by user bob');
    expectNoCrash(run);
  });
});

describe('a PATCH answer whose change description is of the wrong shape', () => {
  it('is read as a lost answer: the contract is read back, and the change reported applied', async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (method, _url, body) =>
        method === 'PATCH'
          ? { ...(body as object), incrementalChangeDescription: { fieldsUpdated: [null] } }
          : body,
    );
    const run = await cli(['apply', '--auto-approve'], { cwd: proxy.cwd, env: proxy.env });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(
      'the response was lost; reading the contract back showed the change in place',
    );
    expect(proxy.requests.filter((r) => r.startsWith('PATCH '))).toHaveLength(1);
    expectNoCrash(run);
  });
});
