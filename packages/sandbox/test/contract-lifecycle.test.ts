// Deleting and restoring data contracts in the sandbox, as OpenMetadata's endpoints do, under both
// profiles: soft by default (kept, deleted, a version of its own, found with include=deleted),
// restored with PUT /restore, hard with hardDelete=true (gone, its name free); only a user who may
// delete may.
import { afterEach, describe, expect, it } from 'vitest';
import { openSandbox } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'warehouse.sales.public.orders.dataContract_orders';

describe('deleting and restoring a contract', () => {
  it.each(['spec', 'openmetadata'] as const)(
    '%s: soft delete, found only with include=deleted; restore; hard delete by name, gone whatever is included',
    async (profile) => {
      const opened = await openSandbox({ profile });
      cleanups.push(() => opened.sandbox.close());
      const { client, sandbox } = opened;
      const send = async (method: string, path: string, body?: unknown, user = 'alice') => {
        const response = await fetch(`${sandbox.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${await opened.token(user)}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return {
          status: response.status,
          body: text === '' ? undefined : JSON.parse(text),
        };
      };
      const live = (await client.get(`/v1/dataContracts/name/${FQN}`)).body as {
        id: string;
        version: number;
      };
      // One who may only edit may not delete.
      expect((await send('DELETE', `/v1/dataContracts/${live.id}`, undefined, 'bob')).status).toBe(
        403,
      );
      const deleted = await send('DELETE', `/v1/dataContracts/${live.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({
        deleted: true,
        version: Math.round((live.version + 0.1) * 10) / 10,
        changeDescription: {
          fieldsUpdated: [{ name: 'deleted', oldValue: false, newValue: true }],
        },
      });
      expect((await client.get(`/v1/dataContracts/name/${FQN}`)).status).toBe(404);
      expect(
        (await client.get(`/v1/dataContracts/name/${FQN}?include=deleted`)).body,
      ).toMatchObject({
        id: live.id,
        deleted: true,
      });
      // Deleted once, softly: not again.
      expect((await send('DELETE', `/v1/dataContracts/${live.id}`)).status).toBe(404);
      const restored = await send('PUT', '/v1/dataContracts/restore', { id: live.id });
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ deleted: false });
      expect((await client.get(`/v1/dataContracts/name/${FQN}`)).body).toMatchObject({
        id: live.id,
      });
      // As OpenMetadata: restoring a contract that is not deleted, or an id of none, fails on
      // the server (500); a body without an id is a 400.
      const again = await send('PUT', '/v1/dataContracts/restore', { id: live.id });
      expect(again.status).toBe(500);
      expect(again.body).toMatchObject({ errorType: 'UNHANDLED_SERVER_EXCEPTION' });
      expect(
        (
          await send('PUT', '/v1/dataContracts/restore', {
            id: '2c000000-0000-4000-8000-0000000000ff',
          })
        ).status,
      ).toBe(500);
      expect((await send('PUT', '/v1/dataContracts/restore', {})).body).toMatchObject({
        code: 400,
        message: '[query param id must not be null]',
      });
      expect((await client.get(`/v1/dataContracts/name/${FQN}`)).body).toMatchObject({
        deleted: false,
        version: (restored.body as { version: number }).version,
      });
      const hard = await send('DELETE', `/v1/dataContracts/name/${FQN}?hardDelete=true`);
      expect(hard.status).toBe(200);
      expect((await client.get(`/v1/dataContracts/name/${FQN}?include=all`)).status).toBe(404);
      expect(sandbox.store.contracts.has(live.id)).toBe(false);
      expect((await send('DELETE', `/v1/dataContracts/name/${FQN}`)).status).toBe(404);
    },
  );
});
