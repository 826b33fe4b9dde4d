// `contracts pull [PATH...] [--check] [--json]`: the pull operation, its report, the exit code
// (1 when a file could not be pulled or read, 2 with --check when files would change, else 0).
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import type { Io } from './io.js';
import { progressLine } from './progress.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';
import { pullOperation } from '../operations/pull.js';
import { checkoutOf } from '../git/repository.js';
import { ConfigError } from '../model/errors.js';
import { pulledFiles, type PullReport } from '../pull/types.js';
import { colorsFor } from '../views/colors.js';
import { renderProblems } from '../views/problems.js';
import { renderPullHuman } from '../views/pull.js';
import { noContractFiles } from './plan.js';

export interface PullCliOptions extends ConnectionFlags {
  paths: string[];
  check: boolean;
  format: 'human' | 'json';
  color: boolean;
}

function exitCode(report: PullReport): number {
  if (report.contracts.some((c) => c.status === 'refused' || c.status === 'error'))
    return EXIT_ERROR;
  return report.check && pulledFiles(report).length > 0 ? EXIT_CHANGES : EXIT_OK;
}

export async function runPull(options: PullCliOptions, io: Io): Promise<number> {
  const { client, catalogUrl, profile, connections } = connect(options, io.env);
  const progress = progressLine(io.stderr, 'Reading live contracts', { concurrency: connections });
  try {
    const outcome = await pullOperation(
      {
        paths: options.paths,
        cwd: io.cwd,
        catalogUrl,
        profile,
        progress,
        check: options.check,
        repository: checkoutOf(io.cwd, io.env),
        history: (id) => client.contractHistory(id),
      },
      client,
    ).finally(() => progress.clear());
    if (!outcome.ok) {
      io.stdout.write(renderProblems(outcome.problems, options.format));
      io.stderr.write(
        `Error: ${outcome.problems.length} problem${outcome.problems.length === 1 ? '' : 's'} in contract files; nothing was pulled.\n`,
      );
      return EXIT_ERROR;
    }
    const { report } = outcome;
    if (report.contracts.length === 0 && report.unchanged === 0)
      throw new ConfigError(noContractFiles(options.paths));
    io.stdout.write(
      options.format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderPullHuman(report, colorsFor(io.stdout, io.env, options.color)),
    );
    return exitCode(report);
  } finally {
    await client.close();
  }
}
