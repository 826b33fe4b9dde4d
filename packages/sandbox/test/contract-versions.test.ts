// A contract's version history under the openmetadata profile, as OpenMetadata's server answers
// it: an EntityHistory whose versions are JSON texts of the whole contract, newest first, the
// current one included; a session's folded PATCH replaces its version; a version by number; the
// 400, 403, 404 and 405 the server gives. The spec profile has no such route.
import { afterEach, describe, expect, it } from 'vitest';
import { openSandbox } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'warehouse.sales.public.orders.dataContract_orders';
const next = (version: number, steps = 1) => Math.round((version + 0.1 * steps) * 10) / 10;

type Version = {
  version: number;
  updatedBy: string;
  updatedAt: number;
  changeDescription?: {
    fieldsAdded: { name: string }[];
    fieldsUpdated: { name: string }[];
    fieldsDeleted: { name: string }[];
    previousVersion: number;
  };
  description?: string;
  deleted?: boolean;
};

async function started(profile: 'spec' | 'openmetadata' = 'openmetadata') {
  let now = 1_800_000_000_000;
  const opened = await openSandbox({ profile, clock: () => now });
  cleanups.push(() => opened.sandbox.close());
  const live = (await opened.client.get(`/v1/dataContracts/name/${FQN}`)).body as Version & {
    id: string;
    schema: { name: string; dataType: string }[];
  };
  const history = async (user = 'alice') => {
    const answer = await opened.client.get(
      `/v1/dataContracts/${live.id}/versions`,
      await opened.token(user),
    );
    return {
      status: answer.status,
      body: answer.body,
      versions:
        answer.status === 200
          ? (answer.body.versions as unknown[]).map((text) => {
              expect(typeof text).toBe('string');
              return JSON.parse(text as string) as Version;
            })
          : [],
    };
  };
  const patch = async (user: string, operations: unknown[]) => {
    now += 60_000;
    const answer = await opened.client.patch(`/v1/dataContracts/${live.id}`, operations, {
      token: await opened.token(user),
    });
    expect(answer.status).toBe(200);
    return answer.body as Version;
  };
  return { ...opened, live, history, patch, at: () => now };
}

describe('a contract version history (openmetadata)', () => {
  it('starts with the seeded version alone, and grows newest first as PATCHes are stored', async () => {
    const { live, history, patch, at } = await started();
    const first = await history();
    expect(first.status).toBe(200);
    expect(first.body.entityType).toBe('dataContract');
    expect(first.versions).toHaveLength(1);
    expect(first.versions[0]).toMatchObject({ version: live.version, updatedBy: live.updatedBy });

    await patch('alice', [{ op: 'replace', path: '/description', value: 'Orders, by alice.' }]);
    const aliceAt = at();
    const column = live.schema.findIndex((c) => c.name === 'status');
    await patch('maria.garcia', [
      { op: 'replace', path: `/schema/${column}/dataType`, value: 'TEXT' },
    ]);
    // maria.garcia again within ten minutes, without If-Match: folded into her version.
    await patch('maria.garcia', [
      { op: 'replace', path: '/description', value: 'Orders, by maria.garcia.' },
    ]);
    const botAt = at();

    const { versions } = await history();
    expect(versions.map((v) => v.version)).toEqual([
      next(live.version, 2),
      next(live.version),
      live.version,
    ]);
    const [folded, alice, seeded] = versions as [Version, Version, Version];
    expect(folded).toMatchObject({
      updatedBy: 'maria.garcia',
      updatedAt: botAt,
      description: 'Orders, by maria.garcia.',
    });
    // The folded version's change runs from the version before the session.
    expect(folded.changeDescription!.previousVersion).toBe(next(live.version));
    expect(
      [...folded.changeDescription!.fieldsUpdated, ...folded.changeDescription!.fieldsAdded]
        .map((f) => f.name.split('.')[0])
        .sort(),
    ).toEqual(expect.arrayContaining(['description', 'schema']));
    expect(alice).toMatchObject({
      updatedBy: 'alice',
      updatedAt: aliceAt,
      description: 'Orders, by alice.',
      changeDescription: {
        fieldsUpdated: [{ name: 'description' }],
        previousVersion: live.version,
      },
    });
    expect(seeded).toMatchObject({ version: live.version, updatedBy: live.updatedBy });
  });

  it('answers one version by number: a stored one, the current one, or the server 404 and 400', async () => {
    const { live, client, patch } = await started();
    await patch('alice', [{ op: 'replace', path: '/description', value: 'Changed.' }]);
    const earlier = await client.get(`/v1/dataContracts/${live.id}/versions/${live.version}`);
    expect(earlier.status).toBe(200);
    expect(earlier.body).toMatchObject({ id: live.id, version: live.version });
    expect(earlier.body.description).not.toBe('Changed.');
    const current = await client.get(`/v1/dataContracts/${live.id}/versions/${next(live.version)}`);
    expect(current.body).toMatchObject({ version: next(live.version), description: 'Changed.' });
    const missing = await client.get(`/v1/dataContracts/${live.id}/versions/9`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(
      `dataContract instance for ${live.id} and version 9.0 not found`,
    );
    const bad = await client.get(`/v1/dataContracts/${live.id}/versions/latest`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('For input string: "latest"');
    const unknown = await client.get(
      '/v1/dataContracts/00000000-0000-0000-0000-000000000000/versions',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(
      'dataContract instance for 00000000-0000-0000-0000-000000000000 not found',
    );
  });

  it('needs ViewBasic, takes only GET, keeps a soft-deleted contract history and drops a hard-deleted one', async () => {
    const { live, history, sandbox, token } = await started();
    expect((await history('carol')).status).toBe(403);
    const send = async (method: string, path: string) =>
      fetch(`${sandbox.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}` },
      });
    expect((await send('POST', `/v1/dataContracts/${live.id}/versions`)).status).toBe(405);
    // The demo's data steward edits contracts but deletes none.
    const steward = await fetch(`${sandbox.url}/v1/dataContracts/${live.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await token('maria.garcia')}` },
    });
    expect(steward.status).toBe(403);
    expect((await send('DELETE', `/v1/dataContracts/${live.id}`)).status).toBe(200);
    const soft = await history();
    expect(soft.versions.map((v) => [v.version, v.deleted ?? false])).toEqual([
      [next(live.version), true],
      [live.version, false],
    ]);
    expect((await send('DELETE', `/v1/dataContracts/${live.id}?hardDelete=true`)).status).toBe(200);
    expect((await history()).status).toBe(404);
  });
});

describe('the spec profile', () => {
  it('has no version history: 404 as any unknown route', async () => {
    const { live, client } = await started('spec');
    for (const path of [
      `/v1/dataContracts/${live.id}/versions`,
      `/v1/dataContracts/${live.id}/versions/${live.version}`,
    ]) {
      const answer = await client.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(`Route not found: GET ${path}`);
    }
  });
});
