// `contracts verify [PATH...]`: run each file's live contract on its data in the catalog and say
// whether it holds; and the same after `apply --verify`, for the contracts apply stored.
import type { CatalogClient } from '../catalog/client.js';
import { loadContracts } from '../contract/load.js';
import { ConfigError, NotFoundError } from '../errors.js';
import type { Profile } from '../profile/profile.js';
import { resolveCatalog } from '../profile/profile.js';
import {
  failedVerification,
  verifyContracts,
  type VerifyReport,
  type VerifyTarget,
} from '../verify/verify-contracts.js';
import { renderVerificationHuman } from '../verify/render-verify.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { colorsFor, type Io } from './io.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';
import { renderProblems } from '../views/problems.js';
import { noContractFiles } from './plan.js';

export interface VerifyCliOptions extends ConnectionFlags {
  paths: string[];
  json: boolean;
  color: boolean;
  /** How long to wait for a running result, in seconds. */
  timeoutSeconds?: number;
}

/** Whether a verification report fails the command (exit 1). */
export function verificationFails(report: VerifyReport): boolean {
  return report.results.some(failedVerification);
}

/** Verifies `targets` against `client`, waiting `timeoutSeconds` at most for a running result. */
export function verifyTargets(
  targets: readonly VerifyTarget[],
  client: CatalogClient,
  profile: Profile,
  timeoutSeconds: number | undefined,
): Promise<VerifyReport> {
  return verifyContracts(targets, client, {
    profile,
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
  });
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
    // Each file's live contract, for its id; one the catalog lacks cannot be run.
    const targets = await Promise.all(
      loaded.files.map(async (file): Promise<VerifyTarget> => {
        const fullyQualifiedName = file.identity.fullyQualifiedName;
        try {
          const live = await client.getContractByName(fullyQualifiedName);
          return { file: file.file, fullyQualifiedName, id: live.id };
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          return { file: file.file, fullyQualifiedName, id: null };
        }
      }),
    );
    const report = await verifyTargets(targets, client, profile, options.timeoutSeconds);
    io.stdout.write(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderVerificationHuman(report, colorsFor(io.stdout, io.env, options.color)),
    );
    return verificationFails(report) ? EXIT_ERROR : EXIT_OK;
  } finally {
    await client.close();
  }
}
