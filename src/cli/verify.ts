// `contracts verify [PATH...]`: run each file's live contract on its data in the catalog and say
// whether it holds; and the same after `apply --verify`, for the contracts apply stored.
import { loadContracts } from '../read/load.js';
import { ConfigError } from '../model/errors.js';
import { resolveCatalog } from '../profile/profile.js';
import { verificationFails, verifyOperation } from '../operations/verify.js';
import { renderVerificationHuman } from '../views/render-verify.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { type Io } from './io.js';
import { colorsFor } from '../views/colors.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';
import { renderProblems } from '../views/problems.js';
import { noContractFiles } from './plan.js';
import type { Format } from '../views/format.js';

export interface VerifyCliOptions extends ConnectionFlags {
  paths: string[];
  format: Extract<Format, 'human' | 'json'>;
  color: boolean;
  /** How long to wait for a running result, in seconds. */
  timeoutSeconds?: number;
}

export async function runVerify(options: VerifyCliOptions, io: Io): Promise<number> {
  const loaded = await loadContracts(options.paths, io.cwd);
  if (loaded.problems.length > 0) {
    io.stdout.write(renderProblems(loaded.problems, 'human'));
    io.stderr.write(
      `Error: ${loaded.problems.length} problem${loaded.problems.length === 1 ? '' : 's'} in contract files; nothing was run.\n`,
    );
    return EXIT_ERROR;
  }
  if (loaded.files.length === 0) throw new ConfigError(noContractFiles(options.paths));
  const { client, profile: setting } = connect(options, io.env);
  try {
    await client.preflight();
    const { profile } = await resolveCatalog(setting, client);
    const report = await verifyOperation(loaded.files, client, profile, options.timeoutSeconds);
    io.stdout.write(
      options.format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderVerificationHuman(report, colorsFor(io.stdout, io.env, options.color)),
    );
    return verificationFails(report) ? EXIT_ERROR : EXIT_OK;
  } finally {
    await client.close();
  }
}
