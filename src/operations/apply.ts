// The apply operation: apply a plan made from the files (with the live contracts and desired
// contracts the plan operation kept), verify what was stored, and judge the run. Shared
// by the CLI (`apply` with --auto-approve) and the Action's apply; data only, nothing printed.
// The verification after it is its own step: the Action and the CLI wait for it each their way.
import { applyPlan, type ApplyOptions, type ApplyReport } from '../apply/apply-plan.js';
import type { CatalogClient } from '../catalog/client.js';
import {
  appliedTargets,
  failedVerification,
  type VerifyReport,
} from '../verify/verify-contracts.js';
import type { PlannedOutcome } from './plan.js';
import { verifyTargets } from './verify.js';

/** Why an apply fails, first reason first; null when it passes. */
export type ApplyVerdict =
  | { failed: 'interrupted' }
  | { failed: 'stopped'; by: NonNullable<ApplyReport['stoppedBy']>; notAttempted: string[] }
  | { failed: 'failed'; count: number }
  | { failed: 'unheld'; count: number }
  | null;

/** How the caller applies: everything apply-plan takes but what the plan operation kept. */
export type ApplyRun = Omit<ApplyOptions, 'liveContracts' | 'desired' | 'codec' | 'assetRules'>;

/** Applies the plan of `planned` (a contract that moved since is planned again, once). */
export function applyOperation(
  planned: PlannedOutcome,
  client: CatalogClient,
  run: ApplyRun,
): Promise<ApplyReport> {
  const { plan, assetRules } = planned;
  return applyPlan(plan, client, {
    ...run,
    liveContracts: planned.liveContracts,
    desired: planned.desired,
    codec: planned.codec,
    ...(assetRules !== undefined && { assetRules }),
  });
}

/** Runs each contract the apply created or changed on its data. */
export function verifyApplied(
  report: ApplyReport,
  planned: PlannedOutcome,
  client: CatalogClient,
): Promise<VerifyReport> {
  return verifyTargets(appliedTargets(report, planned.plan), client, planned.codec.profile);
}

/** The verdict on an apply (and its verification): interrupted, stopped, failed, unheld or null. */
export function applyVerdict(report: ApplyReport, verified?: VerifyReport): ApplyVerdict {
  if (report.interrupted === true) return { failed: 'interrupted' };
  if (report.stoppedBy !== null) {
    const notAttempted = report.results
      .filter((r) => r.status === 'not-attempted')
      .map((r) => r.fullyQualifiedName);
    return { failed: 'stopped', by: report.stoppedBy, notAttempted };
  }
  const failed = report.results.filter((r) => r.status === 'failed').length;
  if (failed > 0) return { failed: 'failed', count: failed };
  const unheld = verified?.results.filter(failedVerification).length ?? 0;
  if (unheld > 0) return { failed: 'unheld', count: unheld };
  return null;
}
