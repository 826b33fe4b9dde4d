// `contracts doctor [--fix]`: the configured catalog checked without writing; `--fix` defines the
// custom properties the tool needs through the catalog's types API.
import type { Command } from 'commander';
import { pick } from '../parse-options.js';
import { withCatalogOptions, type CommandContext } from './context.js';

export function addDoctorCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  withCatalogOptions(
    program
      .command('doctor')
      .description(
        'check the configured catalog without writing: reach, token, release, permissions, custom properties, routes',
      )
      .argument(
        '[paths...]',
        'contract files or directories: whether any declares a version (default: contracts/)',
      ),
  )
    .option(
      '--fix',
      "define the custom properties the tool needs (managedBy, contractVersion) through the catalog's types API; needs an admin's token",
    )
    .option('--json', 'the report as JSON on stdout')
    .action(
      async (
        paths: string[],
        options: { catalogUrl?: string; catalogProfile?: string; fix?: boolean; json?: boolean },
      ) => {
        const { runDoctor } = await import('../doctor.js');
        setExit(
          await runDoctor(
            {
              paths: file.paths(paths),
              fix: options.fix === true,
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
