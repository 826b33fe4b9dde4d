// ODCS v3 files as contract files: every example of the standard validates and a broken copy gives
// its problem at its line; an ODCS file beside our own files plans, applies and converges under
// both profiles, read as OpenMetadata's converter reads it; what the catalog cannot store is one
// warning naming each at its line; a file that names no catalog asset is refused when planned.
import { readdirSync, readFileSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesiredContract } from '../src/model/contract.js';
import { odcsValidator } from '../src/contract/odcs-schema.js';
import { toOdcs } from '../src/contract/to-odcs.js';
import { fromOdcs } from '../src/contract/from-odcs.js';
import { cli } from './helpers/cli.js';
import { openMetadataSchemas } from './helpers/openmetadata-schemas.js';
import { openSandbox, sandboxWithFolder } from './helpers/sandbox.js';
import { tokenArb } from './helpers/arbitraries.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const examples = path.join(import.meta.dirname, 'fixtures', 'odcs-3.1.0');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** An ODCS file for the demo catalog's shipments table, with what the catalog cannot store. */
const SHIPMENTS = `apiVersion: v3.1.0
kind: DataContract
id: 2c9f6f4e-0a4b-4c1e-9d7a-3f1b2f7e8a10
version: 1.0.0
name: shipments
status: active
description:
  purpose: Shipments of the web shop's orders.
  usage: Join on order id.
servers:
  - server: warehouse
    type: postgres
    host: db.example.com
    port: 5432
    database: sales
    schema: public
schema:
  - name: shipments
    logicalType: object
    physicalType: table
    properties:
      - name: id
        logicalType: integer
        physicalType: bigint
        primaryKey: true
        description: Shipment id.
      - name: created_at
        logicalType: timestamp
        required: true
price:
  priceAmount: 0
  priceCurrency: EUR
  priceUnit: megabyte
support:
  - channel: "#sales-data"
    url: https://chat.example.com/sales-data
team:
  name: sales
  members:
    - username: alice
      role: owner
slaProperties:
  - property: freshness
    value: 1
    unit: d
  - property: latency
    value: 4
    unit: h
customProperties:
  - property: catalogEntity
    value: table:warehouse.sales.public.shipments
`;

/** The line (1-based) of the first line of `text` that starts with `start`. */
const lineOf = (text: string, start: string): number =>
  text.split('\n').findIndex((line) => line.startsWith(start)) + 1;

describe("the standard's examples", () => {
  const names = readdirSync(examples).filter((name) => name.endsWith('.odcs.yaml'));

  it('every one validates, without a catalog', async () => {
    expect(names.length).toBeGreaterThanOrEqual(9);
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    await cp(examples, path.join(dir.dir, 'contracts'), { recursive: true });
    const run = await cli(['validate'], { cwd: dir.dir });
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain(`✓ ${names.length} contract files are valid.`);
  });

  it.each(names)('%s broken: its problem at the line broken', async (name) => {
    const text = readFileSync(path.join(examples, name), 'utf8');
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    // A status of the wrong type, and a schema that is no list.
    const broken = text
      .replace(/^status: .*$/m, 'status: [active]')
      .replace(/^schema:\s*$/m, 'schema: 3\nschemaWas:');
    expect(broken).not.toBe(text);
    await writeFile(path.join(dir.dir, name), broken);
    const run = await cli(['validate', name, '--json'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    const problems = (JSON.parse(run.out) as { problems: { line: number; message: string }[] })
      .problems;
    expect(problems).toContainEqual(
      expect.objectContaining({
        line: lineOf(broken, 'status:'),
        message: expect.stringContaining('status must be a string') as unknown,
      }),
    );
    if (broken.includes('schema: 3'))
      expect(problems.map((p) => p.line)).toContain(lineOf(broken, 'schema: 3'));
  });
});

describe('an ODCS file read as OpenMetadata reads it', () => {
  it('maps status, description parts, the one schema object, constraints, owners and SLA as ODCSConverter does', () => {
    const read = fromOdcs(
      JSON.parse(
        JSON.stringify(
          // js-yaml would do; the reading is of plain data.
          {
            apiVersion: 'v3.0.2',
            kind: 'DataContract',
            id: 'x',
            version: '1.0.0',
            status: 'retired',
            description: { purpose: 'P.', limitations: 'L.' },
            schema: [
              {
                name: 'Orders',
                logicalType: 'object',
                properties: [
                  {
                    name: 'id',
                    physicalType: 'varchar(2)',
                    logicalType: 'string',
                    unique: true,
                    required: true,
                  },
                  { name: 'n', logicalType: 'integer', logicalTypeOptions: { maxLength: 9 } },
                ],
              },
              { name: 'other', logicalType: 'object', properties: [{ name: 'a' }] },
            ],
            team: [
              { username: 'bob', role: 'Owner' },
              { username: 'eve', role: 'steward' },
            ],
            roles: [
              { role: 'analysts', firstLevelApprovers: 'data-team' },
              { role: 'classification-Confidential' },
            ],
            slaProperties: [{ property: 'retention', value: '3', unit: 'years' }],
            customProperties: [{ property: 'catalogEntity', value: 'table:db.s.orders' }],
          },
        ),
      ) as Record<string, unknown>,
    );
    expect(read.problems).toEqual([]);
    expect(read.contract).toEqual({
      name: 'orders',
      fullyQualifiedName: 'db.s.orders.dataContract_orders',
      entity: { type: 'table', fullyQualifiedName: 'db.s.orders' },
      entityStatus: 'Deprecated',
      description: 'P.\n\n**Limitations:**\nL.',
      // The object named as the asset (first, as the server's import reads); the size the
      // server's reader drops, kept.
      schema: [
        { name: 'id', dataType: 'VARCHAR', dataLength: 2, constraint: 'UNIQUE' },
        { name: 'n', dataType: 'INT', dataLength: 9 },
      ],
      owners: [{ type: 'user', name: 'bob' }],
      security: {
        dataClassification: 'Confidential',
        policies: [{ accessPolicy: 'analysts', identities: ['data-team'] }],
      },
      sla: { retention: 'P3Y' },
    });
    expect(read.unstored.map((u) => u.pointer)).toEqual(['/schema/1', '/team/1']);
  });

  it("exports Archived as deprecated, as the server's export does from 1.13, and says it does not read back", () => {
    const { document, leftOut } = toOdcs(
      {
        name: 'c',
        fullyQualifiedName: 'db.s.t.dataContract_c',
        entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
        entityStatus: 'Archived',
      },
      { id: 'x', version: '1.0.0' },
      'openmetadata',
    );
    expect(document.status).toBe('deprecated');
    expect(leftOut.some((reason) => reason.startsWith('entityStatus '))).toBe(true);
  });

  it("refuses a document whose asset's schema object is not its first, which the server would import instead", () => {
    const read = fromOdcs({
      apiVersion: 'v3.1.0',
      kind: 'DataContract',
      id: 'x',
      version: '1.0.0',
      status: 'active',
      schema: [
        { name: 'other', logicalType: 'object', properties: [{ name: 'a' }] },
        { name: 'orders', logicalType: 'object', properties: [{ name: 'id' }] },
      ],
      customProperties: [{ property: 'catalogEntity', value: 'table:db.s.orders' }],
    });
    expect(read.problems).toEqual([
      {
        pointer: '/schema/1/name',
        message: expect.stringMatching(
          /^the schema object of orders must come first: OpenMetadata's ODCS import reads the first schema object \(other\)/,
        ),
      },
    ]);
  });
});

describe('an ODCS file beside our own files', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: plans, applies and converges; what the catalog cannot store is one warning naming each at its line, and nothing else differs',
    async (profile) => {
      const opened = await openSandbox({ profile });
      cleanups.push(() => opened.sandbox.close());
      const dir = await tempDir({ 'contracts/shipments.odcs.yaml': SHIPMENTS });
      cleanups.push(() => dir.remove());
      await cp(
        path.join(
          root,
          ...(profile === 'openmetadata' ? ['examples', 'openmetadata'] : []),
          'contracts',
          'orders.yaml',
        ),
        path.join(dir.dir, 'contracts', 'orders.yaml'),
      );
      const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
      const plan = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out).toContain('Plan: 1 to create, 1 to change, 0 unchanged, 0 errors.');
      expect(plan.out).toContain(
        `warning: contracts/shipments.odcs.yaml:${lineOf(SHIPMENTS, 'servers:')}:1 kept only in git: the contract the catalog stores has no field for servers (line ${lineOf(SHIPMENTS, 'servers:')}), price (line ${lineOf(SHIPMENTS, 'price:')}), support (line ${lineOf(SHIPMENTS, 'support:')})`,
      );
      expect(plan.out).toContain(`+ entityStatus: "${profile === 'spec' ? 'Active' : 'Approved'}"`);
      expect(plan.out).toContain('+ sla: {"refreshFrequency":"P1D","maxLatency":"PT4H"}');
      // Annotated at its line, as the Action shows it.
      const github = await cli(['plan', '--format', 'github'], { cwd: dir.dir, env });
      expect(github.out).toContain(
        `::warning file=contracts/shipments.odcs.yaml,line=${lineOf(SHIPMENTS, 'servers:')},col=1,title=kept only in git::kept only in git:`,
      );
      const strict = await cli(['plan', '--strict'], { cwd: dir.dir, env });
      expect(strict.code, strict.out).toBe(0);
      const apply = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      const again = await cli(['plan', '--detailed-exitcode', '--no-color'], { cwd: dir.dir, env });
      expect(again.code, again.out + again.err).toBe(0);
      expect(again.out).toContain('Plan: 0 to change, 2 unchanged, 0 errors.');
      const stored = opened.sandbox.store.contractByFqn(
        'warehouse.sales.public.shipments.dataContract_shipments',
      )!;
      expect(stored).toMatchObject({ entityStatus: profile === 'spec' ? 'Active' : 'Approved' });
      if (profile === 'openmetadata') {
        const validate = openMetadataSchemas()('entity/data/dataContract.json')!;
        for (const contract of opened.sandbox.store.contracts.values()) {
          const { href: _href, ...kept } = contract;
          expect(validate(kept), JSON.stringify(validate.errors)).toBe(true);
        }
      }
    },
  );

  it('a file that names no catalog asset validates, and is refused when planned, at its place, with nothing sent', async () => {
    const opened = await openSandbox({});
    cleanups.push(() => opened.sandbox.close());
    const unnamed = SHIPMENTS.replace(/^customProperties:[\s\S]*$/m, '');
    const dir = await tempDir({ 'contracts/shipments.odcs.yaml': unnamed });
    cleanups.push(() => dir.remove());
    expect((await cli(['validate'], { cwd: dir.dir })).code).toBe(0);
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const plan = await cli(['plan'], { cwd: dir.dir, env });
    expect(plan.code).toBe(1);
    expect(plan.out + plan.err).toContain(
      'contracts/shipments.odcs.yaml:1:1 the document names no catalog asset: add customProperties: [{property: catalogEntity, value: "TYPE:FQN"}]',
    );
    expect(opened.sandbox.requests().filter((r) => r.path.startsWith('/v1/dataContracts'))).toEqual(
      [],
    );
  });
});

describe('both ways', () => {
  const demoFqns = [
    'warehouse.sales.public.orders.dataContract_orders',
    'warehouse.sales.public.customers.dataContract_customers',
    'warehouse.finance.ledger.payments.dataContract_payments',
    'events.web.clickstream.dataContract_clickstream',
    'sales-analytics.dataContract_sales-analytics',
  ];

  it.each(['spec', 'openmetadata'] as const)(
    '%s: import --format odcs of every demo contract writes ODCS files that plan to no changes',
    async (profile) => {
      const { cwd, env } = await sandboxWithFolder(cleanups, { profile });
      const imported = await cli(['import', '--format', 'odcs', '--fqn', ...demoFqns], {
        cwd: cwd,
        env,
      });
      expect(imported.code, imported.out + imported.err).toBe(0);
      expect(readdirSync(path.join(cwd, 'contracts')).sort()).toEqual(
        demoFqns.map((fqn) => `${fqn}.odcs.yaml`).sort(),
      );
      // Plain ODCS documents: they validate without a catalog.
      expect((await cli(['validate'], { cwd: cwd })).code).toBe(0);
      const plan = await cli(['plan', '--detailed-exitcode', '--no-color'], { cwd: cwd, env });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out).toContain(`Plan: 0 to change, ${demoFqns.length} unchanged, 0 errors.`);
    },
  );

  it.each(['spec', 'openmetadata'] as const)(
    '%s: export --format odcs of the example files, applied as they are, then planned as ODCS: no changes',
    async (profile) => {
      const { cwd, env } = await sandboxWithFolder(cleanups, { profile });
      await cp(
        path.join(
          root,
          ...(profile === 'openmetadata' ? ['examples', 'openmetadata'] : []),
          'contracts',
        ),
        path.join(cwd, 'contracts'),
        { recursive: true },
      );
      expect((await cli(['apply', '--auto-approve'], { cwd: cwd, env })).code).toBe(0);
      const exported = await cli(['export', '--format', 'odcs', '--out', 'odcs'], { cwd: cwd });
      expect(exported.code, exported.out + exported.err).toBe(0);
      const plan = await cli(['plan', 'odcs', '--detailed-exitcode', '--no-color'], {
        cwd: cwd,
        env,
      });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out).toMatch(/Plan: 0 to change, \d+ unchanged, 0 errors\./);
      // On standard output: one document per file, none of which names a path of this machine.
      const shown = await cli(['export', '--format', 'odcs'], { cwd: cwd });
      expect(shown.out).not.toContain('yaml-language-server');
      expect(shown.out.split('\n---\n').length).toBe(readdirSync(path.join(cwd, 'odcs')).length);
    },
  );
});

describe('what ODCS carries reads back as it was', () => {
  it('any contract: its ODCS document validates against the standard, and reads back to the fields it kept', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
    const duration = fc
      .tuple(fc.integer({ min: 1, max: 90 }), fc.constantFrom('D', 'W', 'M', 'Y', 'TH', 'TM'))
      .map(([n, unit]) => (unit.startsWith('T') ? `PT${n}${unit[1]!}` : `P${n}${unit}`));
    const column = fc.record(
      {
        name,
        dataType: tokenArb,
        description: fc.string({ minLength: 1, maxLength: 20 }),
        constraint: fc.constantFrom('PRIMARY_KEY', 'UNIQUE', 'NOT_NULL'),
      },
      { requiredKeys: ['name', 'dataType'] },
    );
    const contract = fc.record(
      {
        entityStatus: fc.constantFrom('Draft', 'Approved', 'Deprecated'),
        description: fc.string({ minLength: 1, maxLength: 40 }),
        schema: fc.uniqueArray(column, { selector: (c) => c.name, maxLength: 5 }),
        // An empty list reads back as none, as the server reads it.
        owners: fc.uniqueArray(fc.record({ type: fc.constantFrom('user', 'team'), name }), {
          selector: (o) => o.name,
          minLength: 1,
          maxLength: 3,
        }),
        sla: fc.record(
          { refreshFrequency: duration, maxLatency: duration, retention: duration },
          { requiredKeys: ['refreshFrequency'] },
        ),
      },
      { requiredKeys: ['entityStatus'] },
    );
    const validate = odcsValidator();
    fc.assert(
      fc.property(contract, (fields) => {
        const whole = {
          name: 'c',
          fullyQualifiedName: 'db.s.t.dataContract_c',
          entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
          ...fields,
        } as unknown as DesiredContract;
        const { document, leftOut } = toOdcs(whole, { id: 'x', version: '1.0.0' }, 'openmetadata');
        expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
        const back = fromOdcs(JSON.parse(JSON.stringify(document)) as Record<string, unknown>)
          .contract as unknown as Record<string, unknown>;
        const kept = Object.keys(fields).filter(
          (field) => !leftOut.some((reason) => reason.startsWith(`${field} `)),
        );
        for (const field of kept)
          expect(back[field], field).toEqual((fields as Record<string, unknown>)[field]);
        expect(leftOut).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the server's own ODCS export, as the sandbox plays it", () => {
  it("openmetadata: serves each contract's ODCS document (JSON and YAML, by id and by name), and import --format odcs writes what it says", async () => {
    const opened = await sandboxWithFolder(cleanups, { profile: 'openmetadata' });
    const { cwd, env } = opened;
    const token = env.CATALOG_TOKEN;
    const get = async (route: string) => {
      const response = await fetch(`${opened.sandbox.url}/v1/dataContracts/${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text: await response.text(),
      };
    };
    for (const contract of opened.sandbox.store.contracts.values()) {
      const fqn = contract.fullyQualifiedName;
      const byName = await get(`name/${encodeURIComponent(fqn)}/odcs`);
      expect(byName.status).toBe(200);
      const server = JSON.parse(byName.text) as Record<string, unknown>;
      expect(JSON.parse((await get(`${contract.id}/odcs`)).text)).toEqual(server);
      const yaml = await get(`name/${encodeURIComponent(fqn)}/odcs/yaml`);
      expect(yaml.type).toBe('application/yaml');
      expect(load(yaml.text)).toEqual(server);
      const imported = await cli(['import', '--format', 'odcs', '--fqn', fqn, '--force'], {
        cwd: cwd,
        env,
      });
      expect(imported.code, imported.err).toBe(0);
      const ours = load(
        readFileSync(path.join(cwd, 'contracts', `${fqn}.odcs.yaml`), 'utf8'),
      ) as Record<string, unknown>;
      // What both say alike: the server's mapping, read the same.
      expect(ours.status, fqn).toBe(server.status);
      expect(ours.name).toBe(server.name);
      expect(ours.description).toEqual(server.description);
      const columns = (doc: Record<string, unknown>) =>
        (
          (doc.schema as { properties: Record<string, unknown>[] }[] | undefined)?.[0]
            ?.properties ?? []
        ).map((p) => ({
          name: p.name,
          type: String(p.physicalType).replace(/\(.*$/, ''),
          primaryKey: p.primaryKey === true,
          unique: p.unique === true,
          required: p.required === true,
          description: p.description,
        }));
      expect(columns(ours)).toEqual(columns(server));
      const members = (doc: Record<string, unknown>) =>
        (
          (Array.isArray(doc.team)
            ? doc.team
            : (doc.team as { members?: unknown[] } | undefined)?.members) ?? []
        ).map((m) => (m as { username: string }).username);
      expect(members(ours)).toEqual(members(server));
    }
    // The specification's catalogs have no such route.
    const spec = await openSandbox({});
    cleanups.push(() => spec.sandbox.close());
    const response = await fetch(
      `${spec.sandbox.url}/v1/dataContracts/name/warehouse.sales.public.orders.dataContract_orders/odcs`,
      { headers: { authorization: `Bearer ${await spec.token()}` } },
    );
    expect(response.status).toBe(404);
  });
});
