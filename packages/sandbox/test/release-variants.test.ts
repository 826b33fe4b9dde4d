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
