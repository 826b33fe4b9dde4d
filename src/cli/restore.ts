// `contracts restore FQN...`: the restore operation, its report rendered, exit 0 when every
// contract named is restored (or was not deleted) and 1 otherwise.
import { restoreFailed, restoreOperation, type RestoreOptions } from '../operations/restore.js';
import { colorsFor } from '../views/colors.js';
import { renderRestoreHuman, renderRestoreJson } from '../views/restore.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import type { Io } from './io.js';

export interface RestoreCliOptions extends RestoreOptions {
  json: boolean;
  color: boolean;
}

export async function runRestore(options: RestoreCliOptions, io: Io): Promise<number> {
  const report = await restoreOperation(options, io.env, io.cwd);
  io.stdout.write(
    options.json
      ? renderRestoreJson(report)
      : renderRestoreHuman(report, colorsFor(io.stdout, io.env, options.color)),
  );
  if (!restoreFailed(report)) return EXIT_OK;
  const failed = report.results.find((result) => result.outcome === 'failed');
  io.stderr.write(
    `Error: ${failed === undefined ? 'a restore failed' : `${failed.fullyQualifiedName} was not restored: ${failed.message}`}; what was restored before it stays restored.\n`,
  );
  return EXIT_ERROR;
}
