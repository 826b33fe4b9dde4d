// What verifying contracts found, as people read it: per contract the catalog's verdict, each part
// (schema, semantics, quality) with its counts, and what failed, in the terminal and in markdown.
// Every text the catalog gave (names, verdicts, reasons) and every file name is made printable
// first: no control or bidi character reaches a terminal, a CI log or a comment, so none can
// start a line of its own (a workflow command), move the cursor or reorder what is read.
import type { ContractRun } from '../catalog/types.js';
import type { Colors } from './colors.js';
import { codeSpan } from './render-markdown.js';
import { printable } from '../support/printable.js';
import {
  failedVerification,
  type Verification,
  type VerifyReport,
} from '../verify/verify-contracts.js';

function part(
  name: string,
  counts: { passed?: number; failed?: number; total?: number } | undefined,
): string | undefined {
  if (counts === undefined) return undefined;
  // Nothing counted is no score: test cases without a result yet, a part with nothing to check.
  if ((counts.total ?? 0) === 0) return `${name} ${name === 'quality' ? 'no results yet' : 'none'}`;
  return `${name} ${counts.passed ?? 0}/${counts.total ?? 0}`;
}

/** `schema 2/2, semantics 0/1, quality 3/3`, for the parts the run has. */
function counts(run: ContractRun | undefined): string {
  if (run === undefined) return '';
  const parts = [
    part('schema', run.schemaValidation),
    part('semantics', run.semanticsValidation),
    part('quality', run.qualityValidation),
  ].filter((text) => text !== undefined);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** What failed in a run, one sentence each, printable. */
export function failures(run: ContractRun | undefined): string[] {
  if (run === undefined) return [];
  const found: string[] = [];
  for (const field of run.schemaValidation?.failedFields ?? [])
    found.push(`schema: column ${printable(field)} is not in the asset`);
  for (const field of run.schemaValidation?.duplicateFields ?? [])
    found.push(`schema: column ${printable(field)} is named twice`);
  for (const rule of run.semanticsValidation?.failedRules ?? [])
    found.push(
      `semantics: rule ${printable(rule.ruleName ?? '?')} does not hold${rule.reason ? `: ${printable(rule.reason)}` : ''}`,
    );
  const quality = run.qualityValidation;
  if ((quality?.failed ?? 0) > 0)
    found.push(`quality: ${quality!.failed} of ${quality!.total ?? 0} tests failed`);
  const sla = run.slaValidation;
  if (sla?.refreshFrequencyMet === false) found.push('SLA: the refresh frequency was not met');
  if (sla?.latencyMet === false)
    found.push(
      `SLA: the latency was not met${typeof sla.actualLatency === 'number' ? ` (actual ${sla.actualLatency} ms)` : ''}`,
    );
  if (sla?.availabilityMet === false) found.push('SLA: the availability was not met');
  return found;
}

/** What a verification says beyond its verdict: the server's message, or why there is none. */
function said(verification: Verification): string | undefined {
  const text = verification.message ?? verification.run?.result;
  return text === undefined ? undefined : printable(text);
}

/** A verification's names and verdict as shown: printable. */
function shown(verification: Verification): { name: string; file: string; status: string } {
  return {
    name: printable(verification.fullyQualifiedName),
    file: printable(verification.file),
    status: printable(verification.status),
  };
}

export function renderVerificationHuman(report: VerifyReport, c: Colors): string {
  const lines: string[] = [];
  if (report.unavailable !== undefined) lines.push(c.dim(`Not verified: ${report.unavailable}.`));
  for (const verification of report.results) {
    const ok = !failedVerification(verification);
    const { name, file, status } = shown(verification);
    const head = `${ok ? c.green('✓') : c.red('✗')} ${c.bold(name)}  ${ok ? 'holds on its data' : status}${counts(verification.run)}${said(verification) === undefined ? '' : `: ${said(verification)!}`}  ${c.dim(`(${file})`)}`;
    lines.push(head);
    for (const failure of failures(verification.run)) lines.push(`    ${c.red(failure)}`);
  }
  const failed = report.results.filter(failedVerification).length;
  if (report.results.length > 0)
    lines.push(
      failed === 0
        ? c.green(
            c.bold(
              `Verified: ${report.results.length === 1 ? 'the contract holds on its data' : `${report.results.length} contracts hold on their data`}.`,
            ),
          )
        : c.red(
            c.bold(
              `Verification failed for ${failed} of ${report.results.length} contract${report.results.length === 1 ? '' : 's'}: ${failed === 1 ? 'it is' : 'they are'} stored in the catalog, but ${failed === 1 ? 'does' : 'do'} not hold on the data.`,
            ),
          ),
    );
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function renderVerificationMarkdown(report: VerifyReport): string {
  const lines = ['### Data contracts verified', ''];
  if (report.unavailable !== undefined) lines.push(`ℹ️ Not verified: ${report.unavailable}.`, '');
  if (report.results.length === 0) return `${lines.join('\n')}\n`;
  lines.push('| Contract | Result | Schema | Semantics | Quality |', '|---|---|---|---|---|');
  const cell = (counted: { passed?: number; total?: number } | undefined): string =>
    counted === undefined
      ? ''
      : (counted.total ?? 0) === 0
        ? '—'
        : `${counted.passed ?? 0}/${counted.total ?? 0}`;
  // A table cell ends at a `|`, even inside a code span.
  const inCell = (text: string): string => text.replace(/\|/g, '\\|');
  for (const verification of report.results) {
    const run = verification.run;
    const { name, status } = shown(verification);
    lines.push(
      `| ${inCell(codeSpan(name))} | ${failedVerification(verification) ? '❌' : '✅'} ${inCell(status)} | ${cell(run?.schemaValidation)} | ${cell(run?.semanticsValidation)} | ${cell(run?.qualityValidation)} |`,
    );
  }
  lines.push('');
  for (const verification of report.results.filter(failedVerification)) {
    const { name, file } = shown(verification);
    lines.push(`**${codeSpan(name)}** (${codeSpan(file)})`, '');
    const message = said(verification);
    if (message !== undefined) lines.push(`- ${message}`);
    for (const failure of failures(verification.run)) lines.push(`- ${failure}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
