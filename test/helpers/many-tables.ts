// `count` tables db.s.t0 … each with one live contract c0 …, and a file for each: the seed's
// assets and contracts, and the files, for tests that need many contracts of one shape.
import { stringify } from 'yaml';

export interface ManyTables {
  assets: Record<string, unknown>[];
  contracts: Record<string, unknown>[];
  files: Record<string, string>;
}

/**
 * Ids begin with `idPrefix` (8 hex digits); each live contract's description is `live`, each
 * file's `desired(i)`; file names are `fileName(i)`.
 */
export function manyTables(
  count: number,
  options: {
    idPrefix: string;
    live: string;
    desired: (i: number) => string;
    fileName?: (i: number) => string;
  },
): ManyTables {
  const fileName = options.fileName ?? ((i: number) => `contracts/c${i}.yaml`);
  const tables: ManyTables = { assets: [], contracts: [], files: {} };
  for (let i = 0; i < count; i++) {
    const id = `${options.idPrefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const asset = `db.s.t${i}`;
    const identity = { name: `c${i}`, fullyQualifiedName: `${asset}.dataContract_c${i}` };
    tables.assets.push({ id, entityType: 'table', name: `t${i}`, fullyQualifiedName: asset });
    tables.contracts.push({
      ...identity,
      entity: { id, type: 'table', fullyQualifiedName: asset },
      description: options.live,
    });
    tables.files[fileName(i)] = stringify({
      ...identity,
      entity: { type: 'table', fullyQualifiedName: asset },
      description: options.desired(i),
    });
  }
  return tables;
}
