// Short, one-line renderings of JSON values for plans and apply reports; plans made printable.
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

/** A value on one line: strings quoted, long text cut with an ellipsis. */
export function formatValue(value: unknown, max = 100): string {
  if (value === undefined) return '(absent)';
  let text: string;
  if (typeof value === 'string') {
    const firstLine = value.split('\n')[0]!;
    text = JSON.stringify(
      value.includes('\n') && value.trimEnd().includes('\n') ? `${firstLine}…` : value.trimEnd(),
    );
  } else {
    text = JSON.stringify(value);
  }
  text = printable(text);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
