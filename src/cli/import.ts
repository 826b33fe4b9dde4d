// `contracts import --fqn FQN... | --entity TYPE:FQN... [--out DIR] [--force]`: write live
// contracts as files that plan back to no changes. Everything is read before anything is
// written, and nothing is written when any file exists (without --force) or any read fails.
import { semanticLike } from '../gate/version-gate.js';
import { existsSync } from 'node:fs';
import type { Profile } from '../model/profile.js';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shippedSchemaFile } from '../support/shipped.js';
import type { CatalogClient, LiveContract } from '../catalog/client.js';
import { ConfigError, NotFoundError } from '../model/errors.js';
import { printable } from '../support/printable.js';
import { contractFileText, filePathFor } from '../import/import-contracts.js';
import type { DesiredContract } from '../model/contract.js';
import { odcsFileText } from '../contract/to-odcs.js';

/** The ODCS schema, under schemas/. */
const ODCS_SCHEMA = 'odcs/odcs-json-schema-v3.1.0.json';
import { managingFiles } from '../import/managed-files.js';
import { assetKey, lookupAssets } from '../read/live-assets.js';
import { CONTRACT_FIELDS } from '../read/read-plan-inputs.js';
import { EXIT_OK } from './exit-codes.js';
import type { Io } from './io.js';
import { track } from '../support/progress.js';
import { progressLine } from './progress.js';
import { connect, connectedCodec, type ConnectionFlags } from '../operations/connection.js';

export interface ImportOptions extends ConnectionFlags {
  fqns: string[];
  entities: string[];
  out: string;
  force: boolean;
  /** native (this tool's format, the default) or odcs (ODCS v3.1.0 documents). */
  format?: 'native' | 'odcs';
}

/** `table:warehouse.sales.public.orders` → type and FQN. */
export function parseEntityArgument(value: string): { type: string; fullyQualifiedName: string } {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1)
    throw new ConfigError(
      `--entity takes TYPE:FQN such as table:warehouse.sales.public.orders, got '${value}'`,
    );
  return { type: value.slice(0, colon), fullyQualifiedName: value.slice(colon + 1) };
}

async function contractOfEntity(
  client: CatalogClient,
  profile: Profile,
  entity: { type: string; fullyQualifiedName: string },
): Promise<LiveContract> {
  const lookup = (await lookupAssets(client, profile, [entity])).get(
    assetKey(entity.type, entity.fullyQualifiedName),
  );
  if (lookup?.kind !== 'found') {
    throw new ConfigError(
      `${entity.type} ${entity.fullyQualifiedName}: ${lookup?.kind === 'unchecked' ? lookup.reason : 'not found in the catalog'}`,
    );
  }
  const noneOfItsOwn = `${entity.type} ${entity.fullyQualifiedName} has no contract of its own`;
  const toCreate = `start its file with contracts new --entity ${entity.type}:${entity.fullyQualifiedName} and plan: apply creates it`;
  let effective: LiveContract;
  try {
    effective = await client.getEffectiveContract(lookup.asset.id, entity.type);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ConfigError(`${noneOfItsOwn}; ${toCreate}`);
    throw error;
  }
  if (effective.inherited === true) {
    throw new ConfigError(
      `${noneOfItsOwn}; it inherits ${effective.fullyQualifiedName} from its data product (import that one with --fqn), or ${toCreate}`,
    );
  }
  return client.getContractById(effective.id, CONTRACT_FIELDS);
}

/** The schema comment's path (of `schema` under schemas/), relative to the output directory. */
export function schemaPathFrom(
  directory: string,
  cwd: string,
  schema = 'data-contract.schema.json',
): string {
  const inRepo = path.join(cwd, 'schemas', schema);
  // The repository's own copy, else the package's.
  const target = existsSync(inRepo) ? inRepo : (shippedSchemaFile(schema) ?? inRepo);
  return path.relative(directory, target).split(path.sep).join('/');
}

/**
 * The folder `--out` names, checked before anything is read: a contract file's name or an existing
 * file is refused (the files are written into a folder).
 */
export async function outputFolder(out: string, cwd: string): Promise<string> {
  const directory = path.resolve(cwd, out);
  if (/\.ya?ml$/i.test(out))
    throw new ConfigError(
      `--out takes a folder to write contract files into, got ${out}, a contract file's name; name its folder (the file is named after the contract)`,
    );
  let kind: 'folder' | 'file' | 'none';
  try {
    kind = (await stat(directory)).isDirectory() ? 'folder' : 'file';
  } catch {
    kind = 'none';
  }
  if (kind === 'file')
    throw new ConfigError(`--out ${out} is a file, not a folder; nothing was written`);
  return directory;
}

/**
 * Makes `directory` (its missing parents too), one level at a time: Node's recursive mkdir spins
 * for ever where the kernel refuses every new folder (under /proc, say).
 */
export async function makeFolder(directory: string, out: string): Promise<void> {
  const missing: string[] = [];
  for (let dir = directory; !existsSync(dir); dir = path.dirname(dir)) {
    missing.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  try {
    for (const dir of missing) await mkdir(dir);
  } catch (error) {
    throw new ConfigError(
      `--out ${out}: the folder cannot be made (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was written`,
    );
  }
}

/** Writes `text` to `file` whole or not at all: a temporary file beside it, renamed over it. */
export async function writeWhole(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

export async function runImport(options: ImportOptions, io: Io): Promise<number> {
  if (options.fqns.length + options.entities.length === 0)
    throw new ConfigError('name what to import with --fqn FQN or --entity TYPE:FQN');
  const entities = options.entities.map(parseEntityArgument);
  const directory = await outputFolder(options.out, io.cwd);
  const { client, profile, connections } = connect(options, io.env);
  try {
    const codec = await connectedCodec(client, profile);
    const fqns = [...new Set(options.fqns)];
    const progress = progressLine(io.stderr, 'Reading contracts', {
      total: fqns.length + entities.length,
      concurrency: connections,
    });
    const live = await Promise.all([
      ...fqns.map((fqn) =>
        track(progress, fqn, () =>
          client.getContractByName(fqn, CONTRACT_FIELDS).catch((error: unknown) => {
            if (!(error instanceof NotFoundError)) throw error;
            throw new ConfigError(
              `the catalog has no data contract named ${fqn} (a contract's FQN is its asset's FQN and .dataContract_<name>, case-sensitive; \`contracts coverage\` lists tables and their contracts, and \`contracts import --entity TYPE:FQN\` imports an asset's contract by the asset); nothing was written`,
            );
          }),
        ),
      ),
      ...entities.map((entity) =>
        track(progress, `${entity.type}:${entity.fullyQualifiedName}`, () =>
          contractOfEntity(client, codec.profile, entity),
        ),
      ),
    ]).finally(() => progress.clear());
    const unique = new Map(live.map((contract) => [contract.fullyQualifiedName, contract]));
    const odcs = options.format === 'odcs';
    const schemaPath = schemaPathFrom(directory, io.cwd);
    const odcsSchemaPath = schemaPathFrom(directory, io.cwd, ODCS_SCHEMA);
    const planned = [...unique.values()].map((contract) => {
      let file: string;
      try {
        file = filePathFor(directory, contract.fullyQualifiedName, odcs ? '.odcs.yaml' : '.yaml');
      } catch (error) {
        throw new ConfigError((error as Error).message);
      }
      const native = contractFileText(contract, schemaPath, codec);
      if (!odcs) return { contract, file, ...native };
      // The file's model written as ODCS: what ODCS cannot carry back is left out, and said.
      const written = odcsFileText(
        native.document as unknown as DesiredContract,
        // ODCS wants a semantic version: the catalog's 0.4 is written 0.4.0.
        { id: contract.id, version: semanticLike(String(contract.version)) },
        codec.profile,
        odcsSchemaPath,
      );
      return {
        contract,
        file,
        text: written.text,
        leftOut: [...native.leftOut, ...written.leftOut],
      };
    });
    // One file per contract: a contract another file already manages is not written again.
    const managed = await managingFiles(directory, io.cwd, [...unique.values()]);
    const elsewhere = planned.filter(
      (p) => managed.has(p.contract) && path.resolve(io.cwd, managed.get(p.contract)!) !== p.file,
    );
    if (elsewhere.length > 0)
      throw new ConfigError(
        `${elsewhere.map((p) => `${p.contract.fullyQualifiedName} is already managed by ${managed.get(p.contract)!}`).join('; ')}: a second file would make every plan fail on a duplicate name. Nothing was written.`,
      );
    const existing = planned.filter((p) => existsSync(p.file));
    if (existing.length > 0 && !options.force) {
      throw new ConfigError(
        `${existing.map((p) => path.relative(io.cwd, p.file)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; use --force to overwrite. Nothing was written.`,
      );
    }
    await makeFolder(directory, options.out);
    for (const { contract, file, text, leftOut } of planned) {
      await writeWhole(file, text);
      io.stdout.write(
        `wrote ${printable(path.relative(io.cwd, file).split(path.sep).join('/'))}  (${printable(contract.fullyQualifiedName)}, version ${String(contract.version)}${odcs ? `, written as ODCS version ${semanticLike(String(contract.version))}: the catalog's MAJOR.MINOR with PATCH 0` : ''})\n`,
      );
      for (const field of leftOut)
        io.stderr.write(`  left out ${field}; the field stays unmanaged\n`);
    }
    io.stdout.write(
      `Imported ${planned.length} contract${planned.length === 1 ? '' : 's'}. Review them, commit them, and run \`contracts plan\`: it should show no changes.\n`,
    );
    return EXIT_OK;
  } finally {
    await client.close();
  }
}
