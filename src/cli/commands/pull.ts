// `contracts pull [PATH...]`: the catalog's edits brought back into the files.
import type { Command } from 'commander';
import { parseConcurrency, pick } from '../parse-options.js';
import { withCatalogOptions, type CommandContext } from './context.js';

interface PullFlags {
  catalogUrl?: string;
  catalogProfile?: string;
  concurrency?: number;
  check?: boolean;
  json?: boolean;
}

export function addPullCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  withCatalogOptions(
    program
      .command('pull')
      .description(
        "rewrite each file whose live contract was edited in the catalog to hold the catalog's values, editing only what changed (comments, order and style stay), and say who changed what",
      )
      .argument(
        '[paths...]',
        'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
      ),
  )
    .option('--concurrency <n>', 'requests at once (default 8)', parseConcurrency)
    .option('--check', 'write nothing; exit 2 when pull would change files, 0 when not')
    .option('--json', 'the report as JSON on stdout')
    .action(async (paths: string[], options: PullFlags) => {
      const { runPull } = await import('../pull.js');
      setExit(
        await runPull(
          {
            paths: file.paths(paths),
            check: options.check === true,
            format: options.json === true ? 'json' : 'human',
            color: color(),
            ...pick(file.connection(options), ['catalogUrl', 'catalogProfile', 'concurrency']),
          },
          io,
        ),
      );
    });
}
