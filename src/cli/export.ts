// `contracts export --format odcs [PATH...] [--out DIR]`: this tool's contract files as ODCS v3.1.0
// documents, to standard output or one file each in a folder; no network. Each document reads
// back as the contract it came from (to-odcs.ts); what ODCS cannot carry is said on stderr.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadContracts } from '../read/load.js';
import { withContract } from '../contract/parse.js';
import { declaredVersion, semanticLike } from '../gate/version-gate.js';
import { ConfigError } from '../model/errors.js';
import { filePathFor } from '../import/import-contracts.js';
import { odcsFileText } from '../contract/to-odcs.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { makeFolder, outputFolder, schemaPathFrom, writeWhole } from './import.js';
import type { Io } from './io.js';
import { renderProblems } from '../views/problems.js';

export interface ExportOptions {
  paths: string[];
  format: 'native' | 'odcs';
  /** A folder to write `<FQN>.odcs.yaml` files into; standard output when not given. */
  out?: string;
  force: boolean;
}

/**
 * A stable ODCS id for a contract FQN (ODCS requires one; a file of ours has none): a UUID made of
 * the FQN's hash, so that exporting again gives the same document.
 */
function stableId(fqn: string): string {
  const hex = createHash('sha256').update(`contracts-gitops:${fqn}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function runExport(options: ExportOptions, io: Io): Promise<number> {
  if (options.format !== 'odcs')
    throw new ConfigError(
      `export writes ODCS documents: give --format odcs (this tool's own files are what it reads), got '${options.format}'`,
    );
  const directory = options.out === undefined ? undefined : await outputFolder(options.out, io.cwd);
  const loaded = await loadContracts(options.paths, io.cwd);
  if (loaded.problems.length > 0) {
    io.stderr.write(renderProblems(loaded.problems, 'human'));
    return EXIT_ERROR;
  }
  if (loaded.files.length === 0)
    throw new ConfigError(
      `no contract files in ${options.paths.join(', ')} (looked for *.yaml and *.yml below it); nothing was exported`,
    );
  const schemaPath =
    directory === undefined
      ? undefined
      : schemaPathFrom(directory, io.cwd, 'odcs/odcs-json-schema-v3.1.0.json');
  const written: { from: string; file?: string; text: string; leftOut: string[] }[] = [];
  for (const stored of loaded.files) {
    if (stored.format === 'odcs') {
      io.stderr.write(`${stored.file} is an ODCS document already; it is not exported again\n`);
      continue;
    }
    const { contract } = withContract(stored);
    // Active is a status of the specification's catalogs alone; any other reads as OpenMetadata's.
    const profile = contract.entityStatus === 'Active' ? 'spec' : 'openmetadata';
    // The file's own semantic version, carried (ODCS requires one: 1.0.0 when the file has none).
    const declared = declaredVersion(stored.text, false)?.version;
    const { text, leftOut } = odcsFileText(
      contract,
      { id: stableId(contract.fullyQualifiedName), version: semanticLike(declared ?? '1.0.0') },
      profile,
      schemaPath ?? 'https://github.com/bitol-io/open-data-contract-standard',
    );
    written.push({
      from: stored.file,
      ...(directory === undefined
        ? {}
        : { file: filePathFor(directory, contract.fullyQualifiedName, '.odcs.yaml') }),
      // On standard output the schema comment names no path of this machine.
      text: directory === undefined ? text.replace(/^# yaml-language-server:.*\n/, '') : text,
      leftOut,
    });
  }
  if (directory !== undefined) {
    const existing = written.filter(
      (w) => w.file !== undefined && !options.force && existsSync(w.file),
    );
    if (existing.length > 0)
      throw new ConfigError(
        `${existing.map((w) => path.relative(io.cwd, w.file!)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; use --force to overwrite. Nothing was written.`,
      );
    await makeFolder(directory, options.out!);
  }
  written.forEach((w, i) => {
    for (const field of w.leftOut) io.stderr.write(`${w.from}: left out ${field}\n`);
    if (w.file === undefined)
      io.stdout.write(`${i === 0 ? '' : '---\n'}# exported from ${w.from}\n${w.text}`);
  });
  for (const w of written)
    if (w.file !== undefined) {
      await writeWhole(w.file, w.text);
      io.stdout.write(
        `wrote ${path.relative(io.cwd, w.file).split(path.sep).join('/')}  (from ${w.from})\n`,
      );
    }
  return EXIT_OK;
}
