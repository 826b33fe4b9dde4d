// `contracts pull`'s report, as people read it in a terminal and as the drift pull request's body
// (markdown): each file the catalog's values came back to, the fields, who changed them in the
// catalog and when, the conflicts with git, and what was left as it was. Every text from the
// catalog or a file is made printable (terminal) or escaped (markdown).
import type { ContractEdit } from '../model/history.js';
import type { EditHistory, PulledContract, PullReport } from '../pull/types.js';
import { printable } from '../support/printable.js';
import type { Colors } from './colors.js';
import { codeSpan, markdownText } from './markdown-text.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function when(at: number | undefined): string {
  return at === undefined || !Number.isFinite(at)
    ? ''
    : `, ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One edit: `maria.garcia (0.3, 2026-11-28 09:10 UTC): description, schema`. */
function editLine(edit: ContractEdit, text: (s: string) => string): string {
  const user = edit.user === undefined ? 'an unnamed user' : text(edit.user);
  return `${user} (version ${edit.version}${when(edit.at)}): ${edit.fields.map(text).join(', ')}`;
}

/** What the history says beside the edits, or undefined when the edits say it all. */
function historyNote(history: EditHistory | null): string | undefined {
  if (history === null) return undefined;
  if ('unavailable' in history) return `who changed it is not known: ${history.unavailable}`;
  if (history.since === null)
    return 'no version of the catalog holds the file as last applied: every edit in its history is listed';
  return history.edits.length === 0
    ? 'the history names no version that changed these fields'
    : undefined;
}

function headline(contract: PulledContract, check: boolean): string {
  const fields = contract.fields.join(', ');
  switch (contract.status) {
    case 'pulled':
      return `${check ? 'would take' : 'now holds'} the catalog's ${fields}`;
    case 'ahead':
      return 'nothing to pull';
    case 'refused':
      return `left as it is (the catalog's ${fields} differ)`;
    case 'not-in-catalog':
      return 'not in the catalog';
    case 'error':
      return 'could not be read';
  }
}

/** The sentences under a contract, each one line. */
function details(contract: PulledContract, text: (s: string) => string): string[] {
  const lines: string[] = [];
  const history = contract.history;
  if (history !== null && !('unavailable' in history))
    for (const edit of history.edits) lines.push(`changed by ${editLine(edit, text)}`);
  const note = historyNote(history);
  if (note !== undefined) lines.push(text(note));
  for (const field of contract.conflicts)
    lines.push(
      `conflict: ${text(field)} changed in git since the last apply${contract.appliedAt === null ? '' : ` (${contract.appliedAt.slice(0, 12)})`} and in the catalog; the catalog's value is written: decide in review`,
    );
  if (contract.notApplied.length > 0)
    lines.push(
      `not applied yet: ${contract.notApplied.map(text).join(', ')} changed in git since the last apply; kept (apply sends ${contract.notApplied.length === 1 ? 'it' : 'them'})`,
    );
  for (const said of contract.leftOut) lines.push(`ODCS cannot hold ${text(said)}`);
  if (contract.rewritten)
    lines.push(
      'the file was written again whole to hold them: its comments stay, its layout may not',
    );
  if (contract.message !== null) lines.push(text(contract.message));
  return lines;
}

export function renderPullHuman(report: PullReport, c: Colors): string {
  const out: string[] = [];
  for (const contract of report.contracts) {
    const symbol =
      contract.status === 'pulled'
        ? c.yellow('~')
        : contract.status === 'ahead'
          ? c.dim('=')
          : c.red('!');
    out.push(
      `${symbol} ${printable(contract.file)} ${c.dim(`(${printable(contract.fullyQualifiedName)})`)}: ${headline(contract, report.check)}`,
    );
    for (const line of details(contract, printable)) out.push(`    ${line}`);
  }
  const pulled = report.contracts.filter((contract) => contract.status === 'pulled').length;
  const failed = report.contracts.filter(
    (contract) => contract.status === 'refused' || contract.status === 'error',
  ).length;
  if (out.length > 0) out.push('');
  const verb = report.check ? 'would be pulled' : 'pulled';
  out.push(
    pulled === 0 && failed === 0
      ? `Nothing to pull: the files hold what the catalog holds (${plural(report.unchanged, 'file')}).`
      : `${plural(pulled, 'file')} ${verb} from ${printable(report.catalogUrl)}${failed > 0 ? `, ${c.red(`${failed} left as they are`)}` : ''}; ${report.unchanged} unchanged.${report.check && pulled > 0 ? ' Nothing was written (--check).' : ''}`,
  );
  return `${out.join('\n')}\n`;
}

/** The drift pull request's body: the catalog's edits, contract by contract. */
export function renderPullMarkdown(report: PullReport): string {
  const text = (s: string): string => markdownText(s);
  const out = [
    '### Data contracts: edits made in the catalog',
    '',
    `These files now hold what the catalog holds (${codeSpan(report.catalogUrl)}). Merging this pull request keeps the catalog's edits; closing it and running apply puts git's values back.`,
    '',
  ];
  for (const contract of report.contracts) {
    out.push(
      `- **${codeSpan(contract.file)}** (${codeSpan(contract.fullyQualifiedName)}): ${text(headline(contract, false))}`,
    );
    for (const line of details(contract, text)) out.push(`  - ${line}`);
  }
  return `${out.join('\n')}\n`;
}
