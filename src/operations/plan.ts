// The plan operation, shared by `plan`, `drift`, `apply` (files) and the Action: plan the files
// against the catalog, then the checks a plan is judged by, each made here once: the version
// gate (against a base the caller names), the findings, their SARIF results and the fail-on
// verdict. Data only: nothing is printed, nothing exits.
import type { CatalogClient } from '../catalog/client.js';
import { versionGate, type GateResult } from '../gate/version-gate.js';
import { planFromFiles, type PlanOutcome, type PlanRequest } from '../pipeline/plan-pipeline.js';
import { failOnBreach } from '../plan/fail-on.js';
import type { Finding } from '../model/finding.js';
import { planFindings } from '../plan/findings.js';
import { findingResults, problemResults, type SarifResult } from '../plan/sarif-results.js';
import type { FailOn } from '../settings/settled.js';
import type { Acknowledgement } from '../settings/settings-file.js';

/** The base a pull request or `--changed-since` compares the contract versions with. */
export interface VersionBase {
  /** The folder the files' paths are relative to. */
  cwd: string;
  /** The base's text of a file (absolute path), undefined when the base has none. */
  baseText: (absolute: string) => Promise<string | undefined>;
  /** Breaking changes let through (the settings file's acknowledgedBreaks). */
  acknowledgements: readonly Acknowledgement[];
}

/** What a plan is judged by beside its own errors. */
export interface PlanChecks {
  /** The version gate's base; none: no gate. */
  versionBase?: VersionBase | undefined;
  /** What fails the plan beside its errors (default never). */
  failOn?: FailOn;
}

/** Why a checked plan fails, first reason first; null when it passes. */
export type PlanVerdict =
  | { failed: 'blocked'; count: number }
  | { failed: 'version-gate'; count: number }
  | { failed: 'fail-on'; breach: string }
  | null;

export type PlannedOutcome = Extract<PlanOutcome, { ok: true }>;

export interface CheckedPlan extends PlannedOutcome {
  /** Contracts of the plan that cannot be applied (errors and missing assets). */
  blocked: number;
  /** The version gate's result; undefined when no base was named. */
  gate: GateResult | undefined;
  /** Why fail-on fails the plan, or undefined. */
  breach: string | undefined;
  verdict: PlanVerdict;
  /** Every finding of the plan at its place (made when first asked for). */
  findings(): readonly Finding[];
  /** The findings and the version gate's errors as SARIF results. */
  sarifResults(): SarifResult[];
}

export type PlanResult = Extract<PlanOutcome, { ok: false }> | CheckedPlan;

/** Today, YYYY-MM-DD: the day acknowledgements expire against. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The plan's checks, in the order a failure is reported: blocked, version gate, fail-on. */
async function checked(outcome: PlannedOutcome, checks: PlanChecks): Promise<CheckedPlan> {
  const { plan, files } = outcome;
  const base = checks.versionBase;
  const gate =
    base === undefined ? undefined : await versionGate({ plan, files, ...base, today: today() });
  const blocked = plan.summary.error + plan.summary.missing;
  const breach = failOnBreach(plan, checks.failOn ?? 'never');
  let findings: Finding[] | undefined;
  const planned: CheckedPlan = {
    ...outcome,
    blocked,
    gate,
    breach,
    verdict: verdictOf(blocked, gate, breach),
    findings: () => (findings ??= planFindings(plan)),
    sarifResults: () => [
      ...findingResults(planned.findings()),
      ...problemResults(gate?.errors ?? [], 'versionGate'),
    ],
  };
  return planned;
}

function verdictOf(
  blocked: number,
  gate: GateResult | undefined,
  breach: string | undefined,
): PlanVerdict {
  if (blocked > 0) return { failed: 'blocked', count: blocked };
  if (gate !== undefined && gate.errors.length > 0)
    return { failed: 'version-gate', count: gate.errors.length };
  if (breach !== undefined) return { failed: 'fail-on', breach };
  return null;
}

/**
 * Plans the files of `request` against the catalog and checks the plan; the problems of the
 * files when any is invalid (nothing read from the catalog is judged then).
 */
export async function planOperation(
  request: PlanRequest,
  client: CatalogClient,
  checks: PlanChecks = {},
): Promise<PlanResult> {
  const outcome = await planFromFiles(request, client);
  return outcome.ok ? checked(outcome, checks) : outcome;
}
