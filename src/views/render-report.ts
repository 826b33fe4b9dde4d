// The apply report as people read it: per contract its FQN, old → new version and each entry of
// changeDescription; after a stop, exactly what was applied, what failed and what was not tried.
import type { Colors } from './colors.js';
import type { ChangeDescription, FieldChange } from '../catalog/client.js';
import { formatValue } from './format-value.js';
import { textLineDiff, type TextDiffLine } from './text-diff.js';
import { printable } from '../support/printable.js';
import type { ApplyReport, ContractResult } from '../apply/apply-plan.js';

type Applied = Extract<ContractResult, { status: 'applied' }>;
type Failed = Extract<ContractResult, { status: 'failed' }>;

/** A changeDescription value as its value: the catalog sends objects as JSON strings. */
export function reportValue(value: unknown): unknown {
  if (typeof value !== 'string' || !/^[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * A value of a changeDescription entry whole on one line. The catalog sends list items and
 * objects as JSON strings: they are shown as JSON, not as quoted JSON; text as it reads.
 */
export function changeValue(value: unknown): string {
  const parsed = reportValue(value);
  return typeof parsed === 'string' ? printable(parsed.trimEnd()) : formatValue(parsed);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The properties in which `before` and `after` differ: `dataType: "DECIMAL" → "DOUBLE"`. */
function changedProperties(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  // Own keys only: a live object may hold `__proto__` or `constructor` as a key.
  const own = (value: Record<string, unknown>, key: string): unknown =>
    Object.hasOwn(value, key) ? value[key] : undefined;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => JSON.stringify(own(before, key)) !== JSON.stringify(own(after, key)))
    .map((key) => `${key}: ${formatValue(own(before, key))} → ${formatValue(own(after, key))}`);
}

/** An entry of `fieldsUpdated` as people read it. */
export type UpdatedField =
  /** An object (a column, say): only the properties that changed, not the whole object. */
  | { kind: 'properties'; properties: string[] }
  /** A long or multi-line value: its lines, the changed ones marked. */
  | { kind: 'lines'; lines: TextDiffLine[] }
  | { kind: 'values'; before: string; after: string };

export function updatedField(change: FieldChange, max: number): UpdatedField {
  const [before, after] = [reportValue(change.oldValue), reportValue(change.newValue)];
  if (
    isRecord(before) &&
    isRecord(after) &&
    severalProperties(before) &&
    severalProperties(after)
  ) {
    const properties = changedProperties(before, after);
    if (properties.length > 0) return { kind: 'properties', properties };
  }
  const lines = textLineDiff(before, after, max);
  if (lines !== undefined) return { kind: 'lines', lines };
  return {
    kind: 'values',
    before: changeValue(change.oldValue),
    after: changeValue(change.newValue),
  };
}

/** Whether `value` is an object of several properties, not OpenMetadata's `{content}` of a text. */
function severalProperties(value: Record<string, unknown>): boolean {
  return !('content' in value);
}

/**
 * An item the catalog added or deleted, by its name when it has one (`schema["amount"]`). An
 * added one with its properties but its name and the column FQN the catalog derives from it; a
 * deleted one by its name alone (the plan showed what it held).
 */
export function itemEntry(change: FieldChange, added: boolean): string {
  const value = added ? change.newValue : change.oldValue;
  const item = reportValue(value);
  if (!isRecord(item) || typeof item.name !== 'string')
    return `${change.name}: ${changeValue(value)}`;
  const { name, fullyQualifiedName: _derived, ...rest } = item;
  const label = `${change.name}[${JSON.stringify(name)}]`;
  return Object.keys(rest).length === 0 || !added ? label : `${label}: ${formatValue(rest)}`;
}

/** What to check after a stop that every contract would meet alike (a token, a permission), said once. */
export function stopAdvice(stop: Failed): string | null {
  if (stop.httpStatus === 401)
    return 'The catalog refused the token: check CATALOG_TOKEN (it may have expired, or belong to another catalog or user).';
  if (stop.httpStatus === 403)
    return "The token's user may not write this contract: it needs the permission to edit data contracts (EditDataContract; on OpenMetadata EditAll to change a contract, Create to create one).";
  return null;
}

/** `result` with the texts it shows made printable. */
function shown<T extends ContractResult>(result: T): T {
  const names = {
    ...result,
    file: printable(result.file),
    fullyQualifiedName: printable(result.fullyQualifiedName),
  };
  if (names.status === 'failed') return { ...names, message: printable(names.message) };
  if (names.status === 'unchanged' && names.reason !== undefined)
    return { ...names, reason: printable(names.reason) };
  return names;
}

/** An applied change's versions, old → new, saying so when the catalog kept the version. */
export function versionsText(result: Applied): string {
  const versions = `${String(result.oldVersion)} → ${String(result.newVersion)}`;
  return result.folded === true
    ? `${versions} (kept: the catalog folded this change into that version, as it does with one user's changes within ten minutes)`
    : versions;
}

/** An item of a list the catalog reported deleted and added again under the same name: changed. */
export interface ItemChange {
  field: string;
  /** `schema["amount"]`. */
  label: string;
  /** `dataType: "DECIMAL" → "DOUBLE"`, one per property that differs. */
  properties: string[];
}

/**
 * A change description's list items paired: OpenMetadata reports a column whose type changed (it
 * matches columns by name and type) as one deleted and one added, which people read as one
 * change. The entries left unpaired stay as they were.
 */
export function pairedItems(description: ChangeDescription | null): {
  changed: ItemChange[];
  added: FieldChange[];
  deleted: FieldChange[];
} {
  const named = (change: FieldChange, value: unknown): string | undefined => {
    const item = reportValue(value);
    return item !== null &&
      typeof item === 'object' &&
      typeof (item as { name?: unknown }).name === 'string'
      ? `${change.name}\u0000${(item as { name: string }).name}`
      : undefined;
  };
  const added = [...(description?.fieldsAdded ?? [])];
  const deleted: FieldChange[] = [];
  const changed: ItemChange[] = [];
  for (const gone of description?.fieldsDeleted ?? []) {
    const key = named(gone, gone.oldValue);
    const at = key === undefined ? -1 : added.findIndex((f) => named(f, f.newValue) === key);
    if (at === -1) {
      deleted.push(gone);
      continue;
    }
    const [back] = added.splice(at, 1);
    const before = reportValue(gone.oldValue) as Record<string, unknown>;
    const after = reportValue(back!.newValue) as Record<string, unknown>;
    const properties = changedProperties(before, after);
    changed.push({
      field: gone.name,
      label: `${gone.name}[${JSON.stringify(before.name)}]`,
      properties,
    });
  }
  return { changed, added, deleted };
}

/** `text` as one word a POSIX shell reads back as it is: quoted only when it must be. */
export function shellWord(text: string): string {
  return /^[\w.@%+=:,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A deleted contract's line: soft (how to restore it) or hard. */
function deletedLine(result: Applied, c: Colors): string {
  const how =
    result.deleted === 'hard'
      ? 'deleted for good (--hard-delete)'
      : `deleted (soft, version ${String(result.oldVersion)} → ${String(result.newVersion)}; restore it with: contracts restore ${shellWord(result.fullyQualifiedName)})`;
  return `${c.red('-')} ${c.bold(result.fullyQualifiedName)}  ${how}  ${c.dim(`(${result.file})`)}${result.confirmedByReread ? c.dim(' (the response was lost; reading the contract back showed it gone)') : ''}`;
}

/**
 * The lines of an applied change; the names and values of what the catalog says it changed are
 * made printable (printable is idempotent, so texts already printable are shown as they are).
 */
export function appliedLines(given: Applied, c: Colors): string[] {
  const result = shown(given);
  if (result.deleted !== undefined) return [deletedLine(result, c)];
  const lines = [
    result.createdId === undefined
      ? `${c.green('✓')} ${c.bold(result.fullyQualifiedName)}  ${versionsText(result)}  ${c.dim(`(${result.file})`)}`
      : `${c.green('+')} ${c.bold(result.fullyQualifiedName)}  created: id ${result.createdId}, version ${String(result.newVersion)}  ${c.dim(`(${result.file})`)}`,
  ];
  const description = result.changeDescription;
  const each = (list: FieldChange[] | undefined, render: (change: FieldChange) => string): void => {
    for (const change of list ?? []) lines.push(`    ${render(change)}`);
  };
  for (const f of description?.fieldsUpdated ?? []) {
    const updated = updatedField(f, 120);
    if (updated.kind === 'values')
      lines.push(`    ${c.yellow(`${printable(f.name)}: ${updated.before} → ${updated.after}`)}`);
    else if (updated.kind === 'properties')
      lines.push(
        `    ${c.yellow(`~ ${printable(f.name)}: ${updated.properties.map(printable).join(', ')}`)}`,
      );
    else {
      // A change inside a long value: its lines, the changed ones marked.
      lines.push(`    ${c.yellow(`${printable(f.name)}:`)}`);
      for (const row of updated.lines) {
        const text = `${row.mark} ${row.text}`;
        lines.push(
          `        ${row.mark === '+' ? c.green(text) : row.mark === '-' ? c.red(text) : c.dim(text)}`,
        );
      }
    }
  }
  const items = pairedItems(description);
  for (const item of items.changed)
    lines.push(
      `    ${c.yellow(`~ ${printable(item.label)}: ${item.properties.map(printable).join(', ')}`)}`,
    );
  each(items.added, (f) => c.green(`+ ${printable(itemEntry(f, true))}`));
  each(items.deleted, (f) => c.red(`- ${printable(itemEntry(f, false))}`));
  for (const warning of result.warnings ?? [])
    lines.push(`    ${c.yellow(`warning: ${printable(warning)}`)}`);
  if (result.confirmedByReread)
    lines.push(
      c.dim('    (the response was lost; reading the contract back showed the change in place)'),
    );
  if (result.replannedAt !== null)
    lines.push(
      c.dim(
        `    (the contract changed after the plan was made; the change was planned again from the file against version ${String(result.replannedAt)})`,
      ),
    );
  return lines;
}

export function failedLine(given: Failed, c: Colors): string {
  const result = shown(given);
  const status =
    result.httpStatus === null ? result.errorType : `${result.httpStatus} ${result.errorType}`;
  return `${c.red('✗')} ${c.bold(result.fullyQualifiedName)}  ${c.red(`failed: ${status}: ${result.message}`)}  ${c.dim(`(${result.file})`)}`;
}

/** One result as it happens (streamed while applying). */
export function renderResult(given: ContractResult, c: Colors): string | null {
  const result = shown(given);
  if (result.status === 'applied') return appliedLines(result, c).join('\n');
  if (result.status === 'failed') return failedLine(result, c);
  if (result.status === 'unchanged' && result.reason !== undefined)
    return `${c.dim('=')} ${c.bold(result.fullyQualifiedName)}  ${c.dim(`unchanged: ${result.reason}  (${result.file})`)}`;
  return null;
}

export function renderReportSummary(report: ApplyReport, c: Colors): string {
  const by = (status: ContractResult['status']) =>
    report.results.filter((r) => r.status === status).map(shown);
  const applied = by('applied') as Applied[];
  const failed = by('failed') as Failed[];
  const notAttempted = by('not-attempted');
  const unchanged = by('unchanged');
  const lines: string[] = (report.notes ?? []).map((note) => c.dim(`Note: ${note}.`));
  if (report.interrupted === true) {
    lines.push(
      c.red(
        c.bold('Apply interrupted: the changes in flight finished, and nothing further was sent.'),
      ),
    );
  } else if (report.stoppedBy === null && failed.length === 0) {
    const created = applied.filter((r) => r.createdId !== undefined).length;
    const deleted = applied.filter((r) => r.deleted !== undefined).length;
    lines.push(
      c.green(
        c.bold(
          `Apply complete: ${created > 0 ? `${created} created, ` : ''}${applied.length - created - deleted} changed, ${deleted > 0 ? `${deleted} deleted, ` : ''}${unchanged.length} unchanged.`,
        ),
      ),
    );
    return `${lines.join('\n')}\n`;
  }
  if (report.interrupted === true) {
    // Said above.
  } else if (report.stoppedBy !== null) {
    const stop = shown(report.stoppedBy);
    lines.push(
      c.red(
        c.bold(
          `Apply stopped: ${stop.fullyQualifiedName} failed with ${stop.httpStatus === null ? '' : `${stop.httpStatus} `}${stop.errorType}; no further changes were sent.`,
        ),
      ),
    );
    const advice = stopAdvice(report.stoppedBy);
    if (advice !== null) lines.push(advice);
  } else {
    lines.push(
      c.red(
        c.bold(`Apply finished with ${failed.length} failure${failed.length === 1 ? '' : 's'}.`),
      ),
    );
  }
  lines.push(`  applied (${applied.length}):${applied.length === 0 ? ' none' : ''}`);
  for (const r of applied)
    lines.push(
      r.deleted !== undefined
        ? `    ${r.fullyQualifiedName} deleted${r.deleted === 'hard' ? ' for good' : ' (soft)'} (${r.file})`
        : r.createdId === undefined
          ? `    ${r.fullyQualifiedName} ${String(r.oldVersion)} → ${String(r.newVersion)} (${r.file})`
          : `    ${r.fullyQualifiedName} created, version ${String(r.newVersion)} (${r.file})`,
    );
  lines.push(`  failed (${failed.length}):`);
  for (const r of failed)
    lines.push(
      `    ${r.fullyQualifiedName}: ${r.httpStatus === null ? '' : `${r.httpStatus} `}${r.errorType}: ${r.message} (${r.file})`,
    );
  lines.push(
    `  not attempted (${notAttempted.length}):${notAttempted.length === 0 ? ' none' : ''}`,
  );
  for (const r of notAttempted) lines.push(`    ${r.fullyQualifiedName} (${r.file})`);
  lines.push(`  unchanged (${unchanged.length})`);
  return `${lines.join('\n')}\n`;
}

export function reportJson(report: ApplyReport): unknown {
  const pick = (status: ContractResult['status']) =>
    report.results.filter((r) => r.status === status);
  return {
    complete:
      report.interrupted !== true && report.stoppedBy === null && pick('failed').length === 0,
    interrupted: report.interrupted === true,
    stoppedBy: report.stoppedBy,
    applied: pick('applied'),
    failed: pick('failed'),
    notAttempted: pick('not-attempted'),
    unchanged: pick('unchanged'),
    notes: report.notes ?? [],
  };
}
