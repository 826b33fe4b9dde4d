// The command line, assembled: the program's own flags, then every command from src/cli/commands/
// (one module per group, each declaring its arguments, flags and help). The only place that turns
// outcomes and errors into exit codes.
import { Command, CommanderError } from 'commander';
import { examplesText } from './examples.js';
import { reportError } from './report-error.js';
import { VERSION } from '../support/version.js';
import type { Io } from './io.js';
import { settingsFor } from '../settings/settled.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import type { CommandContext } from './commands/context.js';
import { addValidateCommand } from './commands/validate.js';
import { addPlanCommands } from './commands/plan.js';
import { addShowCommand } from './commands/show.js';
import { addApplyCommand } from './commands/apply.js';
import { addFileCommands } from './commands/files.js';
import { addVerifyCommand } from './commands/verify.js';
import { addPullCommand } from './commands/pull.js';
import { addCoverageCommand } from './commands/coverage.js';
import { addDoctorCommand } from './commands/doctor.js';
import { addRestoreCommand } from './commands/restore.js';
import { addSandboxCommands } from './commands/sandbox.js';

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
      outputError: (text, write) => write(usageError(text)),
    })
    .exitOverride();

  const context: CommandContext = {
    io,
    // The repository's .contracts.yaml: flag > environment > file > default.
    file: settingsFor(io.cwd, io.env),
    color: () => program.opts<{ color: boolean }>().color,
    setExit,
  };
  // Read before any command's action (never for --version or --help).
  program.hook('preAction', () => context.file.load());

  // In the order `contracts --help` lists them.
  addValidateCommand(program, context); // validate
  addPlanCommands(program, context); // plan, drift
  addShowCommand(program, context); // show
  addApplyCommand(program, context); // apply
  addRestoreCommand(program, context); // restore
  addFileCommands(program, context); // new, export, import
  addPullCommand(program, context); // pull
  addVerifyCommand(program, context); // verify
  addCoverageCommand(program, context); // coverage
  addDoctorCommand(program, context); // doctor
  addSandboxCommands(program, context); // sandbox serve, sandbox token

  for (const command of program.commands) {
    const text = examplesText(command.name());
    if (text !== undefined) command.addHelpText('after', text);
  }
  return program;
}

/**
 * A usage error as every other error reads (`Error: …`), with the two dashes a Terraform habit
 * leaves out (`-auto-approve`: here `--auto-approve`).
 */
function usageError(text: string): string {
  const said = text.replace(/^error: /, 'Error: ');
  const single = /unknown option '-([a-z][a-z-]+)(=[^']*)?'/.exec(said);
  return single === null
    ? said
    : `${said.trimEnd()}\nOptions take two dashes here: --${single[1]!}${single[2] ?? ''}\n`;
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
    await reportError(error, argv, io);
    return EXIT_ERROR;
  }
}
