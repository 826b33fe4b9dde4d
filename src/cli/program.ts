// Wires commands to commander. The only place that turns outcomes and errors into exit codes.
import { Command, CommanderError, Option } from 'commander';
import { ContractsError, InternalError } from '../errors.js';
import { VERSION } from '../version.js';
import type { Io } from './io.js';

/** Exit codes: 0 success (plan: no changes), 1 any error, 2 plan found changes (--detailed-exitcode). */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_CHANGES = 2;

function formatOption(): Option {
  return new Option('--format <format>', 'output format')
    .choices(['human', 'json', 'github'])
    .default('human');
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('contracts')
    .description(
      'Manage data contracts as code: validate, plan and apply them against the metadata catalog.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('--no-color', 'never color the output (NO_COLOR does the same)')
    .option('--debug', 'show stack traces of internal errors')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();

  const color = (): boolean => program.opts<{ color: boolean }>().color;

  program
    .command('validate')
    .description('load and check contract files against the schema; no network')
    .argument('[paths...]', 'files or directories (default: contracts/)')
    .addOption(formatOption())
    .option('--json', 'same as --format json')
    .action(
      async (paths: string[], options: { format: 'human' | 'json' | 'github'; json?: boolean }) => {
        const { runValidate } = await import('./validate.js');
        setExit(
          await runValidate(
            {
              paths: paths.length > 0 ? paths : ['contracts'],
              format: options.json === true ? 'json' : options.format,
              color: color(),
            },
            io,
          ),
        );
      },
    );

  const sandbox = program
    .command('sandbox')
    .description('the embedded catalog, for the demo, tests and trying things out');
  sandbox
    .command('serve')
    .description(
      'serve the catalog interface over HTTP (the built-in demo catalog unless --seed is given)',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', (v) => Number(v), 8585)
    .option('--seed <file>', 'JSON seed file (users, assets, dataProducts, dataContracts)')
    .option(
      '--secret <secret>',
      'HS256 secret for tokens (default: SANDBOX_SECRET or a built-in local secret)',
    )
    .option('--data <file>', 'keep the state in this file across restarts')
    .action(
      async (options: {
        host: string;
        port: number;
        seed?: string;
        secret?: string;
        data?: string;
      }) => {
        const { runServe } = await import('./sandbox.js');
        setExit(await runServe(options, io));
      },
    );
  sandbox
    .command('token')
    .description('print a JWT for a sandbox user')
    .requiredOption('--user <name>', 'user name from the seed')
    .option(
      '--secret <secret>',
      'HS256 secret the sandbox uses (default: SANDBOX_SECRET or the built-in local secret)',
    )
    .option('--expires-in <duration>', 'lifetime such as 30m, 1h or 7d', '1h')
    .action(async (options: { user: string; secret?: string; expiresIn: string }) => {
      const { runToken } = await import('./sandbox.js');
      setExit(await runToken(options, io));
    });

  return program;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  let exitCode = EXIT_OK;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_ERROR;
    const debug = argv.includes('--debug') || (io.env.CONTRACTS_DEBUG ?? '') !== '';
    if (error instanceof ContractsError && !(error instanceof InternalError)) {
      io.stderr.write(`Error: ${error.message}\n`);
    } else {
      const text =
        error instanceof Error
          ? debug
            ? (error.stack ?? error.message)
            : error.message
          : String(error);
      io.stderr.write(
        `Internal error: ${text}\n${debug ? '' : 'Run again with --debug for details, and please report it.\n'}`,
      );
    }
    return EXIT_ERROR;
  }
}
