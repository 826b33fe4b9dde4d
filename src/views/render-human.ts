// The plan as a person reads it in a terminal, in the manner of Terraform.
import type { Colors } from './colors.js';
import { formatValue, printablePlan } from './format-value.js';
import { textLineDiff, type TextDiffLine } from './text-diff.js';
import { changeCount, type DiffLine, type Plan, type PlannedChange } from '../plan/types.js';
import { impactLines, impactNote } from './render-impact.js';
import { placedTexts, placeText } from '../plan/findings.js';
import { isUnkeptWarning } from '../profile/unkept.js';

/**
 * The line diff of `line` when its value is too long for one line or spans several (a change
 * inside it, a value added or removed whole); undefined when one line shows it whole.
 */
export function diffLineTextDiff(line: DiffLine): TextDiffLine[] | undefined {
  switch (line.symbol) {
    case '~':
      return textLineDiff(line.before, line.after);
    case '+':
      return textLineDiff(undefined, line.after);
    case '-':
      return textLineDiff(line.before, undefined);
    case '↕':
      return undefined;
  }
}

/** `line` as people read it: one line, or its head (`~ field:`) and its text's lines, marked. */
export function diffLineLines(line: DiffLine): { head: string; text: TextDiffLine[] | undefined } {
  const text = diffLineTextDiff(line);
  if (text === undefined) return { head: diffLineText(line), text };
  const where = line.symbol === '+' && line.position !== undefined ? ` (${line.position})` : '';
  return { head: `${line.symbol} ${line.field}${where}:`, text };
}

export function diffLineText(line: DiffLine): string {
  switch (line.symbol) {
    case '+':
      return `+ ${line.field}${line.position === undefined ? '' : ` (${line.position})`}: ${formatValue(line.after)}`;
    case '-':
      return `- ${line.field}: ${formatValue(line.before)}`;
    case '~':
      return `~ ${line.field}: ${formatValue(line.before)} → ${formatValue(line.after)}`;
    case '↕':
      return `↕ ${line.field}: moved from position ${String(line.before)} to ${String(line.after)}`;
  }
}

/** The terminal rows of `line`: its head in its symbol's colour, then its text's lines, marked. */
function diffLineRows(line: DiffLine, c: Colors): string[] {
  const { head, text } = diffLineLines(line);
  const tint = (symbol: string, row: string): string =>
    symbol === '+'
      ? c.green(row)
      : symbol === '-'
        ? c.red(row)
        : symbol === ' '
          ? c.dim(row)
          : c.yellow(row);
  return [
    `      ${tint(line.symbol, head)}`,
    ...(text ?? []).map((row) => `          ${tint(row.mark, `${row.mark} ${row.text}`)}`),
  ];
}

/** `Plan: N to change, M unchanged, K errors.`, with `to create` and `missing` when there are any (as the JSON summary counts them). */
export function closingLine(plan: Plan): string {
  const { create, update, noop, missing, error } = plan.summary;
  const deleted = plan.summary.delete ?? 0;
  const created = create > 0 ? `${create} to create, ` : '';
  const gone = deleted > 0 ? `${deleted} to delete, ` : '';
  const absent = missing > 0 ? `${missing} missing, ` : '';
  return `Plan: ${created}${update} to change, ${gone}${noop} unchanged, ${absent}${error} error${error === 1 ? '' : 's'}.`;
}

/** What the plan does, as a verb: `change`, `create or change`, `create, change or delete`. */
export function planVerb(plan: Plan): string {
  const verbs = [
    plan.summary.create > 0 ? 'create' : '',
    plan.summary.update > 0 ? 'change' : '',
    (plan.summary.delete ?? 0) > 0 ? 'delete' : '',
  ].filter((verb) => verb !== '');
  return verbs.length <= 1
    ? (verbs[0] ?? 'change')
    : `${verbs.slice(0, -1).join(', ')} or ${verbs[verbs.length - 1]!}`;
}

/** Notes that more than one contract carries (a skipped check, say): said once, not per contract. */
function sharedNotes(plan: Plan): Map<string, number> {
  const counts = new Map<string, number>();
  for (const change of plan.changes)
    for (const note of new Set(change.notes)) counts.set(note, (counts.get(note) ?? 0) + 1);
  for (const [note, count] of counts) if (count < 2) counts.delete(note);
  return counts;
}

/** A change's warnings, then the notes said about it alone. */
function remarks(change: PlannedChange, notes: readonly string[], c: Colors): string[] {
  return [
    ...placedTexts(change, placeText).warnings.map(
      (warning) => `      ${c.yellow(`warning: ${warning}`)}`,
    ),
    ...notes.map((note) => `      ${c.dim(`note: ${note}`)}`),
  ];
}

/** A breaking change's consumers, under its breaking lines. */
function consumerRows(change: PlannedChange, plan: Plan, c: Colors): string[] {
  return impactLines(change, plan).map((line, i) => `      ${i === 0 ? c.red(line) : line}`);
}

function renderChange(
  change: PlannedChange,
  c: Colors,
  notes: readonly string[],
  plan: Plan,
): string {
  const lines: string[] = [];
  if (change.action === 'create') {
    const on = change.create;
    lines.push(`  ${c.green('+')} ${c.bold(change.fullyQualifiedName)}`);
    lines.push(
      c.dim(
        `      ${change.file} · new contract on ${on?.assetType ?? ''} ${on?.assetFullyQualifiedName ?? ''}`,
      ),
    );
    for (const line of change.diff) for (const row of diffLineRows(line, c)) lines.push(row);
  } else if (change.action === 'update') {
    lines.push(`  ${c.yellow('~')} ${c.bold(change.fullyQualifiedName)}`);
    lines.push(c.dim(`      ${change.file} · live version ${String(change.liveVersion)}`));
    for (const line of change.diff) for (const row of diffLineRows(line, c)) lines.push(row);
    for (const breaking of placedTexts(change, placeText).breaking)
      lines.push(`      ${c.red(c.bold(`! breaking: ${breaking}`))}`);
    lines.push(...consumerRows(change, plan, c));
  } else if (change.action === 'delete') {
    lines.push(`  ${c.red('-')} ${c.bold(change.fullyQualifiedName)}`);
    lines.push(
      c.dim(
        `      ${change.file} · file gone · live version ${String(change.liveVersion)} · deleted by apply --prune`,
      ),
    );
    for (const breaking of change.breaking)
      lines.push(`      ${c.red(c.bold(`! breaking: ${breaking}`))}`);
    lines.push(...consumerRows(change, plan, c));
  } else {
    const symbol = change.action === 'missing' ? '?' : '✗';
    lines.push(`  ${c.red(symbol)} ${c.bold(change.fullyQualifiedName)}`);
    lines.push(c.dim(`      ${change.file}`));
    lines.push(
      `      ${c.red(`${change.action === 'missing' ? 'missing' : 'error'}: ${placedTexts(change, placeText).error ?? ''}`)}`,
    );
  }
  lines.push(...remarks(change, notes, c));
  return lines.join('\n');
}

/**
 * `drift`: the plan read as a drift report (the catalog differs from the files), not as what a
 * command will do.
 */
export function renderPlanHuman(given: Plan, c: Colors, options: { drift?: boolean } = {}): string {
  const plan = printablePlan(given);
  const shared = sharedNotes(plan);
  const ownNotes = (change: PlannedChange): string[] =>
    change.notes.filter((note) => !shared.has(note));
  const shown = plan.changes.filter(
    (change) => change.action !== 'noop' || ownNotes(change).length + change.warnings.length > 0,
  );
  const out: string[] = [];
  const changing = changeCount(plan);
  if (changing > 0) {
    const verb = planVerb(plan);
    const contracts = `${changing} data contract${changing === 1 ? '' : 's'}`;
    out.push(
      options.drift === true
        ? `Drift: ${contracts} in ${plan.catalogUrl} ${changing === 1 ? 'differs' : 'differ'} from the files (apply would ${verb} ${changing === 1 ? 'it' : 'them'}):`
        : `contracts-gitops will ${verb} ${contracts} in ${plan.catalogUrl}:`,
      '',
    );
  } else if (plan.summary.error + plan.summary.missing === 0) {
    // A difference OpenMetadata would not keep is planned as none, and said as an exception.
    // By its findings' codes; by its words in a plan of format version 1, which has none.
    const unkept = plan.changes.filter((change) =>
      change.findings === undefined
        ? change.warnings.some(isUnkeptWarning)
        : change.findings.some((finding) => finding.code.startsWith('unkept.')),
    ).length;
    const except =
      unkept === 0
        ? ''
        : `, except ${unkept === 1 ? 'one contract' : `${unkept} contracts`} with a difference OpenMetadata would not keep on its own (see ${unkept === 1 ? 'its warning' : 'their warnings'})`;
    out.push(
      c.green(
        `${options.drift === true ? 'No drift' : 'No changes'}. The data contracts in ${plan.catalogUrl} match the files${except}.`,
      ),
      '',
    );
  }
  for (const change of shown) {
    if (change.action === 'noop') {
      out.push(
        `  ${c.dim('=')} ${change.fullyQualifiedName}`,
        c.dim(`      ${change.file} · no changes`),
        ...remarks(change, ownNotes(change), c),
        '',
      );
    } else out.push(renderChange(change, c, ownNotes(change), plan), '');
  }
  for (const [note, count] of shared) out.push(c.dim(`note (${count} contracts): ${note}`));
  if (shared.size > 0) out.push('');
  const breakingCount = plan.changes.reduce((n, change) => n + change.breaking.length, 0);
  const warningCount = plan.changes.reduce((n, change) => n + change.warnings.length, 0);
  if (warningCount > 0)
    out.push(
      c.yellow(
        `${warningCount} warning${warningCount === 1 ? '' : 's'}, shown with ${warningCount === 1 ? 'its contract' : 'their contracts'} (--strict makes warnings errors).`,
      ),
    );
  if (breakingCount > 0)
    out.push(
      c.red(
        `${breakingCount} breaking change${breakingCount === 1 ? '' : 's'}: consumers of these contracts may break.`,
      ),
    );
  const unlooked = impactNote(plan);
  if (unlooked !== '') out.push(c.dim(unlooked));
  for (const note of plan.notes ?? []) out.push(c.dim(`Note: ${note}.`));
  out.push(c.bold(closingLine(plan)));
  return `${out.join('\n')}\n`;
}
