// `contracts show PLANFILE`: a saved plan rendered without the catalog.
import type { Command } from 'commander';
import { reportFormat } from '../../views/format.js';
import type { CommandContext } from './context.js';

export function addShowCommand(program: Command, { io, color, setExit }: CommandContext): void {
  program
    .command('show')
    .description('render a saved plan without the catalog (human, --markdown or --json)')
    .argument('<plan-file>', 'a plan saved by `plan --out`')
    .option('--format <format>', 'human (default), json or markdown')
    .option('--json', 'the plan JSON')
    .option('--markdown', 'the plan as markdown (as the GitHub Action shows it)')
    .action(
      async (
        planFile: string,
        options: { format?: string; json?: boolean; markdown?: boolean },
      ) => {
        const { runShow } = await import('../show.js');
        setExit(
          await runShow(
            {
              planFile,
              format: reportFormat(options),
              color: color(),
            },
            io,
          ),
        );
      },
    );
}
