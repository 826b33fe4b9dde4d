// Behaviours a release leaves unconfirmed are played one way by default and the other way when
// asked (`openmetadataVariants`), and only where the release leaves them open.
import { afterEach, describe, expect, it } from 'vitest';
import { OpenMetadataRelease } from '../src/release.js';
import { openSandbox } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'warehouse.sales.public.orders.dataContract_orders';

/** Sends an If-Match PATCH that changes only the SLA; answers the stored contract after it. */
async function ifMatchSlaChange(variants?: Record<string, boolean>) {
  const opened = await openSandbox({
    profile: 'openmetadata',
    openmetadataVersion: '1.13.2',
    ...(variants === undefined ? {} : { openmetadataVariants: variants }),
  });
  cleanups.push(() => opened.sandbox.close());
  const read = await opened.client.get(`/v1/dataContracts/name/${FQN}`);
  const before = read.body as { id: string; version: number; sla?: unknown };
  const answer = await opened.client.patch(
    `/v1/dataContracts/${before.id}`,
    [{ op: 'add', path: '/sla', value: { refreshFrequency: { interval: 6, unit: 'hour' } } }],
    { ifMatch: `W/"${before.version.toFixed(1)}"` },
  );
  const after = (await opened.client.get(`/v1/dataContracts/${before.id}`)).body as {
    version: number;
    sla?: unknown;
  };
  return { before, answer, after };
}

describe('unconfirmed behaviours', () => {
  it('1.13.2 stores an If-Match change by default, and drops it as #28876 when played so', async () => {
    const fixed = await ifMatchSlaChange();
    expect(fixed.answer.status).toBe(200);
    expect(fixed.after.sla).toEqual({ refreshFrequency: { interval: 6, unit: 'hour' } });
    expect(fixed.after.version).toBeGreaterThan(fixed.before.version);

    const dropping = await ifMatchSlaChange({ ifMatchDropsContractChanges: true });
    expect(dropping.answer.status).toBe(200);
    expect(dropping.answer.body.version).toBe(dropping.before.version);
    expect(dropping.after.version).toBe(dropping.before.version);
    expect(dropping.after.sla).toEqual(dropping.before.sla);
  });

  it('says which way each open behaviour is played, and refuses a variant the release settles', () => {
    expect(new OpenMetadataRelease('1.13.2').unconfirmedPlayed()).toMatchObject({
      ifMatchDropsContractChanges: false,
    });
    expect(
      new OpenMetadataRelease('2.0.5', { ifMatchDropsContractChanges: true }).has(
        'ifMatchDropsContractChanges',
      ),
    ).toBe(true);
    // 1.12.6 was read line by line: it drops, whatever is asked.
    expect(() => new OpenMetadataRelease('1.12.6', { ifMatchDropsContractChanges: false })).toThrow(
      /not unconfirmed on 1\.12\.6/,
    );
    expect(() => new OpenMetadataRelease('2.0.5', { noSuchThing: true } as never)).toThrow(
      /there is no behaviour 'noSuchThing'/,
    );
  });
});

describe('the releases played', () => {
  it('plays 1.10.0 to 1.13.7 and 2.0.0 to 2.0.9, 2.0.9 by default, and no release it does not know', async () => {
    for (const known of ['1.10.0', '1.12.6', '1.13.7', '2.0.0', '2.0.9'])
      expect(new OpenMetadataRelease(known).version).toBe(known);
    expect(new OpenMetadataRelease().version).toBe('2.0.9');
    for (const unknown of ['1.13.8', '1.14.0', '2.0.10', '2.1.0', '3.0.0'])
      expect(() => new OpenMetadataRelease(unknown)).toThrow(
        `the sandbox plays OpenMetadata 1.10.0 to 1.13.7 and 2.0.0 to 2.0.9, whose behaviour is known; got '${unknown}'`,
      );
    const opened = await openSandbox({ profile: 'openmetadata' });
    cleanups.push(() => opened.sandbox.close());
    expect((await opened.client.get('/v1/system/version')).body.version).toBe('2.0.9');
  });

  it('lists contracts with a limit from 0 to 1,000,000, as the server takes', async () => {
    const opened = await openSandbox({ profile: 'openmetadata' });
    cleanups.push(() => opened.sandbox.close());
    const all = await opened.client.get('/v1/dataContracts?limit=1000000');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBe(all.body.paging.total);
    const none = await opened.client.get('/v1/dataContracts?limit=0');
    expect(none.body.data).toEqual([]);
    expect(none.body.paging.total).toBe(all.body.paging.total);
    const over = await opened.client.get('/v1/dataContracts?limit=1000001');
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.body)).toContain('less than or equal to 1000000');
  });
});
