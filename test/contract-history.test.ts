// Who changed a contract after the tool applied it, read from the catalog's version history over
// HTTP: apply as one user (the CLI), edit as a steward (another user, PATCHes as the UI or a
// script sends them), and read the versions, their users and their fields with the client.
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import { editsSince } from '../src/catalog/contract-history.js';
import type { ContractHistory, ContractVersion } from '../src/model/history.js';
import type { Operation } from '../src/model/operation.js';
import { cli } from './helpers/cli.js';
import { openMetadataDemo, sandboxWithFolder } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'warehouse.sales.public.orders.dataContract_orders';
/** The demo catalog's data steward, who edits contracts in the catalog; alice applies. */
const STEWARD = 'maria.garcia';

function versionsOf(history: ContractHistory): ContractVersion[] {
  if ('unavailable' in history) throw new Error(history.unavailable);
  expect(history.skipped).toBeUndefined();
  return history.versions;
}

/** The demo under the openmetadata profile, applied by alice; a client each for alice and the steward. */
async function appliedDemo(clock?: () => number) {
  const opened = await openMetadataDemo(cleanups, clock === undefined ? {} : { clock });
  const apply = await cli(['apply', '--auto-approve', '--no-color'], {
    cwd: opened.cwd,
    env: opened.env,
  });
  expect(apply.code, apply.out + apply.err).toBe(0);
  const client = (token: string) => {
    const made = new CatalogClient({ baseUrl: opened.sandbox.url, token });
    cleanups.push(() => made.close());
    return made;
  };
  const alice = client(opened.env.CATALOG_TOKEN);
  const steward = client(await opened.token(STEWARD));
  const applied = await alice.getContractByName(FQN);
  const statusColumn = (applied.schema as { name: string }[]).findIndex((c) => c.name === 'status');
  const edits: Operation[][] = [
    [{ op: 'replace', path: '/description', value: 'Orders, as the steward words it.' }],
    [{ op: 'replace', path: `/schema/${statusColumn}/dataType`, value: 'TEXT' }],
  ];
  return { alice, steward, applied, edits };
}

describe('a contract history read with the client', () => {
  it('names the steward and the fields of each edit made after the apply', async () => {
    const { alice, steward, applied, edits } = await appliedDemo();
    expect(applied.updatedBy).toBe('alice');
    // Guarded PATCHes (If-Match, as a script sends them) are never folded: a version each.
    for (const operations of edits) {
      const live = await steward.getContractById(applied.id);
      const etag = `W/"${live.version}"`;
      await steward.patchContract(applied.id, operations, { ifMatch: etag });
    }
    const versions = versionsOf(await alice.contractHistory(applied.id));
    const numbers = versions.map((v) => v.version);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(versions[0]!.document).toMatchObject({ id: applied.id, updatedBy: STEWARD });
    expect(versions.find((v) => v.version === applied.version)).toMatchObject({
      updatedBy: 'alice',
    });
    expect(editsSince(versions, applied.version)).toEqual([
      {
        version: Math.round((applied.version + 0.1) * 10) / 10,
        user: STEWARD,
        at: expect.any(Number),
        fields: ['description'],
      },
      {
        version: Math.round((applied.version + 0.2) * 10) / 10,
        user: STEWARD,
        at: expect.any(Number),
        fields: ['schema'],
      },
    ]);
  });

  it('shows two unguarded edits within ten minutes as the one version the server keeps', async () => {
    let now = Date.now();
    const { alice, steward, applied, edits } = await appliedDemo(() => now);
    for (const operations of edits) {
      now += 60_000;
      await steward.patchContract(applied.id, operations);
    }
    const versions = versionsOf(await alice.contractHistory(applied.id));
    expect(editsSince(versions, applied.version)).toEqual([
      {
        version: Math.round((applied.version + 0.1) * 10) / 10,
        user: STEWARD,
        at: now,
        fields: ['description', 'schema'],
      },
    ]);
  });

  it('answers that the spec profile keeps no history, in a sentence', async () => {
    const { sandbox, env } = await sandboxWithFolder(cleanups);
    const client = new CatalogClient({ baseUrl: sandbox.url, token: env.CATALOG_TOKEN });
    cleanups.push(() => client.close());
    const live = await client.getContractByName(FQN);
    const history = await client.contractHistory(live.id);
    expect(history).toEqual({
      unavailable: `the catalog gives no version history for contract ${live.id} (GET /v1/dataContracts/${live.id}/versions answered 404: Route not found: GET /v1/dataContracts/${live.id}/versions)`,
    });
  });
});
