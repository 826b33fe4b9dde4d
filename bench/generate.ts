// Generates a benchmark workspace: N contract files (10 to 60 columns, about a fifth of them
// differing from the catalog) and the matching sandbox seed. Deterministic for a given N.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { seededRandom } from '@contracts-gitops/sandbox';

const TYPES = ['BIGINT', 'VARCHAR', 'DECIMAL', 'TIMESTAMP', 'BOOLEAN', 'DATE', 'INT'];
const CONSTRAINTS = ['NOT_NULL', 'PRIMARY_KEY', 'UNIQUE'];

export interface Workspace {
  dir: string;
  seedFile: string;
  changed: number;
  fqns: string[];
}

function uuid(kind: number, i: number): string {
  return `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

/** Writes `n` contract files under dir/contracts and the seed to dir/seed.json. */
export function generateWorkspace(
  dir: string,
  n: number,
  options: { seed?: number; changedFraction?: number } = {},
): Workspace {
  const seed = options.seed ?? 42;
  const changedFraction = options.changedFraction ?? 0.2;
  const next = seededRandom(seed);
  const contractsDir = path.join(dir, 'contracts');
  mkdirSync(contractsDir, { recursive: true });
  const assets: unknown[] = [];
  const contracts: unknown[] = [];
  const fqns: string[] = [];
  let changed = 0;
  for (let i = 0; i < n; i++) {
    const schemaName = `schema_${i % 50}`;
    const assetFqn = `warehouse.db_${i % 5}.${schemaName}.table_${i}`;
    const fqn = `${assetFqn}.dataContract_table_${i}`;
    fqns.push(fqn);
    const columnCount = 10 + Math.floor(next() * 51);
    const columns = Array.from({ length: columnCount }, (_, c) => {
      const column: Record<string, unknown> = {
        name: `column_${c}`,
        dataType: TYPES[Math.floor(next() * TYPES.length)],
      };
      if (next() < 0.4) column.constraint = CONSTRAINTS[Math.floor(next() * CONSTRAINTS.length)];
      if (next() < 0.5)
        column.description = `Column ${c} of table ${i}: what it holds and where it comes from.`;
      return column;
    });
    const desired: Record<string, unknown> = {
      name: `table_${i}`,
      fullyQualifiedName: fqn,
      entity: { type: 'table', fullyQualifiedName: assetFqn },
      description: `Contract of table ${i}, generated for the benchmark.`,
      entityStatus: 'Active',
      schema: columns,
      semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
      sla: { refreshFrequency: 'PT1H', availability: 99.5 },
      termsOfUse: 'Internal use only.\n',
    };
    const live = structuredClone(desired);
    if (next() < changedFraction) {
      changed += 1;
      const kind = Math.floor(next() * 4);
      if (kind === 0) live.description = 'An older description.';
      else if (kind === 1) live.entityStatus = 'Draft';
      else if (kind === 2) (live.schema as unknown[]).splice(Math.floor(next() * columnCount), 1);
      else (live.sla as Record<string, unknown>).availability = 99;
    }
    const assetId = uuid(0xa55e7, i);
    assets.push({
      id: assetId,
      entityType: 'table',
      name: `table_${i}`,
      fullyQualifiedName: assetFqn,
      service: { name: 'warehouse' },
      database: { name: `db_${i % 5}` },
      databaseSchema: { name: schemaName },
      columns: columns.map((c) => ({ name: c.name, dataType: c.dataType })),
    });
    contracts.push({
      ...live,
      id: uuid(0xc0, i),
      entity: { id: assetId, type: 'table', name: `table_${i}`, fullyQualifiedName: assetFqn },
      schema: (live.schema as Record<string, unknown>[]).map((c, k) => ({
        ...c,
        fullyQualifiedName: `${assetFqn}.${String(c.name)}`,
        ordinalPosition: k + 1,
      })),
      version: 0.3,
      updatedAt: 1_760_000_000_000,
      updatedBy: 'alice',
    });
    writeFileSync(
      path.join(contractsDir, `table_${String(i).padStart(5, '0')}.yaml`),
      `# yaml-language-server: $schema=../../schemas/data-contract.schema.json\n${stringify(desired)}`,
    );
  }
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(
    seedFile,
    JSON.stringify({
      users: [
        { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      ],
      assets,
      dataProducts: [],
      dataContracts: contracts,
    }),
  );
  return { dir, seedFile, changed, fqns };
}
