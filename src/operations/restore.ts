// The restore operation: soft-deleted contracts brought back (`contracts restore FQN...`), those
// this checkout's repository manages unless forced. Returns the report; prints nothing.
import { checkoutOf } from '../git/repository.js';
import { restoreContracts, type RestoreReport } from '../prune/restore.js';
import { connect, type ConnectionFlags } from './connection.js';

export { restoreFailed, type RestoreReport, type RestoreResult } from '../prune/restore.js';

export interface RestoreOptions extends ConnectionFlags {
  /** The fullyQualifiedNames of the contracts to restore. */
  names: readonly string[];
  /** `--force`: restore whatever repository the marker names, or none. */
  force: boolean;
}

export async function restoreOperation(
  options: RestoreOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<RestoreReport> {
  // Restores are sent one at a time.
  const { client, catalogUrl } = connect(options, env, 1);
  try {
    await client.preflight();
    return await restoreContracts(client, options.names, {
      checkout: await checkoutOf(cwd, env),
      force: options.force,
      catalogUrl,
    });
  } finally {
    await client.close();
  }
}
