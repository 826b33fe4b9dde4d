// `contracts restore FQN...`: soft-deleted contracts brought back, those this repository manages
// unless --force.
import type { Command } from 'commander';
import { pick } from '../parse-options.js';
import { withCatalogOptions, type CommandContext } from './context.js';

export function addRestoreCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  withCatalogOptions(
    program
      .command('restore')
      .description(
        'restore soft-deleted data contracts (apply --prune deletes softly) that this repository manages',
      )
      .argument('<fqn...>', "the contracts' fullyQualifiedNames"),
  )
    .option(
      '--force',
      'restore a contract whose marker (extension.managedBy) names another repository, or that has none',
    )
    .option('--json', 'the report as JSON on stdout')
    .action(
      async (
        names: string[],
        options: { catalogUrl?: string; catalogProfile?: string; force?: boolean; json?: boolean },
      ) => {
        const { runRestore } = await import('../restore.js');
        setExit(
          await runRestore(
            {
              names,
              force: options.force === true,
              json: options.json === true,
              color: color(),
              ...pick(file.connection(options), ['catalogUrl', 'catalogProfile']),
            },
            io,
          ),
        );
      },
    );
}
