// `contracts coverage [PATH...]`: which tables have a contract, and which of those git manages.
import { InvalidArgumentError, type Command } from 'commander';
import { reportFormat } from '../../views/format.js';
import { parseConcurrency, pick } from '../parse-options.js';
import type { CommandContext } from './context.js';

export function addCoverageCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  program
    .command('coverage')
    .description(
      'list every table with its contract (own, inherited or none) and whether a file in git manages it',
    )
    .argument(
      '[paths...]',
      'contract files or directories to match tables with (default: `paths` of .contracts.yaml, else contracts/)',
    )
    .option('--database <fqn>', 'only tables of this database, e.g. warehouse.sales')
    .option('--page-size <n>', 'tables per page, 1 to 1000 (default 1000)', (value) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 1000)
        throw new InvalidArgumentError('must be a whole number from 1 to 1000');
      return n;
    })
    .option('--format <format>', 'human (default), json or markdown')
    .option('--json', 'the report as JSON')
    .option('--markdown', 'the report as markdown')
    .option(
      '--catalog-url <url>',
      'catalog base URL (default: CATALOG_URL); the token comes from CATALOG_TOKEN',
    )
    .option('--concurrency <n>', 'requests at once (default 8)', parseConcurrency)
    .action(
      async (
        paths: string[],
        options: {
          database?: string;
          pageSize?: number;
          format?: string;
          json?: boolean;
          markdown?: boolean;
          catalogUrl?: string;
          concurrency?: number;
        },
      ) => {
        const { runCoverage } = await import('../coverage.js');
        setExit(
          await runCoverage(
            {
              paths: file.givenPaths(paths),
              format: reportFormat(options),
              color: color(),
              ...pick(file.connection(options), [
                'database',
                'pageSize',
                'catalogUrl',
                'concurrency',
              ]),
            },
            io,
          ),
        );
      },
    );
}
