// One-line renderings of JSON values for plans and apply reports; plans made printable.
import { printable } from '../support/printable.js';

import { plannedChange, type Plan } from '../plan/types.js';

/**
 * `plan` without its checksum read: a plan's checksum is computed the first time it is read
 * (plan/seal.ts), and the renderings that show a plan never show it, so the copy reads it only if
 * it is itself read. Spreading `plan` would read it (about 40 ms and 60 MB of garbage for a plan
 * of 10,000 contracts, measured).
 */
function withChecksumUnread(plan: Plan): Omit<Plan, 'checksum'> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(plan) as (keyof Plan)[])
    if (key === 'checksum')
      Object.defineProperty(copy, key, { enumerable: true, get: () => plan.checksum });
    else copy[key] = plan[key];
  return copy as Omit<Plan, 'checksum'>;
}

/** `plan` with every text it shows made printable, for the human and markdown renderings. */
export function printablePlan(plan: Plan): Plan {
  const list = (texts: readonly string[]): string[] => texts.map(printable);
  return Object.assign(withChecksumUnread(plan), {
    catalogUrl: printable(plan.catalogUrl),
    ...(plan.notes === undefined ? {} : { notes: list(plan.notes) }),
    changes: plan.changes.map((change) =>
      plannedChange({
        ...change,
        file: printable(change.file),
        fullyQualifiedName: printable(change.fullyQualifiedName),
        error: change.error === null ? null : printable(change.error),
        breaking: list(change.breaking),
        warnings: list(change.warnings),
        notes: list(change.notes),
        findings: change.findings?.map((finding) => ({
          ...finding,
          file: printable(finding.file),
          message: printable(finding.message),
        })),
        diff: change.diff.map((line) => ({
          ...line,
          field: printable(line.field),
          ...(line.position === undefined ? {} : { position: printable(line.position) }),
        })),
        ...(change.create == null
          ? {}
          : {
              create: {
                ...change.create,
                assetFullyQualifiedName: printable(change.create.assetFullyQualifiedName),
              },
            }),
      }),
    ),
  }) as Plan;
}

/**
 * A value whole on one line, as JSON (strings quoted, line breaks as `\n`). Never cut: a value
 * too long for one line is shown as its lines (textLineDiff) by the renderings.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  return printable(JSON.stringify(typeof value === 'string' ? value.trimEnd() : value));
}
