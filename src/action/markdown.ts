// What the Action writes in markdown: the invalid files, the apply report, and the pull request
// comment's body cut to GitHub's limit.
import type { ApplyReport, ContractResult } from '../apply/apply-plan.js';
import {
  itemEntry,
  pairedItems,
  stopAdvice,
  updatedField,
  versionsText,
} from '../views/render-report.js';
import type { Problem } from '../model/problem.js';
import type { GateResult } from '../gate/version-gate.js';
import { codeSpan, markdownText, tableCell } from '../views/markdown-text.js';
import { MAX_COMMENT_CHARS } from './github-comments.js';

/** Where a problem is, `file:line:column`, as code in a table's cell. */
function where(problem: Problem): string {
  return tableCell(codeSpan(`${problem.file}:${problem.line}:${problem.column}`));
}

export function problemsMarkdown(problems: readonly Problem[]): string {
  const rows = problems.map((p) => `| ${where(p)} | ${tableCell(markdownText(p.message))} |`);
  return [
    '### Data contracts: invalid files',
    '',
    `${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written to the catalog.`,
    '',
    '| Where | Problem |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/**
 * The comment body: the plan's `markdown` whole, or, past GitHub's limit, its table and a link to
 * the summary.
 */
export function commentBody(markdown: string, marker: string, summaryUrl: string | null): string {
  const full = `${marker}\n${markdown}`;
  if (full.length <= MAX_COMMENT_CHARS) return full;
  const pointer = `\n\n_The full plan is too long for a comment; see the job summary${summaryUrl === null ? '' : `: ${summaryUrl}`}._\n`;
  const table = markdown.split('\n<details>')[0]!;
  const room = MAX_COMMENT_CHARS - marker.length - pointer.length - 100;
  const shortTable =
    table.length <= room
      ? table
      : `${table.slice(0, table.lastIndexOf('\n', room))}\n| … | | | | | |`;
  return `${marker}\n${shortTable}${pointer}`;
}

export function appliedMarkdown(report: ApplyReport): string {
  const lines = ['### Data contracts applied', ''];
  const results = report.results;
  const applied = results.filter(
    (r): r is Extract<ContractResult, { status: 'applied' }> => r.status === 'applied',
  );
  const failed = results.filter(
    (r): r is Extract<ContractResult, { status: 'failed' }> => r.status === 'failed',
  );
  const notAttempted = results.filter((r) => r.status === 'not-attempted');
  for (const note of report.notes ?? []) lines.push(`ℹ️ ${markdownText(`Note: ${note}.`)}`, '');
  if (report.stoppedBy !== null) {
    lines.push(
      `**Apply stopped:** ${codeSpan(report.stoppedBy.fullyQualifiedName)} failed with ${String(report.stoppedBy.httpStatus)} ${markdownText(report.stoppedBy.errorType)}; no further changes were sent.`,
      '',
    );
    const advice = stopAdvice(report.stoppedBy);
    if (advice !== null) lines.push(advice, '');
  }
  lines.push(
    `${applied.length} applied, ${failed.length} failed, ${notAttempted.length} not attempted, ${results.filter((r) => r.status === 'unchanged').length} unchanged.`,
    '',
  );
  for (const result of applied) {
    lines.push(
      result.createdId === undefined
        ? `- ✅ ${codeSpan(result.fullyQualifiedName)} ${versionsText(result)} (${codeSpan(result.file)})`
        : `- ✅ ${codeSpan(result.fullyQualifiedName)} created: id ${codeSpan(result.createdId)}, version ${String(result.newVersion)} (${codeSpan(result.file)})`,
    );
    const description = result.changeDescription;
    for (const f of description?.fieldsUpdated ?? []) {
      const updated = updatedField(f, 80);
      lines.push(
        updated.kind === 'values'
          ? `  - ${codeSpan(f.name)}: ${codeSpan(updated.before)} → ${codeSpan(updated.after)}`
          : updated.kind === 'properties'
            ? `  - changed ${codeSpan(f.name)}: ${updated.properties.map(codeSpan).join(', ')}`
            : // A change inside a long value: its lines, the changed ones marked, as a diff.
              `  - ${codeSpan(f.name)}:\n\n    \`\`\`diff\n${updated.lines.map((row) => `    ${row.mark} ${row.text.replace(/`{3,}/g, '`\u200b``')}`).join('\n')}\n    \`\`\``,
      );
    }
    const items = pairedItems(description);
    for (const item of items.changed)
      lines.push(
        `  - changed ${codeSpan(item.label)}: ${item.properties.map(codeSpan).join(', ')}`,
      );
    for (const f of items.added) lines.push(`  - added ${codeSpan(itemEntry(f, true))}`);
    for (const f of items.deleted) lines.push(`  - deleted ${codeSpan(itemEntry(f, false))}`);
    for (const warning of result.warnings ?? []) lines.push(`  - ⚠️ ${markdownText(warning)}`);
  }
  for (const result of failed)
    lines.push(
      `- ❌ ${codeSpan(result.fullyQualifiedName)} failed: ${result.httpStatus === null ? '' : `${result.httpStatus} `}${markdownText(`${result.errorType}: ${result.message}`)} (${codeSpan(result.file)})`,
    );
  for (const result of notAttempted)
    lines.push(
      `- ⏭️ ${codeSpan(result.fullyQualifiedName)} not attempted (${codeSpan(result.file)})`,
    );
  return `${lines.join('\n')}\n`;
}

/** The version gate's findings, for the summary and the comment; '' when it has none. */
export function gateMarkdown(gate: GateResult): string {
  if (gate.errors.length + gate.warnings.length + gate.notes.length === 0) return '';
  const lines = ['', '#### Version gate', ''];
  if (gate.errors.length > 0)
    lines.push(
      '| Where | Version not bumped as the change needs |',
      '|---|---|',
      ...gate.errors.map((p) => `| ${where(p)} | ${tableCell(markdownText(p.message))} |`),
      '',
    );
  for (const warning of gate.warnings) lines.push(`- ⚠️ ${markdownText(warning)}`);
  for (const note of gate.notes) lines.push(`- note: ${markdownText(note)}`);
  return `${lines.join('\n')}\n`;
}
