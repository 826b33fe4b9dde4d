// The doctor's findings: one check per fact about the configured catalog, each a sentence with
// its verdict (`ok`, `warning` for an optional capability, `error` for what plan or apply needs,
// `info` for what cannot be checked), and the fix where there is one.

export type CheckStatus = 'ok' | 'warning' | 'error' | 'info';

export interface Check {
  /** What was checked: reach, token, release, permission.plan, customProperty.managedBy, route.dryRun … */
  id: string;
  status: CheckStatus;
  message: string;
  /** What to do about it, when the check is not ok and something can be done. */
  fix?: string;
}

/** What `doctor --fix` did for one custom property. */
export interface FixResult {
  property: string;
  outcome: 'defined' | 'refused';
  message: string;
}

export interface DoctorReport {
  catalogUrl: string;
  profile: string | null;
  release: string | null;
  checks: Check[];
  /** What --fix did; absent without --fix. */
  fixed?: FixResult[];
}

/** Whether plan and apply can work: no check is an error. */
export function doctorPasses(report: DoctorReport): boolean {
  return !report.checks.some((check) => check.status === 'error');
}
