// Conformance of the sandbox with spec/catalog-service.md, over HTTP: every endpoint, every row
// of the error table, every inheritance case, paging under concurrent change, durability.
import { generateKeyPair, SignJWT } from 'jose';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSeed } from '../src/demo-catalog.js';
import type { Sandbox } from '../src/server.js';
import { craftedToken, openSandbox, SECRET, seed, type Client } from './helpers/sandbox.js';

const ORDERS_ASSET = '0a000000-0000-4000-8000-000000000001';
const REFUNDS_ASSET = '0a000000-0000-4000-8000-000000000002';
const MULTI_ASSET = '0a000000-0000-4000-8000-000000000003';
const LONELY_ASSET = '0a000000-0000-4000-8000-000000000004';
const DRAFTEE_ASSET = '0a000000-0000-4000-8000-000000000005';
const EVENTS_ASSET = '0a000000-0000-4000-8000-000000000006';
const ORDERS_CONTRACT = '0c000000-0000-4000-8000-000000000001';
const SHOP_CONTRACT = '0c000000-0000-4000-8000-000000000002';
const DELETED_CONTRACT = '0c000000-0000-4000-8000-000000000003';

const table = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  entityType: 'table',
  name,
  fullyQualifiedName: `warehouse.shop.public.${name}`,
  serviceType: 'Postgres',
  service: { name: 'warehouse' },
  database: { name: 'shop' },
  databaseSchema: { name: 'public' },
  description: `The ${name} table`,
  columns: [
    { name: 'id', dataType: 'BIGINT' },
    { name: 'amount', dataType: 'DECIMAL' },
    { name: 'status', dataType: 'VARCHAR' },
  ],
  tags: [{ tagFQN: 'PII.None' }],
  owners: [{ type: 'user', name: 'alice' }],
  ...extra,
});

const ordersContract = {
  id: ORDERS_CONTRACT,
  name: 'orders',
  fullyQualifiedName: 'warehouse.shop.public.orders.dataContract_orders',
  entity: {
    id: ORDERS_ASSET,
    type: 'table',
    name: 'orders',
    fullyQualifiedName: 'warehouse.shop.public.orders',
  },
  description: 'Orders.',
  entityStatus: 'Active',
  schema: [{ name: 'id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' }],
  semantics: [{ name: 'hasOwner' }],
  owners: [{ type: 'user', name: 'alice' }],
  reviewers: [{ type: 'user', name: 'bob' }],
  extension: { tier: 'gold' },
  version: 0.3,
  updatedAt: 1_700_000_000_000,
  updatedBy: 'alice',
};

const SEED = seed({
  users: [
    { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
    { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
    { name: 'carol', permissions: ['SearchEntities'] },
    { name: 'dave', permissions: ['ViewDataContract'] },
  ],
  assets: [
    table(ORDERS_ASSET, 'orders', { dataProducts: ['shop'] }),
    table(REFUNDS_ASSET, 'refunds', { dataProducts: ['shop'] }),
    table(MULTI_ASSET, 'multi', { dataProducts: ['shop', 'other'] }),
    table(LONELY_ASSET, 'lonely'),
    table(DRAFTEE_ASSET, 'draftee', { dataProducts: ['drafty'] }),
    {
      id: EVENTS_ASSET,
      entityType: 'topic',
      name: 'events',
      fullyQualifiedName: 'kafka.events',
      serviceType: 'Kafka',
      service: { name: 'kafka' },
      columns: [{ name: 'event_id', dataType: 'STRING' }],
      tags: [{ tagFQN: 'Tier.Gold' }],
      owners: [{ type: 'team', name: 'web' }],
    },
  ],
  dataProducts: [
    { name: 'shop', contract: 'shop.dataContract_shop' },
    { name: 'other' },
    { name: 'drafty', contract: 'drafty.dataContract_drafty' },
  ],
  dataContracts: [
    ordersContract,
    {
      id: SHOP_CONTRACT,
      name: 'shop',
      fullyQualifiedName: 'shop.dataContract_shop',
      entity: { type: 'dataProduct', name: 'shop', fullyQualifiedName: 'shop' },
      entityStatus: 'Active',
      schema: [{ name: 'id', dataType: 'BIGINT' }],
      semantics: [{ name: 'hasDescription' }, { name: 'hasOwner', description: 'product rule' }],
      sla: { refreshFrequency: 'P1D', availability: 99 },
      termsOfUse: 'Shop data terms.',
      security: { dataClassification: 'Internal' },
      qualityExpectations: [{ fullyQualifiedName: 'tc.one' }],
      latestResult: { status: 'Success' },
      version: 0.2,
    },
    {
      id: DELETED_CONTRACT,
      name: 'gone',
      fullyQualifiedName: 'warehouse.shop.public.lonely.dataContract_gone',
      entity: { type: 'table', fullyQualifiedName: 'warehouse.other.public.gone' },
      deleted: true,
    },
    {
      name: 'drafty',
      fullyQualifiedName: 'drafty.dataContract_drafty',
      entity: { type: 'dataProduct', fullyQualifiedName: 'drafty' },
      entityStatus: 'Draft',
      termsOfUse: 'Not in force.',
    },
    {
      name: 'slashed',
      fullyQualifiedName: 'kafka.events/v2.dataContract_slashed',
      entity: { id: EVENTS_ASSET, type: 'topic', fullyQualifiedName: 'kafka.events' },
      entityStatus: 'Active',
    },
  ],
});

let sandbox: Sandbox;
let client: Client;
let token: (user?: string) => Promise<string>;
let now = 1_800_000_000_000;

beforeAll(async () => {
  ({ sandbox, client, token } = await openSandbox({
    seed: structuredClone(SEED),
    clock: () => now,
  }));
});
afterAll(async () => {
  await sandbox.close();
});

describe('authentication (spec 5)', () => {
  const path = `/v1/dataContracts/${ORDERS_CONTRACT}`;
  const expect401 = async (auth: string | null, message: RegExp) => {
    const response = await fetch(
      `${sandbox.url}${path}`,
      auth === null ? {} : { headers: { authorization: auth } },
    );
    expect(response.status).toBe(401);
    const body = (await response.json()) as any;
    expect(body).toMatchObject({ code: 401, errorType: 'UNAUTHORIZED' });
    expect(body.message).toMatch(message);
  };

  it('401 without a token', () => expect401(null, /Token not present/));
  it('401 for a header that is not a bearer token', () =>
    expect401('Basic YWxpY2U6eA==', /Token not present/));
  it('401 for a malformed token', () => expect401('Bearer not.a.jwt', /Invalid token/));
  it('401 for a token signed with another secret', async () =>
    expect401(`Bearer ${await craftedToken({ sub: 'alice' }, 'wrong')}`, /Invalid token/));
  it('401 for alg none', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    await expect401(
      `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: 'alice', iss: 'contracts-sandbox' })}.`,
      /Invalid token/,
    );
  });
  it('401 for an RS256 token (no HS/RS confusion)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('alice')
      .setIssuer('contracts-sandbox')
      .sign(privateKey);
    await expect401(`Bearer ${rs}`, /Invalid token/);
  });
  it('401 for an expired token', async () =>
    expect401(
      `Bearer ${await craftedToken({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 })}`,
      /Expired token/,
    ));
  it('401 for a token not valid yet', async () =>
    expect401(
      `Bearer ${await craftedToken({ sub: 'alice', nbf: Math.floor(Date.now() / 1000) + 3600 })}`,
      /Invalid token/,
    ));
  it('401 for a token without an expiry, which would be good forever', async () => {
    const unbounded = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuer('contracts-sandbox')
      .setIssuedAt()
      .sign(new TextEncoder().encode(SECRET));
    await expect401(`Bearer ${unbounded}`, /Invalid token/);
  });
  it('401 for an unknown user', async () =>
    expect401(`Bearer ${await craftedToken({ sub: 'mallory' })}`, /Invalid token/));
});

describe('contracts by id and by name (4.1, 4.2)', () => {
  it('returns a seeded contract exactly as given, without owners, reviewers and extension', async () => {
    const { status, body } = await client.get(`/v1/dataContracts/${ORDERS_CONTRACT}`);
    expect(status).toBe(200);
    const { owners: _o, reviewers: _r, extension: _e, ...rest } = ordersContract;
    expect(body).toEqual(rest);
  });

  it('adds owners, reviewers and extension when fields asks for them', async () => {
    const { body } = await client.get(
      `/v1/dataContracts/name/${encodeURIComponent(ordersContract.fullyQualifiedName)}?fields=owners,reviewers,extension`,
    );
    expect(body).toEqual(ordersContract);
    const ownersOnly = await client.get(`/v1/dataContracts/${ORDERS_CONTRACT}?fields=owners`);
    expect(ownersOnly.body.owners).toEqual(ordersContract.owners);
    expect(ownersOnly.body.reviewers).toBeUndefined();
  });

  it('400 for a field it does not know', async () => {
    const { status, body } = await client.get(
      `/v1/dataContracts/${ORDERS_CONTRACT}?fields=owners,bogus`,
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, errorType: 'BAD_REQUEST' });
  });

  it('finds an FQN holding a slash as one encoded path segment', async () => {
    const { status, body } = await client.get(
      `/v1/dataContracts/name/${encodeURIComponent('kafka.events/v2.dataContract_slashed')}`,
    );
    expect(status).toBe(200);
    expect(body.name).toBe('slashed');
  });

  it('404 NOT_FOUND with the catalog message', async () => {
    for (const path of [
      '/v1/dataContracts/0c000000-0000-4000-8000-00000000ffff',
      '/v1/dataContracts/name/no.such.contract',
    ]) {
      const { status, body } = await client.get(path);
      expect(status).toBe(404);
      expect(body).toEqual({
        code: 404,
        errorType: 'NOT_FOUND',
        message: `dataContract instance for ${path.split('/').pop()!} not found`,
      });
    }
  });

  it('honours include for deleted contracts', async () => {
    expect((await client.get(`/v1/dataContracts/${DELETED_CONTRACT}`)).status).toBe(404);
    expect((await client.get(`/v1/dataContracts/${DELETED_CONTRACT}?include=all`)).status).toBe(
      200,
    );
    expect((await client.get(`/v1/dataContracts/${DELETED_CONTRACT}?include=deleted`)).status).toBe(
      200,
    );
    expect((await client.get(`/v1/dataContracts/${ORDERS_CONTRACT}?include=deleted`)).status).toBe(
      404,
    );
    expect((await client.get(`/v1/dataContracts/${ORDERS_CONTRACT}?include=some`)).status).toBe(
      400,
    );
  });

  it('403 FORBIDDEN without ViewDataContract, for every read', async () => {
    const carol = await token('carol');
    for (const path of [
      `/v1/dataContracts/${ORDERS_CONTRACT}`,
      `/v1/dataContracts/name/${ordersContract.fullyQualifiedName}`,
      `/v1/dataContracts/entity?entityId=${ORDERS_ASSET}&entityType=table`,
    ]) {
      const { status, body } = await client.get(path, carol);
      expect(status).toBe(403);
      expect(body).toMatchObject({ code: 403, errorType: 'FORBIDDEN' });
      expect(body.message).toMatch(/^Principal: .*carol.* not allowed$/);
    }
  });
});

describe('effective contract (4.3)', () => {
  const effective = (assetId: string, type = 'table', extra = '') =>
    client.get(`/v1/dataContracts/entity?entityId=${assetId}&entityType=${type}${extra}`);

  it('an asset without a contract inherits a copy of its product contract', async () => {
    const { status, body } = await effective(REFUNDS_ASSET);
    expect(status).toBe(200);
    expect(body.inherited).toBe(true);
    expect(body.entityStatus).toBe('Draft');
    expect(body.entity).toEqual({
      id: REFUNDS_ASSET,
      type: 'table',
      name: 'refunds',
      fullyQualifiedName: 'warehouse.shop.public.refunds',
    });
    expect(body.schema).toBeUndefined();
    expect(body.qualityExpectations).toBeUndefined();
    expect(body.latestResult).toBeUndefined();
    expect(body.sla).toEqual({ refreshFrequency: 'P1D', availability: 99, inherited: true });
    expect(body.security).toEqual({ dataClassification: 'Internal', inherited: true });
    expect(body.termsOfUse).toBe('Shop data terms.');
    expect(body.semantics).toEqual([
      { name: 'hasDescription', inherited: true },
      { name: 'hasOwner', description: 'product rule', inherited: true },
    ]);
  });

  it('an asset with its own contract takes only what it lacks, product rules first', async () => {
    const { body } = await effective(ORDERS_ASSET);
    expect(body.inherited).toBe(false);
    expect(body.id).toBe(ORDERS_CONTRACT);
    expect(body.termsOfUse).toBe('Shop data terms.');
    expect(body.sla).toEqual({ refreshFrequency: 'P1D', availability: 99, inherited: true });
    expect(body.semantics).toEqual([
      { name: 'hasDescription', inherited: true },
      { name: 'hasOwner' },
    ]);
    expect(body.schema).toEqual(ordersContract.schema);
    expect(body.owners).toBeUndefined();
    expect((await effective(ORDERS_ASSET, 'table', '&fields=owners')).body.owners).toEqual(
      ordersContract.owners,
    );
  });

  it('an asset in two products inherits nothing', async () => {
    expect((await effective(MULTI_ASSET)).status).toBe(404);
  });

  it('a product contract that is not in force is not inherited', async () => {
    expect((await effective(DRAFTEE_ASSET)).status).toBe(404);
  });

  it('an asset with no contract either way is 404', async () => {
    const { status, body } = await effective(LONELY_ASSET);
    expect(status).toBe(404);
    expect(body.errorType).toBe('NOT_FOUND');
  });

  it('an asset with its own contract and no product gets its own as is', async () => {
    const { body } = await effective(EVENTS_ASSET, 'topic');
    expect(body.name).toBe('slashed');
    expect(body.inherited).toBe(false);
  });

  it('400 without entityId or entityType; 404 for an unknown asset', async () => {
    expect((await client.get('/v1/dataContracts/entity?entityType=table')).status).toBe(400);
    expect((await client.get(`/v1/dataContracts/entity?entityId=${ORDERS_ASSET}`)).status).toBe(
      400,
    );
    expect((await effective('0a000000-0000-4000-8000-0000000000ff')).status).toBe(404);
    expect((await effective(ORDERS_ASSET, 'topic')).status).toBe(404);
  });
});

describe('PATCH (4.4)', () => {
  const patchOrders = (body: unknown, options?: { token?: string; contentType?: string }) =>
    client.patch(`/v1/dataContracts/${ORDERS_CONTRACT}`, body, options);
  const current = async () =>
    (await client.get(`/v1/dataContracts/${ORDERS_CONTRACT}?fields=owners,reviewers,extension`))
      .body;

  it('415 unless the content type is application/json-patch+json', async () => {
    const { status, body } = await patchOrders(
      [{ op: 'replace', path: '/description', value: 'x' }],
      { contentType: 'application/json' },
    );
    expect(status).toBe(415);
    expect(body.errorType).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('replaces the status, reports it in fieldsUpdated and bumps version, updatedAt and updatedBy', async () => {
    const before = await current();
    now += 1000;
    const { status, body } = await patchOrders([
      { op: 'replace', path: '/entityStatus', value: 'Deprecated' },
    ]);
    expect(status).toBe(200);
    expect(body.entityStatus).toBe('Deprecated');
    expect(body.version).toBe(Math.round((before.version + 0.1) * 10) / 10);
    expect(body.updatedAt).toBe(now);
    expect(body.updatedBy).toBe('alice');
    expect(body.changeDescription).toEqual({
      fieldsAdded: [],
      fieldsUpdated: [{ name: 'entityStatus', oldValue: 'Active', newValue: 'Deprecated' }],
      fieldsDeleted: [],
      previousVersion: before.version,
    });
    expect((await current()).entityStatus).toBe('Deprecated');
  });

  it('reports list items added and deleted as JSON strings', async () => {
    const added = await patchOrders([
      { op: 'add', path: '/semantics/-', value: { name: 'hasTags' } },
    ]);
    expect(added.body.changeDescription.fieldsAdded).toEqual([
      { name: 'semantics', newValue: '{"name":"hasTags"}' },
    ]);
    const removed = await patchOrders([{ op: 'remove', path: '/semantics/1' }]);
    expect(removed.body.changeDescription.fieldsDeleted).toEqual([
      { name: 'semantics', oldValue: '{"name":"hasTags"}' },
    ]);
  });

  it('keeps version, updatedAt and updatedBy when nothing changes', async () => {
    const before = await current();
    now += 1000;
    const { body } = await patchOrders([
      { op: 'replace', path: '/description', value: before.description },
    ]);
    expect([body.version, body.updatedAt, body.updatedBy]).toEqual([
      before.version,
      before.updatedAt,
      before.updatedBy,
    ]);
  });

  it('restores server-owned fields and drops href operations', async () => {
    const before = await current();
    const { status, body } = await patchOrders([
      { op: 'replace', path: '/id', value: 'other' },
      { op: 'replace', path: '/name', value: 'renamed' },
      { op: 'replace', path: '/fullyQualifiedName', value: 'x.y' },
      { op: 'replace', path: '/version', value: 99 },
      { op: 'add', path: '/href', value: 'http://evil' },
    ]);
    expect(status).toBe(200);
    expect([body.id, body.name, body.fullyQualifiedName, body.version, body.href]).toEqual([
      before.id,
      before.name,
      before.fullyQualifiedName,
      before.version,
      undefined,
    ]);
  });

  it('400 when setting deleted', async () => {
    const { status, body } = await patchOrders([{ op: 'add', path: '/deleted', value: true }]);
    expect(status).toBe(400);
    expect(body.message).toMatch(/deleted cannot be changed/);
  });

  it('400 naming the operation for a body that is not valid RFC 6902', async () => {
    const cases: [unknown, RegExp][] = [
      [{ op: 'replace' }, /JSON array/],
      [
        [
          { op: 'replace', path: '/description', value: 'a' },
          { op: 'jump', path: '/x' },
        ],
        /operation 1 is invalid: op must be one of/,
      ],
      [
        [{ op: 'add', path: 'description', value: 'a' }],
        /operation 0 is invalid: path must be a JSON Pointer/,
      ],
      [[{ op: 'replace', path: '/description' }], /operation 0 is invalid: replace needs a value/],
      [[{ op: 'move', path: '/description' }], /operation 0 is invalid: move needs from/],
      [[{ op: 'add', path: '/__proto__/x', value: 1 }], /must not name __proto__/],
      [
        [{ op: 'replace', path: '/description~2', value: 'a' }],
        /operation 0 is invalid: \/description~2 is not a JSON Pointer: ~ must be followed by 0 or 1/,
      ],
      [
        [{ op: 'move', from: '/schema', path: '/schema/0/inner' }],
        /operation 0 \(move from \/schema to \/schema\/0\/inner\): a value cannot be moved into itself/,
      ],
      [
        [{ op: 'move', from: '/nothing', path: '/description' }],
        /operation 0 \(move from \/nothing\): there is no value at \/nothing/,
      ],
      [
        [
          {
            op: 'add',
            path: '/extension',
            value: JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`),
          },
        ],
        /operation 0 is invalid: its value nests deeper than 64 levels/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await patchOrders(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, errorType: 'BAD_REQUEST' });
      expect(response.body.message).toMatch(message);
    }
  });

  it('applies all operations or none', async () => {
    const before = await current();
    const { status, body } = await patchOrders([
      { op: 'replace', path: '/description', value: 'changed' },
      { op: 'remove', path: '/semantics/7' },
    ]);
    expect(status).toBe(400);
    expect(body.message).toMatch(/^operation 1 \(remove \/semantics\/7\) cannot be applied/);
    expect(await current()).toEqual(before);
  });

  it('400 for a status outside the three values', async () => {
    const { status, body } = await patchOrders([
      { op: 'replace', path: '/entityStatus', value: 'Approved' },
    ]);
    expect(status).toBe(400);
    expect(body.message).toMatch(/entityStatus must be one of \[Draft, Active, Deprecated\]/);
  });

  it('400 "Schema validation failed" for columns the asset lacks', async () => {
    const { status, body } = await patchOrders([
      { op: 'add', path: '/schema/-', value: { name: 'ghost', dataType: 'INT' } },
    ]);
    expect(status).toBe(400);
    expect(body.message).toBe(
      'Schema validation failed. The following fields specified in the data contract do not exist in the table: ghost',
    );
  });

  it('403 without EditDataContract, 401 without a token, 404 for an unknown contract', async () => {
    const op = [{ op: 'replace', path: '/description', value: 'x' }];
    const forbidden = await patchOrders(op, { token: await token('bob') });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errorType).toBe('FORBIDDEN');
    const response = await fetch(`${sandbox.url}/v1/dataContracts/${ORDERS_CONTRACT}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify(op),
    });
    expect(response.status).toBe(401);
    const missing = await client.patch(
      '/v1/dataContracts/0c000000-0000-4000-8000-00000000ffff',
      op,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.errorType).toBe('NOT_FOUND');
  });

  it('400 for malformed JSON and 413 for a body over 1 MiB', async () => {
    expect((await patchOrders('[{"op":')).status).toBe(400);
    const huge = await patchOrders([
      { op: 'replace', path: '/description', value: 'x'.repeat(1024 * 1024) },
    ]);
    expect(huge.status).toBe(413);
    expect(huge.body.errorType).toBe('PAYLOAD_TOO_LARGE');
  });

  it('never loses an update under concurrent PATCHes', async () => {
    const before = await current();
    const rules = Array.from({ length: 25 }, (_, i) => ({ name: `rule_${i}` }));
    const results = await Promise.all(
      rules.map((rule) => patchOrders([{ op: 'add', path: '/semantics/-', value: rule }])),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = await current();
    expect(after.semantics.map((r: { name: string }) => r.name).sort()).toEqual(
      [
        ...before.semantics.map((r: { name: string }) => r.name),
        ...rules.map((r) => r.name),
      ].sort(),
    );
    expect(after.version).toBe(Math.round((before.version + 2.5) * 10) / 10);
  });
});

describe('field query search (4.5)', () => {
  const search = (query: string) => client.get(`/v1/search/fieldQuery?${query}`);

  it('answers in the search engine shape with wildcard matches over nested arrays', async () => {
    const { status, body } = await search(
      'fieldName=columns.name&fieldValue=am*&index=table_search_index',
    );
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['_shards', 'hits', 'timed_out', 'took']);
    expect(body._shards).toEqual({ total: 1, successful: 1, failed: 0, skipped: 0 });
    expect(body.timed_out).toBe(false);
    expect(body.hits.total).toEqual({ value: 5, relation: 'eq' });
    expect(body.hits.hits).toHaveLength(5);
    const hit = body.hits.hits[0];
    expect(Object.keys(hit).sort()).toEqual(['_id', '_index', '_score', '_source']);
    expect(hit._index).toBe('table_search_index');
    expect(hit._source.columns[1]).toEqual({
      name: 'amount',
      dataType: 'DECIMAL',
      fullyQualifiedName: `${hit._source.fullyQualifiedName}.amount`,
    });
    const names = body.hits.hits.map(
      (h: { _source: { fullyQualifiedName: string } }) => h._source.fullyQualifiedName,
    );
    expect(names).toEqual([...names].sort());
  });

  it('supports ?, tags, owners and service fields, and pages with from and size', async () => {
    expect(
      (await search('fieldName=columns.name&fieldValue=st?tus&index=table_search_index')).body.hits
        .total.value,
    ).toBe(5);
    expect(
      (await search('fieldName=tags.tagFQN&fieldValue=Tier.*&index=topic_search_index')).body.hits
        .total.value,
    ).toBe(1);
    expect(
      (await search('fieldName=owners.name&fieldValue=web&index=topic_search_index')).body.hits
        .total.value,
    ).toBe(1);
    expect(
      (
        await search(
          'fieldName=fullyQualifiedName&fieldValue=warehouse.shop.public.orders&index=table_search_index',
        )
      ).body.hits.hits[0]._id,
    ).toBe(ORDERS_ASSET);
    const page = await search(
      'fieldName=service.name&fieldValue=warehouse&index=table_search_index&from=2&size=2',
    );
    expect(page.body.hits.total.value).toBe(5);
    expect(page.body.hits.hits.map((h: { _source: { name: string } }) => h._source.name)).toEqual([
      'multi',
      'orders',
    ]);
    expect(
      (await search('fieldName=columns.name&fieldValue=zzz&index=table_search_index')).body.hits,
    ).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
  });

  it('400 for missing parameters, unknown indexes, invalid field paths and oversized windows', async () => {
    for (const query of [
      'fieldValue=a&index=table_search_index',
      'fieldName=columns.name&index=table_search_index',
      'fieldName=columns.name&fieldValue=a',
      'fieldName=columns.name&fieldValue=a&index=nope_index',
      'fieldName=columns.name&fieldValue=a&index=topic_search_index',
      'fieldName=database.name&fieldValue=a&index=dashboard_search_index',
      'fieldName=secret.field&fieldValue=a&index=table_search_index',
      'fieldName=name&fieldValue=a&index=table_search_index&size=10001',
      'fieldName=name&fieldValue=a&index=table_search_index&from=9999&size=2',
      'fieldName=name&fieldValue=a&index=table_search_index&size=ten',
    ]) {
      const { status, body } = await search(query);
      expect(status, query).toBe(400);
      expect(body.errorType).toBe('BAD_REQUEST');
    }
    expect(
      (await search('fieldName=columns.name&fieldValue=a&index=topic_search_index')).body.message,
    ).toMatch(/invalid field path/);
  });

  it('403 without SearchEntities; 401 without a token', async () => {
    const q = '/v1/search/fieldQuery?fieldName=name&fieldValue=*&index=table_search_index';
    const forbidden = await client.get(q, await token('dave'));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errorType).toBe('FORBIDDEN');
    expect((await client.get(q, null)).status).toBe(401);
  });

  it('answers exact and prefix queries from its index exactly as a full scan does', async () => {
    const ids = async (field: string, value: string, index = 'table_search_index') =>
      (
        await search(
          `fieldName=${field}&fieldValue=${encodeURIComponent(value)}&index=${index}&size=100`,
        )
      ).body.hits.hits.map((h: { _id: string }) => h._id);
    // The second pattern of each pair has a `?`, which forces the scan.
    for (const [indexed, scanned] of [
      ['warehouse.shop.public.*', 'warehouse.shop.publi?.*'],
      ['WAREHOUSE.SHOP.*', 'WAREHOUSE.SHO?.*'],
      ['warehouse.shop.public.orders', 'warehouse.shop.public.order?'],
      ['nothing.here*', 'nothing.her?*'],
    ] as const) {
      expect(await ids('fullyQualifiedName', indexed)).toEqual(
        await ids('fullyQualifiedName', scanned),
      );
    }
    expect(await ids('name', 'or*')).toEqual(await ids('name', 'o?*'));
    expect(await ids('fullyQualifiedName', 'warehouse.shop.public.*')).toHaveLength(5);
    expect(await ids('fullyQualifiedName', 'kafka.*', 'topic_search_index')).toEqual([
      EVENTS_ASSET,
    ]);
  });

  it('answers with the asset as it is now, after it is replaced, added or removed', async () => {
    const own = await openSandbox({ seed: structuredClone(SEED) });
    try {
      const query = (fqn: string) =>
        own.client.get(
          `/v1/search/fieldQuery?fieldName=fullyQualifiedName&fieldValue=${encodeURIComponent(fqn)}&index=table_search_index`,
        );
      const before = (await query('warehouse.shop.public.orders')).body.hits.hits[0];
      const columns = before._source.columns.map((c: { name: string }) => c.name);
      expect(columns).toContain('amount');
      const replaced = await own.client.admin('POST', '/sandbox/assets', {
        ...own.sandbox.store.assets.get(before._id),
        columns: [{ name: 'order_id', dataType: 'BIGINT' }],
      });
      expect(replaced.status).toBe(201);
      const after = (await query('warehouse.shop.public.orders')).body.hits.hits[0];
      expect(after._source.columns).toEqual([
        {
          name: 'order_id',
          dataType: 'BIGINT',
          fullyQualifiedName: 'warehouse.shop.public.orders.order_id',
        },
      ]);
      expect((await own.client.admin('DELETE', `/sandbox/assets/${before._id}`)).status).toBe(204);
      expect((await query('warehouse.shop.public.orders')).body.hits.total.value).toBe(0);
    } finally {
      await own.sandbox.close();
    }
  });

  it('the general search finds assets by text', async () => {
    const { status, body } = await client.get(
      '/v1/search/query?q=refunds&index=table_search_index',
    );
    expect(status).toBe(200);
    expect(body.hits.hits.map((h: { _id: string }) => h._id)).toEqual([REFUNDS_ASSET]);
  });
});

describe('tables list and cursor pagination (4.6)', () => {
  let demo: Awaited<ReturnType<typeof openSandbox>>;
  beforeAll(async () => {
    demo = await openSandbox();
  });
  afterAll(async () => {
    await demo.sandbox.close();
  });

  const pageThrough = async (
    limit: number,
    between?: (page: number) => Promise<void>,
    extra = '',
  ): Promise<string[]> => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 100; page++) {
      const { status, body } = await demo.client.get(
        `/v1/tables?limit=${limit}${extra}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`,
      );
      expect(status).toBe(200);
      seen.push(...body.data.map((t: { id: string }) => t.id));
      if (page === 0) expect(body.paging.before).toBeUndefined();
      after = body.paging.after;
      if (after === undefined || body.data.length === 0) return seen;
      await between?.(page);
    }
    throw new Error('paging did not end');
  };

  it('defaults to 10 rows, counts all matches in paging.total and visits every table once', async () => {
    const first = await demo.client.get('/v1/tables');
    expect(first.body.data).toHaveLength(10);
    const total = first.body.paging.total as number;
    const names = first.body.data.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort());
    const seen = await pageThrough(7);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('goes back with before, and the first page has no before', async () => {
    const first = await demo.client.get('/v1/tables?limit=5');
    const second = await demo.client.get(`/v1/tables?limit=5&after=${first.body.paging.after}`);
    expect(second.body.paging.before).toBeDefined();
    const back = await demo.client.get(`/v1/tables?limit=5&before=${second.body.paging.before}`);
    expect(back.body.data).toEqual(first.body.data);
    expect(back.body.paging.before).toBeUndefined();
    expect(back.body.paging.after).toBe(first.body.paging.after);
  });

  it('400 for both cursors, a forged or corrupt cursor and a limit out of bounds', async () => {
    const first = await demo.client.get('/v1/tables?limit=5');
    const cursor = first.body.paging.after as string;
    const forged = Buffer.from(
      JSON.stringify({ name: 'carts', id: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as {
      name: string;
      id: string;
      mac: string;
    };
    const tampered = Buffer.from(JSON.stringify({ ...decoded, name: 'zzz' })).toString('base64url');
    for (const query of [
      `after=${cursor}&before=${cursor}`,
      `after=${forged}`,
      `after=${tampered}`,
      'after=%%%',
      'before=bm90LWpzb24',
      'limit=0',
      'limit=1001',
      'limit=-3',
      'limit=abc',
    ]) {
      const { status, body } = await demo.client.get(`/v1/tables?${query}`);
      expect(status, query).toBe(400);
      expect(body.errorType).toBe('BAD_REQUEST');
    }
    expect((await demo.client.get('/v1/tables?limit=1001')).body.message).toMatch(
      /less than or equal to 1000/,
    );
    expect((await demo.client.get('/v1/tables?limit=1000')).status).toBe(200);
  });

  it('combines the database filter with paging', async () => {
    const all = await pageThrough(3, undefined, '&database=warehouse.finance');
    const { body } = await demo.client.get('/v1/tables?limit=3&database=warehouse.finance');
    expect(all).toHaveLength(body.paging.total);
    expect(body.paging.total).toBe(8);
    const rows = await demo.client.get('/v1/tables?limit=100&database=warehouse.finance');
    expect(
      rows.body.data.every(
        (t: { database: { fullyQualifiedName: string } }) =>
          t.database.fullyQualifiedName === 'warehouse.finance',
      ),
    ).toBe(true);
  });

  it('includes extra fields only when asked, and rejects unknown ones', async () => {
    const plain = await demo.client.get('/v1/tables?limit=1');
    expect(plain.body.data[0].columns).toBeUndefined();
    const rich = await demo.client.get('/v1/tables?limit=1&fields=columns,tags,owner');
    expect(rich.body.data[0].columns.length).toBeGreaterThan(0);
    expect(rich.body.data[0].tags).toBeDefined();
    expect(rich.body.data[0].owners).toBeDefined();
    expect((await demo.client.get('/v1/tables?fields=secrets')).status).toBe(400);
  });

  it('needs an authenticated user, but no permission', async () => {
    expect((await demo.client.get('/v1/tables', null)).status).toBe(401);
    expect((await demo.client.get('/v1/tables', await demo.token('carol'))).status).toBe(200);
  });

  it('never skips or repeats a row that exists throughout, while rows come and go', async () => {
    const before = await pageThrough(1000);
    const stable = new Set(before.slice(1));
    const victim = before[0]!;
    let n = 0;
    const seen = await pageThrough(4, async (page) => {
      // Between pages: add two tables whose names sort before and after the cursor, and delete one.
      for (const name of [`aaa_new_${page}`, `zzz_new_${page}`]) {
        const id = `0e000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
        const added = await demo.client.admin('POST', '/sandbox/assets', {
          id,
          entityType: 'table',
          name,
          fullyQualifiedName: `warehouse.tmp.public.${name}`,
          service: { name: 'warehouse' },
          database: { name: 'tmp' },
          databaseSchema: { name: 'public' },
        });
        expect(added.status).toBe(201);
      }
      if (page === 2)
        expect((await demo.client.admin('DELETE', `/sandbox/assets/${victim}`)).status).toBe(204);
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of stable) expect(seen.filter((s) => s === id)).toHaveLength(1);
  });
});

describe('routes and errors (spec 7)', () => {
  it('404 JSON for unknown routes and 405 for a wrong method', async () => {
    const unknown = await client.get('/v1/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, errorType: 'NOT_FOUND' });
    const outside = await client.get('/elsewhere');
    expect(outside.body.errorType).toBe('NOT_FOUND');
    const wrong = await fetch(`${sandbox.url}/v1/tables`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(wrong.status).toBe(405);
    expect(((await wrong.json()) as any).errorType).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('the demo catalog', () => {
  it('is what `sandbox serve` serves without --seed, with over 25 tables to page through', async () => {
    const demo = await openSandbox();
    try {
      const { body } = await demo.client.get('/v1/tables?limit=1');
      expect(body.paging.total).toBeGreaterThan(25);
      const product = demoSeed().dataProducts[0]!;
      expect(
        (await demo.client.get(`/v1/dataContracts/name/${encodeURIComponent(product.contract!)}`))
          .status,
      ).toBe(200);
    } finally {
      await demo.sandbox.close();
    }
  });
});

describe('durability with --data', () => {
  it('serves acknowledged changes after a restart, from a file that is always whole', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-data-'));
    const dataFile = path.join(dir, 'state.json');
    const first = await openSandbox({ seed: structuredClone(SEED), dataFile });
    const patched = await first.client.patch(`/v1/dataContracts/${ORDERS_CONTRACT}`, [
      { op: 'replace', path: '/description', value: 'kept across restarts' },
    ]);
    expect(patched.status).toBe(200);
    expect(
      JSON.parse(readFileSync(dataFile, 'utf8')).dataContracts.find(
        (c: { id: string }) => c.id === ORDERS_CONTRACT,
      ).description,
    ).toBe('kept across restarts');
    await first.sandbox.close();
    const second = await openSandbox({ seed: demoSeed(), dataFile });
    try {
      const { body } = await second.client.get(`/v1/dataContracts/${ORDERS_CONTRACT}`);
      expect(body.description).toBe('kept across restarts');
      expect(body.version).toBe(patched.body.version);
    } finally {
      await second.sandbox.close();
    }
  });
});
