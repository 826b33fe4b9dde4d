// `contracts apply [PLAN | PATH...]`: a saved plan applied, or the files planned and applied.
import type { Command } from 'commander';
import { pick } from '../parse-options.js';
import { withPlanningOptions, type CommandContext } from './context.js';
import { PRUNE_FLAG, PRUNE_HELP } from './plan.js';
import { parseVerifyTimeout, VERIFY_TIMEOUT_FLAG, VERIFY_TIMEOUT_HELP } from './verify.js';

export function addApplyCommand(
  program: Command,
  { io, file, color, setExit }: CommandContext,
): void {
  withPlanningOptions(
    program
      .command('apply')
      .description('apply a saved plan (refused if stale), or plan and apply the files')
      .argument(
        '[plan-or-paths...]',
        'a plan file saved by `plan --out`, or contract files and directories (default: `paths` of .contracts.yaml, else contracts/)',
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
      const { runApply } = await import('../apply.js');
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
}
