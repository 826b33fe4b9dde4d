// OpenMetadata's permissions and types API as the sandbox plays them (PermissionsResource,
// TypeResource.addOrUpdateProperty in 1.12.6): what each seed user is answered, who may define a
// custom property, the errors, and a defined property then taken in a contract's extension.
import { afterEach, describe, expect, it } from 'vitest';
import { openSandbox, seed } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const CONTRACT_ID = '4c000000-0000-4000-8000-000000000001';

async function catalog(profile: 'spec' | 'openmetadata' = 'openmetadata') {
  const opened = await openSandbox({
    profile,
    seed: seed({
      users: [
        { name: 'bob', permissions: ['ViewDataContract'] },
        {
          name: 'alice',
          permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
          denyEdit: ['db.s.t.dataContract_t'],
        },
        { name: 'root', admin: true, permissions: [] },
      ],
      assets: [
        {
          id: '4a000000-0000-4000-8000-000000000001',
          entityType: 'table',
          name: 't',
          fullyQualifiedName: 'db.s.t',
          columns: [],
        },
      ],
      dataProducts: [],
      dataContracts: [
        {
          id: CONTRACT_ID,
          name: 't',
          fullyQualifiedName: 'db.s.t.dataContract_t',
          entity: {
            id: '4a000000-0000-4000-8000-000000000001',
            type: 'table',
            name: 't',
            fullyQualifiedName: 'db.s.t',
          },
        },
      ],
    }),
  });
  closers.push(() => opened.sandbox.close());
  const send = async (method: string, path: string, user: string, body?: unknown) => {
    const response = await fetch(`${opened.sandbox.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await opened.token(user)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return { ...opened, send };
}

const access = (
  body: { permissions: { operation: string; access: string }[] },
  operation: string,
) => body.permissions.find((permission) => permission.operation === operation)?.access;

describe('GET /v1/permissions', () => {
  it('answers each user what the seed gives, an admin everything, a resource policy its deny', async () => {
    const { send } = await catalog();
    const bob = await send('GET', '/v1/permissions/dataContract', 'bob');
    expect(bob.status).toBe(200);
    expect(bob.body.resource).toBe('dataContract');
    expect(access(bob.body, 'ViewAll')).toBe('allow');
    expect(access(bob.body, 'EditAll')).toBe('notAllow');
    expect(access(bob.body, 'Create')).toBe('notAllow');
    const alice = await send('GET', '/v1/permissions/dataContract', 'alice');
    expect(access(alice.body, 'EditAll')).toBe('allow');
    expect(access(alice.body, 'Delete')).toBe('notAllow');
    const named = await send(
      'GET',
      '/v1/permissions/dataContract/name/db.s.t.dataContract_t',
      'alice',
    );
    expect(access(named.body, 'EditAll')).toBe('deny');
    const byId = await send('GET', `/v1/permissions/dataContract/${CONTRACT_ID}`, 'alice');
    expect(access(byId.body, 'EditAll')).toBe('deny');
    const root = await send('GET', '/v1/permissions', 'root');
    expect(root.body.data.length).toBeGreaterThan(2);
    for (const resource of root.body.data)
      expect(resource.permissions.every((p: { access: string }) => p.access === 'allow')).toBe(
        true,
      );
    expect(await send('GET', '/v1/permissions/nothing', 'bob')).toMatchObject({
      status: 400,
      body: { message: 'Resource type nothing not found' },
    });
  });

  it('is not served by a catalog of the spec profile', async () => {
    const { send } = await catalog('spec');
    expect((await send('GET', '/v1/permissions/dataContract', 'bob')).status).toBe(404);
  });
});

describe('PUT /v1/metadata/types/{id}', () => {
  it('defines a custom property for an admin alone, then a contract may hold it', async () => {
    const { send, client, token } = await catalog();
    const contractType = await send('GET', '/v1/metadata/types/name/dataContract', 'bob');
    const stringType = await send('GET', '/v1/metadata/types/name/string', 'bob');
    expect(stringType.body).toMatchObject({ name: 'string', category: 'field' });
    const property = {
      name: 'managedBy',
      description: 'who manages it',
      propertyType: { id: stringType.body.id, type: 'type' },
    };
    const path = `/v1/metadata/types/${contractType.body.id}`;
    expect(await send('PUT', path, 'alice', property)).toMatchObject({
      status: 403,
      body: {
        message: "Principal: CatalogPrincipal{name='alice'} operations [Create] not allowed",
      },
    });
    expect(
      (await send('PUT', `/v1/metadata/types/${stringType.body.id}`, 'root', property)).status,
    ).toBe(400);
    expect((await send('PUT', path, 'root', { ...property, description: undefined })).status).toBe(
      400,
    );
    expect(
      (
        await send('PUT', path, 'root', {
          ...property,
          propertyType: { id: CONTRACT_ID, type: 'type' },
        })
      ).status,
    ).toBe(404);
    const defined = await send('PUT', path, 'root', property);
    expect(defined.status).toBe(200);
    expect(defined.body.customProperties).toEqual([
      expect.objectContaining({
        name: 'managedBy',
        propertyType: expect.objectContaining({ name: 'string' }),
      }),
    ]);
    expect(defined.body.updatedBy).toBe('root');
    // The property defined, a contract's extension may hold it.
    const patched = await client.patch(
      `/v1/dataContracts/${CONTRACT_ID}`,
      [{ op: 'add', path: '/extension', value: { managedBy: 'here' } }],
      { token: await token('root') },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.extension).toEqual({ managedBy: 'here' });
  });
});
