// One-line renderings of JSON values for plans and apply reports; plans made printable.
import { printable } from '../printable.js';

import { plannedChange, type Plan } from './types.js';

/** `plan` with every text it shows made printable, for the human and markdown renderings. */
export function printablePlan(plan: Plan): Plan {
  const list = (texts: readonly string[]): string[] => texts.map(printable);
  return {
    ...plan,
    catalogUrl: printable(plan.catalogUrl),
    changes: plan.changes.map((change) =>
      plannedChange({
        ...change,
        file: printable(change.file),
        fullyQualifiedName: printable(change.fullyQualifiedName),
        error: change.error === null ? null : printable(change.error),
        breaking: list(change.breaking),
        warnings: list(change.warnings),
        notes: list(change.notes),
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
  };
}

/**
 * A value whole on one line, as JSON (strings quoted, line breaks as `\n`). Never cut: a value
 * too long for one line is shown as its lines (textLineDiff) by the renderings.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  return printable(JSON.stringify(typeof value === 'string' ? value.trimEnd() : value));
}
