// The commands that write contract files: `new` (a draft for an asset without a contract),
// `import` (live contracts, as this tool's files or ODCS documents) and `export` (this tool's files
// as ODCS documents).
import type { Command } from 'commander';
import { ConfigError } from '../../model/errors.js';
import { parseConcurrency, pick } from '../parse-options.js';
import { withCatalogOptions, type CommandContext } from './context.js';

/** `--format` of import and export: native or odcs. */
function fileFormat(format: string): 'native' | 'odcs' {
  if (format !== 'native' && format !== 'odcs')
    throw new ConfigError(`--format must be native or odcs, got '${format}'`);
  return format;
}

export function addFileCommands(program: Command, { io, file, setExit }: CommandContext): void {
  withCatalogOptions(
    program
      .command('new')
      .description(
        'write a contract file for an asset without a contract, from its columns and owners',
      )
      .requiredOption('--entity <type:fqn>', 'the asset, e.g. table:warehouse.sales.public.orders')
      .option('--out <dir>', 'directory to write to', 'contracts')
      .option('--force', 'overwrite an existing file of that name'),
  ).action(
    async (options: {
      entity: string;
      out: string;
      force?: boolean;
      catalogUrl?: string;
      catalogProfile?: string;
    }) => {
      const { runNew } = await import('../new.js');
      setExit(
        await runNew(
          {
            entity: options.entity,
            out: options.out,
            force: options.force === true,
            ...pick(file.connection(options), ['catalogUrl', 'catalogProfile']),
          },
          io,
        ),
      );
    },
  );

  program
    .command('export')
    .description('write contract files as ODCS v3.1.0 documents; no network')
    .argument(
      '[paths...]',
      'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
    )
    .requiredOption('--format <format>', 'odcs: the Open Data Contract Standard, v3.1.0')
    .option(
      '--out <dir>',
      'a folder to write <FQN>.odcs.yaml files into (default: standard output)',
    )
    .option('--force', 'overwrite existing files')
    .action(async (paths: string[], options: { format: string; out?: string; force?: boolean }) => {
      const { runExport } = await import('../export.js');
      setExit(
        await runExport(
          {
            paths: file.paths(paths),
            format: fileFormat(options.format),
            ...(options.out === undefined ? {} : { out: options.out }),
            force: options.force === true,
          },
          io,
        ),
      );
    });

  withCatalogOptions(
    program
      .command('import')
      .description('write live contracts as contract files that plan back to no changes')
      .option('--fqn <fqn...>', 'contract fully qualified names')
      .option(
        '--entity <type:fqn...>',
        'assets whose own contract to import, e.g. table:warehouse.sales.public.orders',
      )
      .option('--out <dir>', 'directory to write to', 'contracts')
      .option('--force', 'overwrite existing files')
      .option(
        '--format <format>',
        "native (this tool's files, the default) or odcs (ODCS v3.1.0 documents, *.odcs.yaml)",
        'native',
      ),
  )
    .option('--concurrency <n>', 'requests at once (default 8)', parseConcurrency)
    .action(
      async (options: {
        fqn?: string[];
        entity?: string[];
        out: string;
        force?: boolean;
        format: string;
        catalogUrl?: string;
        catalogProfile?: string;
        concurrency?: number;
      }) => {
        const { runImport } = await import('../import.js');
        setExit(
          await runImport(
            {
              fqns: options.fqn ?? [],
              entities: options.entity ?? [],
              out: options.out,
              force: options.force === true,
              format: fileFormat(options.format),
              ...pick(file.connection(options), ['catalogUrl', 'catalogProfile', 'concurrency']),
            },
            io,
          ),
        );
      },
    );
}
