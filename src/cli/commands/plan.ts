// `contracts plan [PATH...]` and `contracts drift [PATH...]` (a plan whose exit code is always
// detailed).
import type { Command } from 'commander';
import { ConfigError } from '../../model/errors.js';
import { chosenFormat, isFormat } from '../../views/format.js';
import { pick } from '../parse-options.js';
import { withPlanningOptions, type CommandContext } from './context.js';

const FAIL_ON_FLAG = '--fail-on <when>';
const FAIL_ON_HELP =
  'exit 1 on what the plan finds: never (default), breaking (a breaking change), breaking-with-consumers (a breaking change with consumers downstream) or change (any change); else CONTRACTS_FAIL_ON, else .contracts.yaml';

export const PRUNE_FLAG = '--prune';
export const PRUNE_HELP =
  'also delete the contracts this repository manages whose files are gone (off by default)';

/** The flags of `plan` and `drift`, as commander gives them. */
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

export function addPlanCommands(program: Command, context: CommandContext): void {
  const { io, file, color, setExit } = context;
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
    const { runPlan } = await import('../plan.js');
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

  withPlanningOptions(
    program
      .command('plan')
      .description(
        'validate, read the live contracts by FQN, and print the changes apply would make',
      )
      .argument(
        '[paths...]',
        'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
      )
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

  withPlanningOptions(
    program
      .command('drift')
      .description(
        'plan every contract file; exit 2 when the catalog differs from the files, 0 when it agrees',
      )
      .argument(
        '[paths...]',
        'files or directories (default: `paths` of .contracts.yaml, else contracts/)',
      )
      .option('--markdown', 'print the plan as markdown')
      .option('--format <format>', 'human (default), json, markdown, github or sarif, as for plan')
      .option(
        '--detailed-exitcode',
        'accepted as plan takes it: drift always exits 2 when the catalog differs',
      )
      .option(FAIL_ON_FLAG, FAIL_ON_HELP)
      .option(PRUNE_FLAG, PRUNE_HELP),
  ).action((paths: string[], options: PlanFlags) => runPlanCommand(paths, options, true));
}
