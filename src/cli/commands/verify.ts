// `contracts verify [PATH...]`: each live contract run on its data in the catalog; and the
// `--verify-timeout` flag apply shares.
import type { Command } from 'commander';
import { ConfigError } from '../../model/errors.js';
import { pick } from '../parse-options.js';
import { withCatalogOptions, type CommandContext } from './context.js';

/** `--verify-timeout`: whole seconds from 1 to 3600. */
export function parseVerifyTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || seconds < 1 || seconds > 3600)
    throw new ConfigError(
      `--verify-timeout must be a whole number of seconds from 1 to 3600, got '${value}'`,
    );
  return seconds;
}

export const VERIFY_TIMEOUT_FLAG = '--verify-timeout <seconds>';
export const VERIFY_TIMEOUT_HELP =
  'how long to wait for a result the catalog is still running (its quality tests), in seconds (default 60)';

export function addVerifyCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  withCatalogOptions(
    program
      .command('verify')
      .description(
        'run each contract on its data in the catalog (schema, semantics, quality) and say whether it holds',
      )
      .argument(
        '[paths...]',
        'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
      ),
  )
    .option(VERIFY_TIMEOUT_FLAG, VERIFY_TIMEOUT_HELP, parseVerifyTimeout)
    .option('--json', 'the results as JSON on stdout')
    .action(
      async (
        paths: string[],
        options: {
          catalogUrl?: string;
          catalogProfile?: string;
          verifyTimeout?: number;
          json?: boolean;
        },
      ) => {
        const { runVerify } = await import('../verify.js');
        setExit(
          await runVerify(
            {
              paths: file.paths(paths),
              format: options.json === true ? 'json' : 'human',
              color: color(),
              ...(options.verifyTimeout === undefined
                ? {}
                : { timeoutSeconds: options.verifyTimeout }),
              ...pick(file.connection(options), ['catalogUrl', 'catalogProfile']),
            },
            io,
          ),
        );
      },
    );
}
