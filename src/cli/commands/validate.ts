// `contracts validate [PATH...]`: the files checked against the schema, without the network.
import { Option, type Command } from 'commander';
import type { CommandContext } from './context.js';

function formatOption(): Option {
  return new Option('--format <format>', 'output format')
    .choices(['human', 'json', 'github', 'sarif'])
    .default('human');
}

export function addValidateCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  program
    .command('validate')
    .description('load and check contract files against the schema; no network')
    .argument(
      '[paths...]',
      'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
    )
    .addOption(formatOption())
    .option('--json', 'same as --format json')
    .option(
      '--catalog-profile <profile>',
      'spec or openmetadata: also report what that catalog cannot store, still without network (default: CATALOG_PROFILE when it names one)',
    )
    .action(
      async (
        paths: string[],
        options: {
          format: 'human' | 'json' | 'github' | 'sarif';
          json?: boolean;
          catalogProfile?: string;
        },
      ) => {
        const { runValidate } = await import('../validate.js');
        setExit(
          await runValidate(
            {
              // A broken settings file names no paths to trust: only the paths given are checked.
              paths: file.problems().length === 0 ? file.paths(paths) : paths,
              settingsProblems: file.problems(),
              format: options.json === true ? 'json' : options.format,
              color: color(),
              catalogProfile: options.catalogProfile,
            },
            io,
          ),
        );
      },
    );
}
