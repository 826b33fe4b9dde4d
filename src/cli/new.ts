// `contracts new --entity TYPE:FQN [--out DIR] [--force]`: a contract file for an asset without a
// contract, its columns, types and owners read from the catalog, ready to plan as a create.
// Nothing is written when the asset is missing, already has a contract, or a file manages it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, NotFoundError } from '../model/errors.js';
import { contractFileText, fileNameFor } from '../import/import-contracts.js';
import { managingFiles } from '../import/managed-files.js';
import { scaffoldContract } from '../import/scaffold.js';
import { assetKey, lookupAssets, searchIndexFor } from '../read/live-assets.js';
import type { AssetDocument } from '../plan/asset-document.js';
import { EXIT_OK } from './exit-codes.js';
import {
  makeFolder,
  outputFolder,
  parseEntityArgument,
  schemaPathFrom,
  writeWhole,
} from './import.js';
import type { Io } from './io.js';
import { connect, connectedCodec, type ConnectionFlags } from '../operations/connection.js';

export interface NewOptions extends ConnectionFlags {
  entity: string;
  out: string;
  force: boolean;
}

export async function runNew(options: NewOptions, io: Io): Promise<number> {
  const entity = parseEntityArgument(options.entity);
  const directory = await outputFolder(options.out, io.cwd);
  const { client, profile } = connect(options, io.env);
  try {
    const codec = await connectedCodec(client, profile);
    const lookup = (await lookupAssets(client, codec.profile, [entity])).get(
      assetKey(entity.type, entity.fullyQualifiedName),
    );
    const what = `${entity.type} ${entity.fullyQualifiedName}`;
    if (lookup?.kind === 'unchecked')
      throw new ConfigError(`${what} could not be looked up: ${lookup.reason}`);
    if (lookup?.kind !== 'found')
      throw new ConfigError(
        `${what} is not in the catalog's search index (check the type and the FQN, which are case-sensitive); nothing was written`,
      );
    try {
      const effective = await client.getEffectiveContract(lookup.asset.id, entity.type);
      if (effective.inherited !== true)
        throw new ConfigError(
          `${what} already has contract ${effective.fullyQualifiedName}: write its file with contracts import --fqn ${effective.fullyQualifiedName}; nothing was written`,
        );
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    // A table found in its schema's listing carries its columns, not its owners: its search
    // document has them.
    const index = searchIndexFor(entity.type, codec.profile);
    const document =
      index === undefined || lookup.asset.owners !== undefined
        ? lookup.asset
        : ((
            await client.fieldQuery({
              fieldName: 'fullyQualifiedName',
              fieldValue: entity.fullyQualifiedName,
              index,
            })
          ).hits.hits
            .map((hit) => hit._source as AssetDocument)
            .find((hit) => hit.fullyQualifiedName === entity.fullyQualifiedName) ?? lookup.asset);
    const contract = scaffoldContract(
      { ...lookup.asset, owners: document.owners },
      entity.type,
      codec.profile,
    );
    const managed = await managingFiles(directory, io.cwd, [contract]);
    const manager = managed.get(contract);
    if (manager !== undefined)
      throw new ConfigError(
        `${manager} already manages ${what}: edit that file instead; nothing was written`,
      );
    const file = path.join(directory, fileNameFor(contract.name));
    if (existsSync(file) && !options.force)
      throw new ConfigError(
        `${path.relative(io.cwd, file)} already exists; use --force to overwrite, or --out another folder. Nothing was written.`,
      );
    const { text, leftOut } = contractFileText(contract, schemaPathFrom(directory, io.cwd), codec);
    await makeFolder(directory, options.out);
    await writeWhole(file, text);
    const shown = path.relative(io.cwd, file).split(path.sep).join('/');
    io.stdout.write(
      `wrote ${shown}  (${contract.fullyQualifiedName}, a draft on ${what})\n${leftOut.length === 0 ? '' : `  left out ${leftOut.join('; ')}\n`}Review it (status, semantics, SLA, terms) and run \`contracts plan\`: it shows the contract to create.\n`,
    );
    return EXIT_OK;
  } finally {
    await client.close();
  }
}
