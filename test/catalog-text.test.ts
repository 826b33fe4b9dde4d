// Text the catalog gives is printed escaped wherever it is shown: names in lineage (the consumers
// of a breaking change and their owners) and what a contract's run says (its status, rules,
// reasons, result). A hostile catalog or proxy that puts line breaks, workflow commands
// (`::error::`), ANSI escapes or bidi controls in them cannot start a line with `::` in a CI log,
// move the cursor or reorder what a reviewer reads: in the plan (human and markdown), in verify,
// and in the verification's markdown (the Action's summary and check run).
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import { PLAIN } from '../src/views/colors.js';
import { progressLine } from '../src/cli/progress.js';
import { renderVerificationHuman, renderVerificationMarkdown } from '../src/views/render-verify.js';
import { verifyContracts } from '../src/verify/verify-contracts.js';
import { cli } from './helpers/cli.js';
import { json, Started } from './helpers/hostile-catalog.js';
import { lineageSeed, ordersFile } from './helpers/lineage-seed.js';

const started = new Started();
afterEach(() => started.stop());

/** A line break, a workflow command, ANSI (colour, clear screen, a link), and a bidi override. */
const hostile = (what: string) =>
  `${what}\n::error file=x.yaml::${what} pwned\r::warning::\u001b[31m\u001b[2J\u001b]8;;https://evil.example\u0007link\u202e\u2066gnp.exe\u2028::notice::end`;

const NO_COLOR = { NO_COLOR: '1' };

/** Controls (but the line break) and bidi formatting characters, none of which may be printed. */
const UNPRINTED = new RegExp(
  // eslint-disable-next-line no-control-regex
  '[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029]',
);

function expectEscaped(texts: readonly string[]): void {
  for (const text of texts) {
    for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/))
      expect(line.startsWith('::'), line).toBe(false);
    expect(text).not.toMatch(UNPRINTED);
  }
}

describe('catalog text is printed escaped', () => {
  it('in the consumers of a breaking change: lineage names and owners, human and markdown', async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (_method, url, body) => {
        if (url.includes('/lineage/')) {
          const graph = body as { nodes: { fullyQualifiedName: string; type: string }[] };
          return {
            ...graph,
            nodes: graph.nodes.map((node) =>
              node.fullyQualifiedName === 'db.s.daily'
                ? { ...node, fullyQualifiedName: hostile('db.s.daily'), type: hostile('table') }
                : node,
            ),
          };
        }
        if (url.startsWith('/api/v1/dashboards/name/'))
          return { ...(body as object), owners: [{ type: 'team', name: hostile('ops') }] };
        return body;
      },
    );
    const env = { ...proxy.env, ...NO_COLOR };
    const human = await cli(['plan'], { cwd: proxy.cwd, env });
    const markdown = await cli(['plan', '--markdown'], { cwd: proxy.cwd, env });
    expect(human.code, human.err).toBe(0);
    // Shown, escaped.
    expect(human.out).toContain(
      'table\\n::error file=x.yaml::table pwned\\u000d::warning::\\u001b[31m',
    );
    expect(human.out).toContain('db.s.daily\\n::error file=x.yaml::db.s.daily pwned');
    expect(human.out).toContain('owned by team ops\\n::error file=x.yaml::ops pwned');
    expect(markdown.out).toContain('ops\\n::error file=x.yaml::ops pwned');
    expectEscaped([human.out, human.err, markdown.out, markdown.err]);
  });

  it("in a contract's run: its status, failed rules, reasons and result, human and markdown", async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (_method, url, body) =>
        /\/dataContracts\/[^/]+\/(validate|results\/)/.test(url)
          ? {
              ...(body as object),
              contractExecutionStatus: hostile('Failed'),
              result: hostile('result'),
              schemaValidation: { passed: 1, failed: 1, total: 2, failedFields: [hostile('col')] },
              semanticsValidation: {
                passed: 0,
                failed: 1,
                total: 1,
                failedRules: [{ ruleName: hostile('rule'), reason: hostile('reason') }],
              },
            }
          : body,
    );
    const verified = await cli(['verify'], { cwd: proxy.cwd, env: { ...proxy.env, ...NO_COLOR } });
    expect(verified.code).toBe(1);
    expect(verified.out).toContain('Failed\\n::error file=x.yaml::Failed pwned');
    expect(verified.out).toContain('semantics: rule rule\\n::error file=x.yaml::rule pwned');
    expect(verified.out).toContain(': reason\\n::error file=x.yaml::reason pwned');
    // The same report over HTTP, rendered as the Action's summary and check run show it.
    const client = new CatalogClient({
      baseUrl: proxy.env.CATALOG_URL!,
      token: proxy.env.CATALOG_TOKEN!,
    });
    const live = await client.getContractByName(ordersFile.fullyQualifiedName);
    const report = await verifyContracts(
      [{ file: 'contracts/orders.yaml', fullyQualifiedName: live.fullyQualifiedName, id: live.id }],
      client,
      { profile: 'openmetadata', pollMs: 1, timeoutMs: 5_000 },
    );
    await client.close();
    const markdown = renderVerificationMarkdown(report);
    const human = renderVerificationHuman(report, PLAIN);
    expect(markdown).toContain('- semantics: rule rule\\n::error file=x.yaml::rule pwned');
    expect(markdown).toContain('schema: column col\\n::error');
    expectEscaped([verified.out, verified.err, markdown, human]);
  });
});

describe('catalog text in coverage and import is printed escaped', () => {
  /** A catalog of one table whose own contract is managed from another repository. */
  async function oddCatalog() {
    const contract = {
      id: 'c1',
      name: 'c',
      fullyQualifiedName: hostile('db.s.t.dataContract_c'),
      entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
      version: 0.1,
      extension: { managedBy: `https://github.com/acme/other/blob/HEAD/${hostile('c')}.yaml` },
    };
    return started.catalog((request, response) => {
      const url = new URL(request.url ?? '/', 'http://catalog');
      if (url.pathname === '/v1/tables')
        return json(response, 200, {
          data: [{ id: 't1', fullyQualifiedName: hostile('db.s.t') }],
          paging: { total: 1 },
        });
      if (
        url.pathname === '/v1/dataContracts/entity' ||
        url.pathname.startsWith('/v1/dataContracts/name/')
      )
        return json(response, 200, contract);
      if (url.pathname === '/v1/search/fieldQuery')
        return json(response, 200, { hits: { total: { value: 0, relation: 'eq' }, hits: [] } });
      json(response, 404, { code: 404, message: 'not found' });
    });
  }

  it('coverage, human and markdown: table, contract and manager', async () => {
    const catalog = await oddCatalog();
    const cwd = await started.workspace();
    const env = {
      CATALOG_URL: catalog.url,
      CATALOG_TOKEN: 'a-token',
      CATALOG_PROFILE: 'spec',
      ...NO_COLOR,
    };
    const human = await cli(['coverage'], { cwd, env });
    const markdown = await cli(['coverage', '--markdown'], { cwd, env });
    expect(human.code, human.err).toBe(0);
    expect(human.out).toContain('db.s.t\\n::error file=x.yaml::db.s.t pwned');
    expect(human.out).toContain('own: db.s.t.dataContract_c\\n::error');
    expect(human.out).toContain('managed from https://github.com/acme/other (c\\n::error');
    expect(markdown.out).toContain('db.s.t\\n::error file=x.yaml::db.s.t pwned');
    expectEscaped([human.out, human.err, markdown.out, markdown.err]);
  });

  it('import: the name of the contract it wrote', async () => {
    const catalog = await oddCatalog();
    const cwd = await started.workspace();
    const env = { CATALOG_URL: catalog.url, CATALOG_TOKEN: 'a-token', CATALOG_PROFILE: 'spec' };
    const run = await cli(['import', '--fqn', 'db.s.t.dataContract_c', '--out', 'imported'], {
      cwd,
      env,
    });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('(db.s.t.dataContract_c\\n::error file=x.yaml::');
    expectEscaped([run.out, run.err]);
  });
});

describe('the progress line at a terminal', () => {
  it('shows the name in flight (a table the catalog listed) escaped', () => {
    const writes: string[] = [];
    const line = progressLine(
      { write: (text: string) => writes.push(text), isTTY: true, columns: 400 },
      'Checking tables',
      { total: 30, now: () => 0 },
    );
    line.begin(hostile('db.s.t'));
    const drawn = writes.at(-1)!;
    // Only the line's own clearing sequence moves the cursor.
    expect(drawn.startsWith('\r\u001b[2K')).toBe(true);
    expect(drawn.slice('\r\u001b[2K'.length)).toContain('in flight: db.s.t\\n::error');
    expectEscaped([drawn.slice('\r\u001b[2K'.length)]);
  });
});

describe('what the catalog says a PATCH changed', () => {
  it('is printed escaped by apply: field names, item names, properties', async () => {
    const proxy = await started.proxied(
      { profile: 'openmetadata', seed: lineageSeed() },
      { orders: ordersFile },
      (method, _url, body) => {
        if (method !== 'PATCH') return body;
        const said = {
          fieldsUpdated: [{ name: hostile('description'), oldValue: 'a', newValue: 'b' }],
          fieldsDeleted: [
            {
              name: hostile('schema'),
              oldValue: JSON.stringify({ name: hostile('amount'), dataType: 'DECIMAL' }),
            },
          ],
        };
        return { ...(body as object), changeDescription: said, incrementalChangeDescription: said };
      },
    );
    const run = await cli(['apply', '--auto-approve'], {
      cwd: proxy.cwd,
      env: { ...proxy.env, ...NO_COLOR },
    });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('description\\n::error file=x.yaml::description pwned');
    expect(run.out).toContain('- schema\\n::error file=x.yaml::schema pwned');
    expectEscaped([run.out, run.err]);
  });
});
