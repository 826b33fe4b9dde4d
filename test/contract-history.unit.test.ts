// Reading a version history as a stranger's answer, and the edits after a version: pure.
import { describe, expect, it } from 'vitest';
import {
  editsSince,
  historyOf,
  MAX_HISTORY_VERSIONS,
  readContractHistory,
} from '../src/catalog/contract-history.js';
import { CatalogError, ForbiddenError } from '../src/model/errors.js';
import type { ContractVersion } from '../src/model/history.js';

const text = (value: unknown) => JSON.stringify(value);
const change = (...names: string[]) => ({
  fieldsAdded: [],
  fieldsUpdated: names.map((name) => ({ name, oldValue: 1, newValue: 2 })),
  fieldsDeleted: [],
  previousVersion: 0.1,
});

describe('historyOf', () => {
  it('reads each version text, newest first, with its user, time and top-level fields', () => {
    const history = historyOf({
      versions: [
        text({
          version: 0.3,
          updatedBy: 'maria',
          updatedAt: 3,
          changeDescription: {
            fieldsAdded: [{ name: 'schema.new_col' }],
            fieldsUpdated: [{ name: 'description' }, { name: 'schema."a.b".dataType' }],
            fieldsDeleted: [{ name: 'termsOfUse' }],
          },
        }),
        text({ version: 0.1, updatedBy: 'alice', updatedAt: 1 }),
        text({ version: 0.2, updatedBy: 'alice', updatedAt: 2, changeDescription: change('sla') }),
      ],
    });
    expect(history).toEqual({
      versions: [
        expect.objectContaining({
          version: 0.3,
          updatedBy: 'maria',
          updatedAt: 3,
          fields: ['description', 'schema', 'termsOfUse'],
        }),
        expect.objectContaining({ version: 0.2, fields: ['sla'] }),
        {
          version: 0.1,
          updatedBy: 'alice',
          updatedAt: 1,
          fields: [],
          document: expect.any(Object),
        },
      ],
    });
  });

  it('leaves out and says what is no version, and never throws on hostile entries', () => {
    const history = historyOf({
      versions: [
        '{not json',
        text([1, 2]),
        null,
        42,
        text({ updatedBy: 'x' }),
        text({ version: '0.4' }),
        text({ version: 0.5, updatedBy: { name: 'x' } }),
        text({ version: 0.6, updatedBy: null, updatedAt: 'yesterday', changeDescription: 'odd' }),
        text({
          version: 0.7,
          changeDescription: { fieldsUpdated: [null, 3, { name: 7 }, { name: '' }, { name: 'x' }] },
        }),
      ],
    });
    if ('unavailable' in history) throw new Error('unexpected');
    expect(history.versions).toEqual([
      expect.objectContaining({ version: 0.7, fields: ['x'] }),
      { version: 0.6, fields: [], document: expect.any(Object) },
    ]);
    expect(history.skipped).toEqual([
      'versions[0] is not JSON',
      'versions[1] is not a contract (a JSON object)',
      'versions[2] is not a contract (a JSON object)',
      'versions[3] is not a contract (a JSON object)',
      'versions[4] has no version number',
      'versions[5] has no version number',
      'version 0.5 (versions[6]) names its user with something that is not a name',
    ]);
  });

  it('keeps the first of two entries with one number, and reads at most the bound', () => {
    const twice = historyOf({
      versions: [
        text({ version: 0.2, updatedBy: 'now' }),
        text({ version: 0.2, updatedBy: 'old' }),
      ],
    });
    expect('versions' in twice && twice.versions.map((v) => v.updatedBy)).toEqual(['now']);
    const many = historyOf({
      versions: Array.from({ length: MAX_HISTORY_VERSIONS + 5 }, (_, k) =>
        text({ version: MAX_HISTORY_VERSIONS + 5 - k }),
      ),
    });
    if ('unavailable' in many) throw new Error('unexpected');
    expect(many.versions).toHaveLength(MAX_HISTORY_VERSIONS);
    expect(many.versions[0]!.version).toBe(MAX_HISTORY_VERSIONS + 5);
    expect(many.skipped).toEqual([
      `the catalog gave ${MAX_HISTORY_VERSIONS + 5} versions; only the first ${MAX_HISTORY_VERSIONS} were read`,
    ]);
  });
});

describe('readContractHistory', () => {
  const failing = (error: Error) => ({
    getJson: () => Promise.reject(error),
  });

  it.each([404, 405, 501])('answers "no history here" with a sentence on a %i', async (status) => {
    const error = new CatalogError(status, 'X', 'no route', 'GET /v1/dataContracts/c1/versions');
    expect(await readContractHistory(failing(error), 'c1')).toEqual({
      unavailable: `the catalog gives no version history for contract c1 (GET /v1/dataContracts/c1/versions answered ${status}: no route)`,
    });
  });

  it('lets a refusal of the user, or any other failure, go on as the typed error it is', async () => {
    const forbidden = new ForbiddenError(
      403,
      'FORBIDDEN',
      'no',
      'GET /v1/dataContracts/c1/versions',
    );
    await expect(readContractHistory(failing(forbidden), 'c1')).rejects.toBe(forbidden);
  });

  it('asks for the contract id as one path segment', async () => {
    const asked: string[] = [];
    const http = {
      getJson: <T>(path: string): Promise<T> => {
        asked.push(path);
        return Promise.resolve({ versions: [] } as T);
      },
    };
    expect(await readContractHistory(http, 'a/b')).toEqual({ versions: [] });
    expect(asked).toEqual(['/dataContracts/a%2Fb/versions']);
  });
});

describe('editsSince', () => {
  const version = (n: number, user?: string, fields: string[] = []): ContractVersion => ({
    version: n,
    ...(user === undefined ? {} : { updatedBy: user, updatedAt: n * 10 }),
    fields,
    document: {},
  });

  it('gives the versions newer than `since`, oldest first', () => {
    const history = [
      version(1.2, 'maria', ['schema']),
      version(1.1, undefined, ['description']),
      version(1.0, 'alice'),
    ];
    expect(editsSince(history, 1.0)).toEqual([
      { version: 1.1, user: undefined, at: undefined, fields: ['description'] },
      { version: 1.2, user: 'maria', at: 12, fields: ['schema'] },
    ]);
    expect(editsSince(history, 1.2)).toEqual([]);
    expect(editsSince([], 0)).toEqual([]);
  });

  it('leaves the history it reads as it was', () => {
    const history = [version(0.1, 'a', ['x']), version(0.2, 'b', ['y'])];
    const copy = structuredClone(history);
    editsSince(history, 0)[0]!.fields.push('z');
    expect(history).toEqual(copy);
  });
});
