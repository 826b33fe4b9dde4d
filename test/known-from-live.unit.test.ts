// A file's contract known from the catalog's (read/known-from-live.ts): taken only when it is the
// file's contract, the same JSON text, and then without reading the file again. And the other read
// plan may spare: an ODCS document read again to say what it keeps only in git, only if it keeps
// something (contract/odcs-file.ts), and then once: its contract is taken from the parse that says
// where (contract/positions.ts, withContract).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadContracts } from '../src/read/load.js';
import type { DesiredContract } from '../src/model/contract.js';
import type { JsonObject } from '../src/model/json-value.js';
import type { ContractFile } from '../src/contract/parse.js';
import { knownFromLive } from '../src/read/known-from-live.js';
import { specCodec } from '../src/profile/codec.js';
import { contractForProfile, fileForProfile, keptOnlyInGitOf } from '../src/contract/odcs-file.js';
import { holding, withContract } from '../src/contract/positions.js';
import { odcsFileText } from '../src/contract/to-odcs.js';
import { arbitraryContract, reordered, withoutNulls } from './helpers/arbitraries.js';
import { KEPT_ONLY_IN_GIT } from './helpers/kept-only-in-git.js';
import { tempDir } from './helpers/temp-dir.js';

/** A small contract of a table. */
const ORDERS: DesiredContract = {
  name: 'c',
  fullyQualifiedName: 'db.s.t.dataContract_c',
  entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
  description: 'Orders.',
};

/** The id of the ODCS documents here. */
const ODCS_ID = '5d7c2a4e-0000-4000-8000-000000000001';

/** ORDERS as an ODCS document, whose status `active` each profile stores otherwise. */
const ODCS_ORDERS = [
  'apiVersion: v3.1.0',
  'kind: DataContract',
  `id: ${ODCS_ID}`,
  'version: 1.0.0',
  'status: active',
  'name: c',
  'description:',
  '  purpose: Orders.',
  'customProperties:',
  '  - property: catalogEntity',
  '    value: table:db.s.t',
  '',
].join('\n');

/** `contract` as the catalog serves it: with what the server adds at the top and to each column. */
function served(held: DesiredContract): JsonObject & { id: string; version: number } {
  const contract = withoutNulls(held);
  const schema = contract.schema as Record<string, unknown>[] | undefined;
  return {
    id: '2c000000-0000-4000-8000-000000000001',
    ...contract,
    entity: { id: '2a000000-0000-4000-8000-000000000001', ...contract.entity, name: 't' },
    ...(schema === undefined
      ? {}
      : {
          schema: schema.map((column, i) => ({
            ...column,
            fullyQualifiedName: `db.s.t.${String(column.name)}`,
            ordinalPosition: i + 1,
          })),
        }),
    version: 0.3,
    updatedAt: 1764201600000,
    href: 'http://catalog/v1/dataContracts/2c000000-0000-4000-8000-000000000001',
  };
}

/**
 * `contract` written as a file and loaded as plan loads it (with `valueDigests`, unless false);
 * the file's contract as read from it; and the folder, to remove.
 */
async function loaded(
  contract: DesiredContract,
  options: { valueDigests?: boolean; name?: string; text?: string } = {},
): Promise<{ file: ContractFile; fromFile: string; dir: string; remove: () => Promise<void> }> {
  const name = options.name ?? 'c.yaml';
  const folder = await tempDir({ [name]: options.text ?? stringify(contract) });
  const result = await loadContracts([folder.dir], folder.dir, {
    valueDigests: options.valueDigests ?? true,
  });
  if (result.problems.length > 0) {
    await folder.remove();
    throw new Error(`generated file is invalid: ${result.problems[0]!.message}`);
  }
  const file = result.files[0]!;
  return {
    file,
    fromFile: JSON.stringify(file.contract),
    dir: folder.dir,
    remove: () => folder.remove(),
  };
}

describe('a contract known from the catalog', () => {
  it('is the file’s, and the file is not read again, when the catalog holds what the file says', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryContract(), async (generated) => {
        const contract = withoutNulls(generated);
        const { file, fromFile, dir, remove } = await loaded(contract);
        try {
          // The file is gone: reading it again would fail.
          await rm(path.join(dir, 'c.yaml'));
          const known = knownFromLive(file, served(contract), specCodec);
          expect(known).toBeDefined();
          expect(JSON.stringify(known!.contract)).toBe(fromFile);
          expect(known!.identity).toEqual(file.identity);
        } finally {
          await remove();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('is never taken unless it is the file’s contract, byte for byte, whatever the catalog holds', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryContract(),
        arbitraryContract(),
        fc.constantFrom('other', 'same', 'reordered', 'file reordered'),
        async (generated, other, kind) => {
          const contract = withoutNulls(generated);
          // A file that holds what the catalog holds ('same'), in another order, or with nulls.
          const inFile =
            kind === 'file reordered'
              ? reordered(contract)
              : kind === 'same'
                ? contract
                : generated;
          const live =
            kind === 'other'
              ? { ...other, name: contract.name }
              : kind === 'reordered'
                ? reordered(contract)
                : contract;
          const { file, fromFile, remove } = await loaded(inFile);
          try {
            const known = knownFromLive(file, served(live), specCodec);
            if (known === undefined) return;
            taken += 1;
            expect(JSON.stringify(known.contract)).toBe(fromFile);
          } finally {
            await remove();
          }
        },
      ),
      { numRuns: 80 },
    );
    // The property was tested on contracts taken, not only on ones refused.
    expect(taken).toBeGreaterThan(5);
  });

  it('is taken in the catalog’s order of a mapping when the file has that order, else not', async () => {
    const contract: DesiredContract = {
      name: 'c',
      fullyQualifiedName: 'db.s.t.dataContract_c',
      entity: { type: 'table', fullyQualifiedName: 'db.s.t' },
      schema: [{ description: 'the key', dataType: 'BIGINT', name: 'id' }],
      sla: { maxLatency: 'PT1H', refreshFrequency: 'P1D' },
    };
    const schemaOrder = {
      ...contract,
      schema: [{ name: 'id', dataType: 'BIGINT', description: 'the key' }],
      sla: { refreshFrequency: 'P1D', maxLatency: 'PT1H' },
    };
    const { file, fromFile, remove } = await loaded(contract);
    try {
      // The catalog serves the schema's order: the file's own order is not the same text.
      expect(knownFromLive(file, served(schemaOrder), specCodec)).toBeUndefined();
      // The catalog serves the file's order.
      const known = knownFromLive(file, served(contract), specCodec);
      expect(JSON.stringify(known?.contract)).toBe(fromFile);
    } finally {
      await remove();
    }
    const inSchemaOrder = await loaded(schemaOrder);
    try {
      // A file in the schema's order is the catalog's contract in any order (`contracts import`).
      const known = knownFromLive(inSchemaOrder.file, served(contract), specCodec);
      expect(JSON.stringify(known?.contract)).toBe(inSchemaOrder.fromFile);
    } finally {
      await inSchemaOrder.remove();
    }
  });

  it('is not taken for a field the file sets to null, a value that differs, or a field the catalog lacks', async () => {
    const contract: DesiredContract = { ...ORDERS, termsOfUse: null };
    const { file, remove } = await loaded(contract);
    try {
      const { termsOfUse: _none, ...held } = contract;
      expect(knownFromLive(file, served(held), specCodec)).toBeUndefined();
      expect(
        knownFromLive(file, served({ ...contract, description: 'Orders!' }), specCodec),
      ).toBeUndefined();
      const { description: _gone, ...lacking } = contract;
      expect(knownFromLive(file, served(lacking), specCodec)).toBeUndefined();
    } finally {
      await remove();
    }
  });

  it('is kept only for the files a plan of some of them plans', async () => {
    const other = { ...ORDERS, name: 'd', fullyQualifiedName: 'db.s.u.dataContract_d' };
    const folder = await tempDir({
      'c.yaml': stringify(ORDERS),
      'd.yaml': stringify({ ...other, entity: { type: 'table', fullyQualifiedName: 'db.s.u' } }),
    });
    try {
      const result = await loadContracts([folder.dir], folder.dir, {
        valueDigests: new Set([path.join(folder.dir, 'c.yaml')]),
      });
      const [planned, unplanned] = result.files;
      expect(knownFromLive(planned!, served(ORDERS), specCodec)).toBeDefined();
      expect(knownFromLive(unplanned!, served(unplanned!.contract), specCodec)).toBeUndefined();
    } finally {
      await folder.remove();
    }
  });

  it('is never taken for a file loaded without digests (validate)', async () => {
    const plain = await loaded(ORDERS, { valueDigests: false });
    try {
      expect(knownFromLive(plain.file, served(ORDERS), specCodec)).toBeUndefined();
    } finally {
      await plain.remove();
    }
  });

  it('is never taken for an ODCS document', async () => {
    const odcs = await loaded(ORDERS, { name: 'c.odcs.yaml', text: ODCS_ORDERS });
    try {
      expect(odcs.file.format).toBe('odcs');
      expect(knownFromLive(odcs.file, served(odcs.file.contract), specCodec)).toBeUndefined();
    } finally {
      await odcs.remove();
    }
  });
});

describe('what an ODCS document keeps only in git, said by plan', () => {
  it('needs no read of a document that keeps nothing only in git', async () => {
    const odcs = await loaded(ORDERS, { name: 'c.odcs.yaml', text: ODCS_ORDERS });
    try {
      // The document is gone: reading it again would fail.
      await rm(path.join(odcs.dir, 'c.odcs.yaml'));
      expect(keptOnlyInGitOf(odcs.file)).toBeUndefined();
    } finally {
      await odcs.remove();
    }
  });

  it('reads a document that does again, to say where', async () => {
    const odcs = await loaded(ORDERS, { name: 'c.odcs.yaml', text: WITH_SERVERS });
    try {
      // As plan asks, of the file holding its contract for the one step of planning it.
      const planned = withContract(odcs.file);
      expect(keptOnlyInGitOf(planned)).toMatch(/^kept only in git: .*servers \(line 12\)/);
      await rm(path.join(odcs.dir, 'c.odcs.yaml'));
      expect(() => keptOnlyInGitOf(holding(odcs.file, planned.contract))).toThrow(
        /changed on disk/,
      );
    } finally {
      await odcs.remove();
    }
  });

  it('takes from that parse the contract a plain read of the document gives, for any contract', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryContract(), async (generated) => {
        const named = { ...generated, ...ORDERS };
        const { text } = odcsFileText(named, { id: ODCS_ID, version: '1.0.0' }, 'spec', 'o.json');
        const odcs = await loaded(named, {
          name: 'c.odcs.yaml',
          text: `${text}${KEPT_ONLY_IN_GIT}`,
        });
        try {
          const planned = withContract(odcs.file);
          expect(planned.contract).toEqual(odcs.file.contract);
          expect(keptOnlyInGitOf(planned)).toMatch(/servers \(line \d+\), support \(line \d+\)/);
        } finally {
          await odcs.remove();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('reads a document that does once, its contract taken from the parse that says where', async () => {
    const odcs = await loaded(ORDERS, { name: 'c.odcs.yaml', text: WITH_SERVERS });
    try {
      const reads = { text: 0, contract: 0 };
      const counted = new Proxy(odcs.file, {
        get(target, key, receiver) {
          if (key === 'text' || key === 'contract') reads[key] += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const planned = fileForProfile(withContract(counted), 'spec');
      const warning = keptOnlyInGitOf(planned);
      expect(reads).toEqual({ text: 1, contract: 0 });
      expect(warning).toMatch(/^kept only in git: .*servers \(line 12\)/);
      expect(planned.contract).toEqual(fileForProfile(withContract(odcs.file), 'spec').contract);
      expect(planned.contract).toEqual(contractForProfile(odcs.file, 'spec'));
    } finally {
      await odcs.remove();
    }
  });
});

/** The ODCS document of ORDERS with servers and support, which stay only in git (from line 12). */
const WITH_SERVERS = `${ODCS_ORDERS.trimEnd()}\n${KEPT_ONLY_IN_GIT}`;
