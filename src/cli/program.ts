// Wires commands to commander. The only place that turns outcomes and errors into exit codes.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../model/errors.js';
import { examplesText } from './examples.js';
import { reportError } from './report-error.js';
import { VERSION } from '../support/version.js';
import type { Io } from './io.js';
import { parseConcurrency, pick } from './parse-options.js';
import { addFileCommands } from './file-commands.js';
import {
  addVerifyCommand,
  parseVerifyTimeout,
  VERIFY_TIMEOUT_FLAG,
  VERIFY_TIMEOUT_HELP,
} from './verify-command.js';
import { settingsFor } from '../settings/settled.js';
import { addSandboxCommands } from './sandbox-commands.js';
import { chosenFormat, isFormat } from '../views/format.js';

import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';

const FAIL_ON_FLAG = '--fail-on <when>';
const FAIL_ON_HELP =
  'exit 1 on what the plan finds: never (default), breaking (a breaking change), breaking-with-consumers (a breaking change with consumers downstream) or change (any change); else CONTRACTS_FAIL_ON, else .contracts.yaml';

function formatOption(): Option {
  return new Option('--format <format>', 'output format')
    .choices(['human', 'json', 'github', 'sarif'])
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
      outputError: (text, write) => write(usageError(text)),
    })
    .exitOverride();

  const color = (): boolean => program.opts<{ color: boolean }>().color;
  // The repository's .contracts.yaml: flag > environment > file > default.
  const file = settingsFor(io.cwd, io.env);
  // Read before any command's action (never for --version or --help).
  program.hook('preAction', () => file.load());

  program
    .command('validate')
    .description('load and check contract files against the schema; no network')
    .argument('[paths...]', 'files or directories (default: contracts/)')
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
        const { runValidate } = await import('./validate.js');
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

  /** `plan`, and `drift` (a plan whose exit code is always detailed). */
  const runPlanCommand = async (
    paths: string[],
    options: PlanFlags,
    drift: boolean,
  ): Promise<void> => {
    const format = options.format ?? 'human';
    if (!isFormat(format))
      throw new ConfigError(
        `--format must be human, json, markdown, github or sarif, got '${format}'`,
      );
    const { runPlan } = await import('./plan.js');
    setExit(
      await runPlan(
        {
          paths: file.paths(paths),
          format: chosenFormat({ format, json: options.json, markdown: options.markdown }),
          detailedExitcode: drift || options.detailedExitcode === true,
          drift,
          strict: options.strict === true,
          color: color(),
          failOn: file.failOn(options.failOn),
          acknowledgements: file.acknowledgements(),
          policies: file.policies(),
          prune: options.prune === true,
          impactDepth: file.impactDepth(),
          ...pick(file.connection(options), [
            'catalogUrl',
            'catalogProfile',
            'concurrency',
            'changedSince',
            'out',
          ]),
        },
        io,
      ),
    );
  };

  const catalogOptions = (command: Command): Command =>
    command
      .option(
        '--catalog-url <url>',
        'catalog base URL; /v1 is added (default: CATALOG_URL). The token comes from CATALOG_TOKEN',
      )
      .option(
        '--catalog-profile <profile>',
        'auto, spec or openmetadata: the shapes the catalog stores (default: CATALOG_PROFILE, else auto: asks the catalog its version)',
      )
      .option(
        '--concurrency <n>',
        'requests at once (default 8 for reads; apply sends one PATCH at a time unless given)',
        parseConcurrency,
      )
      .option(
        '--changed-since <ref>',
        'only plan files changed since this git ref (all files are still validated)',
      )
      .option(
        '--strict',
        'treat warnings as errors (columns the asset lacks or types that differ, changes the catalog would not keep, rules it could not be asked)',
      )
      .option('--json', 'machine output on stdout, nothing else on stdout');

  catalogOptions(
    program
      .command('plan')
      .description(
        'validate, read the live contracts by FQN, and print the changes apply would make',
      )
      .argument('[paths...]', 'files or directories (default: contracts/)')
      .option('--out <file>', 'save the plan for `contracts apply FILE`')
      .option('--markdown', 'print the plan as markdown (as the GitHub Action shows it)')
      .option(
        '--format <format>',
        'human (default), json, markdown, github (workflow commands annotating each finding at its line, then the plan) or sarif (SARIF 2.1.0, for code scanning)',
      )
      .option('--detailed-exitcode', 'exit 2 when there are changes (0 none, 1 error)')
      .option(FAIL_ON_FLAG, FAIL_ON_HELP)
      .option(PRUNE_FLAG, PRUNE_HELP),
  ).action((paths: string[], options: PlanFlags) => runPlanCommand(paths, options, false));

  catalogOptions(
    program
      .command('drift')
      .description(
        'plan every contract file; exit 2 when the catalog differs from the files, 0 when it agrees',
      )
      .argument('[paths...]', 'files or directories (default: contracts/)')
      .option('--markdown', 'print the plan as markdown')
      .option('--format <format>', 'human (default), json, markdown, github or sarif, as for plan')
      .option(
        '--detailed-exitcode',
        'accepted as plan takes it: drift always exits 2 when the catalog differs',
      )
      .option(FAIL_ON_FLAG, FAIL_ON_HELP),
  ).action((paths: string[], options: PlanFlags) => runPlanCommand(paths, options, true));

  program
    .command('show')
    .description('render a saved plan without the catalog (human, --markdown or --json)')
    .argument('<plan-file>', 'a plan saved by `plan --out`')
    .option('--json', 'the plan JSON')
    .option('--markdown', 'the plan as markdown (as the GitHub Action shows it)')
    .action(async (planFile: string, options: { json?: boolean; markdown?: boolean }) => {
      const { runShow } = await import('./show.js');
      setExit(
        await runShow(
          {
            planFile,
            json: options.json === true,
            markdown: options.markdown === true,
            color: color(),
          },
          io,
        ),
      );
    });

  catalogOptions(
    program
      .command('apply')
      .description('apply a saved plan (refused if stale), or plan and apply the files')
      .argument(
        '[plan-or-paths...]',
        'a plan file saved by `plan --out`, or contract files and directories (default: contracts/)',
      )
      .option('--auto-approve', 'apply without asking (required when stdin is not a terminal)')
      .option(
        PRUNE_FLAG,
        `${PRUNE_HELP}; with --auto-approve, also needed to apply a saved plan's deletions`,
      )
      .option(
        '--hard-delete',
        'delete for good (the catalog keeps nothing to restore); deletions are soft by default',
      )
      .option(
        '--verify',
        'then run each contract created or changed on its data in the catalog; exit 1 when one does not hold',
      )
      .option(VERIFY_TIMEOUT_FLAG, VERIFY_TIMEOUT_HELP, parseVerifyTimeout),
  ).action(
    async (
      args: string[],
      options: {
        catalogUrl?: string;
        catalogProfile?: string;
        concurrency?: number;
        changedSince?: string;
        json?: boolean;
        autoApprove?: boolean;
        strict?: boolean;
        prune?: boolean;
        hardDelete?: boolean;
        verify?: boolean;
        verifyTimeout?: number;
      },
    ) => {
      const { runApply } = await import('./apply.js');
      setExit(
        await runApply(
          {
            args: args.length > 0 ? args : file.paths([]),
            policies: file.policies(),
            autoApprove: options.autoApprove === true,
            prune: options.prune === true,
            hardDelete: options.hardDelete === true,
            impactDepth: file.impactDepth(),
            verify: options.verify === true,
            ...(options.verifyTimeout === undefined
              ? {}
              : { verifyTimeout: options.verifyTimeout }),
            strict: options.strict === true,
            json: options.json === true,
            color: color(),
            ...pick(file.connection(options), [
              'catalogUrl',
              'catalogProfile',
              'concurrency',
              'changedSince',
            ]),
          },
          io,
        ),
      );
    },
  );

  addFileCommands(program, io, setExit, file);
  addVerifyCommand(program, io, setExit, file, color);

  program
    .command('coverage')
    .description(
      'list every table with its contract (own, inherited or none) and whether a file in git manages it',
    )
    .argument(
      '[paths...]',
      'contract files or directories to match tables with (default: contracts/)',
    )
    .option('--database <fqn>', 'only tables of this database, e.g. warehouse.sales')
    .option('--page-size <n>', 'tables per page, 1 to 1000 (default 1000)', (value) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 1000)
        throw new InvalidArgumentError('must be a whole number from 1 to 1000');
      return n;
    })
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
          json?: boolean;
          markdown?: boolean;
          catalogUrl?: string;
          concurrency?: number;
        },
      ) => {
        const { runCoverage } = await import('./coverage.js');
        setExit(
          await runCoverage(
            {
              paths: file.givenPaths(paths),
              format:
                options.json === true ? 'json' : options.markdown === true ? 'markdown' : 'human',
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

  addSandboxCommands(program, io, setExit);

  for (const command of program.commands) {
    const text = examplesText(command.name());
    if (text !== undefined) command.addHelpText('after', text);
  }
  return program;
}

/** The flags of `plan` and `drift`, as commander gives them. */
const PRUNE_FLAG = '--prune';
const PRUNE_HELP =
  'also delete the contracts this repository manages whose files are gone (off by default)';

interface PlanFlags {
  catalogUrl?: string;
  catalogProfile?: string;
  concurrency?: number;
  changedSince?: string;
  json?: boolean;
  out?: string;
  markdown?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  failOn?: string;
  strict?: boolean;
  prune?: boolean;
}

/**
 * A usage error as every other error reads (`Error: …`), with the two dashes a Terraform habit
 * leaves out (`-auto-approve`: here `--auto-approve`).
 */
function usageError(text: string): string {
  const said = text.replace(/^error: /, 'Error: ');
  const single = /unknown option '-([a-z][a-z-]+)'/.exec(said);
  return single === null
    ? said
    : `${said.trimEnd()}\nOptions take two dashes here: --${single[1]!}\n`;
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
