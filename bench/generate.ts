// Generates a benchmark workspace: N contract files (10 to 60 columns, about a fifth of them
// differing from the catalog) and the matching sandbox seed. Deterministic for a given N: the
// files and the seed come from one sequence of contracts (generatedContracts), so the seed can be
// built again without the files (generateSeed: the 100,000-contract sandbox builds its own, as
// its seed is too large for one JSON text).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { seededRandom } from '@contracts-gitops/sandbox';
import { contractYaml } from './lib/yaml-writer.js';

const TYPES = ['BIGINT', 'VARCHAR', 'DECIMAL', 'TIMESTAMP', 'BOOLEAN', 'DATE', 'INT'];
const CONSTRAINTS = ['NOT_NULL', 'PRIMARY_KEY', 'UNIQUE'];
/** The first line of every file. */
const SCHEMA_LINE = '# yaml-language-server: $schema=../../schemas/data-contract.schema.json\n';
/** One file in this many has its text checked against the yaml package's (contractYaml). */
const CHECK_EVERY = 997;

export interface Workspace {
  dir: string;
  seedFile: string;
  changed: number;
  fqns: string[];
}

export interface GenerateOptions {
  seed?: number;
  changedFraction?: number;
  /**
   * The marker each live contract carries (`extension.managedBy`), from its file's path relative
   * to the workspace (`contracts/table_00000.yaml`); none without it.
   */
  managedBy?: (file: string) => string;
}

/**
 * One generated contract: its file's name and contract, and its live contract and its asset, built
 * when asked (a workspace of files only builds neither).
 */
export interface Generated {
  file: string;
  fqn: string;
  desired: Record<string, unknown>;
  live: () => Record<string, unknown>;
  asset: () => Record<string, unknown>;
  changed: boolean;
}

function uuid(kind: number, i: number): string {
  return `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

/** The `n` contracts of a workspace, in order. */
export function* generatedContracts(n: number, options: GenerateOptions): Generator<Generated> {
  const changedFraction = options.changedFraction ?? 0.2;
  const next = seededRandom(options.seed ?? 42);
  for (let i = 0; i < n; i++) {
    const schemaName = `schema_${i % 50}`;
    const assetFqn = `warehouse.db_${i % 5}.${schemaName}.table_${i}`;
    const fqn = `${assetFqn}.dataContract_table_${i}`;
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
    // The draws that change the live contract, made in order whether or not it is built.
    let change: ((live: Record<string, unknown>) => void) | undefined;
    if (next() < changedFraction) {
      const kind = Math.floor(next() * 4);
      if (kind === 0) change = (live) => (live.description = 'An older description.');
      else if (kind === 1) change = (live) => (live.entityStatus = 'Draft');
      else if (kind === 2) {
        const at = Math.floor(next() * columnCount);
        change = (live) => (live.schema as unknown[]).splice(at, 1);
      } else change = (live) => ((live.sla as Record<string, unknown>).availability = 99);
    }
    const assetId = uuid(0xa55e7, i);
    const file = `table_${String(i).padStart(5, '0')}.yaml`;
    yield {
      file,
      fqn,
      desired,
      changed: change !== undefined,
      asset: () => ({
        id: assetId,
        entityType: 'table',
        name: `table_${i}`,
        fullyQualifiedName: assetFqn,
        service: { name: 'warehouse' },
        database: { name: `db_${i % 5}` },
        databaseSchema: { name: schemaName },
        columns: columns.map((c) => ({ name: c.name, dataType: c.dataType })),
      }),
      live: () => {
        // A copy of what the change may touch (structuredClone took most of this function's time).
        const live: Record<string, unknown> = {
          ...desired,
          schema: columns.map((column) => ({ ...column })),
          semantics: (desired.semantics as Record<string, unknown>[]).map((item) => ({ ...item })),
          sla: { ...(desired.sla as Record<string, unknown>) },
        };
        change?.(live);
        const marker = options.managedBy?.(`contracts/${file}`);
        return {
          ...live,
          id: uuid(0xc0, i),
          entity: { id: assetId, type: 'table', name: `table_${i}`, fullyQualifiedName: assetFqn },
          schema: (live.schema as Record<string, unknown>[]).map((c, k) => ({
            ...c,
            fullyQualifiedName: `${assetFqn}.${String(c.name)}`,
            ordinalPosition: k + 1,
          })),
          ...(marker === undefined ? {} : { extension: { managedBy: marker } }),
          version: 0.3,
          updatedAt: 1_760_000_000_000,
          updatedBy: 'alice',
        };
      },
    };
  }
}

/** The seed of `assets` and `dataContracts`, with the one user every bench token names. */
function seedOf(assets: unknown[], dataContracts: unknown[]): Record<string, unknown> {
  return {
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
    ],
    assets,
    dataProducts: [],
    dataContracts,
  };
}

/** A contract file's text: the yaml package's, written faster (checked against it now and then). */
function fileText(desired: Record<string, unknown>, i: number): string {
  const text = contractYaml(desired);
  if (i % CHECK_EVERY === 0 && text !== stringify(desired))
    throw new Error(`generate: the YAML of contract ${i} is not the yaml package's`);
  return `${SCHEMA_LINE}${text}`;
}

/**
 * Writes `n` contract files under dir/contracts and, unless `files` only, the seed to
 * dir/seed.json (whose `seedFile` is then named, else empty).
 */
export function generateWorkspace(
  dir: string,
  n: number,
  options: GenerateOptions & { filesOnly?: boolean } = {},
): Workspace {
  const contractsDir = path.join(dir, 'contracts');
  mkdirSync(contractsDir, { recursive: true });
  const assets: unknown[] = [];
  const contracts: unknown[] = [];
  const fqns: string[] = [];
  let changed = 0;
  let i = 0;
  for (const generated of generatedContracts(n, options)) {
    fqns.push(generated.fqn);
    if (generated.changed) changed += 1;
    if (options.filesOnly !== true) {
      assets.push(generated.asset());
      contracts.push(generated.live());
    }
    writeFileSync(path.join(contractsDir, generated.file), fileText(generated.desired, i++));
  }
  if (options.filesOnly === true) return { dir, seedFile: '', changed, fqns };
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seedOf(assets, contracts)));
  return { dir, seedFile, changed, fqns };
}

/** The seed of generateWorkspace's `n` contracts, as an object (nothing is written). */
export function generateSeed(n: number, options: GenerateOptions = {}): Record<string, unknown> {
  const assets: unknown[] = [];
  const contracts: unknown[] = [];
  for (const generated of generatedContracts(n, options)) {
    assets.push(generated.asset());
    contracts.push(generated.live());
  }
  return seedOf(assets, contracts);
}

/** Writes the seed of generateWorkspace's `n` contracts to dir/seed.json; its path. */
export function writeSeed(dir: string, n: number, options: GenerateOptions = {}): string {
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(generateSeed(n, options)));
  return seedFile;
}
