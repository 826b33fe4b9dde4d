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
