// The verify operation: run contracts on their data in the catalog and report whether each holds;
// for `contracts verify` (each file's live contract), and after an apply (the CLI's --verify and
// the Action's verify: the contracts it stored).
import type { CatalogClient } from '../catalog/client.js';
import type { ContractFile } from '../contract/parse.js';
import { NotFoundError } from '../model/errors.js';
import type { Profile } from '../model/profile.js';
import {
  failedVerification,
  verifyContracts,
  type VerifyReport,
  type VerifyTarget,
} from '../verify/verify-contracts.js';

/** Whether a verification report fails the command (exit 1, a failed step). */
export function verificationFails(report: VerifyReport): boolean {
  return report.results.some(failedVerification);
}

/** Verifies `targets` against `client`, waiting `timeoutSeconds` at most for a running result. */
export function verifyTargets(
  targets: readonly VerifyTarget[],
  client: CatalogClient,
  profile: Profile,
  timeoutSeconds?: number,
): Promise<VerifyReport> {
  return verifyContracts(targets, client, {
    profile,
    ...(timeoutSeconds !== undefined && { timeoutMs: timeoutSeconds * 1000 }),
  });
}

/** Verifies the live contract of each file; one the catalog lacks cannot be run (id null). */
export async function verifyOperation(
  files: readonly ContractFile[],
  client: CatalogClient,
  profile: Profile,
  timeoutSeconds?: number,
): Promise<VerifyReport> {
  const targets = await Promise.all(
    files.map(async (file): Promise<VerifyTarget> => {
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
  return verifyTargets(targets, client, profile, timeoutSeconds);
}
