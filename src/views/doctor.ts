// What `contracts doctor` found, as people read it (one sentence a check: ✓ holds, ! an optional
// capability missing, with its fix, ✗ what plan or apply needs, · what cannot be checked) and as
// JSON (the report as it is). Every text the catalog gave is made printable first.
import { doctorPasses, type Check, type DoctorReport } from '../doctor/checks.js';
import { printable } from '../support/printable.js';
import type { Colors } from './colors.js';

/** `text` printable, ending with one full stop. */
const sentence = (text: string): string => printable(text).replace(/[.\s]*$/, '.');

function symbol(check: Check, c: Colors): string {
  switch (check.status) {
    case 'ok':
      return c.green('✓');
    case 'warning':
      return c.yellow('!');
    case 'error':
      return c.red('✗');
    default:
      return c.dim('·');
  }
}

export function renderDoctorHuman(report: DoctorReport, c: Colors): string {
  const lines = [`${c.bold('Catalog')} ${printable(report.catalogUrl)}`];
  for (const result of report.fixed ?? [])
    lines.push(
      `${result.outcome === 'defined' ? c.green('✓') : c.red('✗')} ${sentence(result.message)}`,
    );
  for (const check of report.checks) {
    lines.push(`${symbol(check, c)} ${sentence(check.message)}`);
    if (check.fix !== undefined && check.status !== 'ok')
      lines.push(`  ${c.dim('Fix:')} ${sentence(check.fix)}`);
  }
  const errors = report.checks.filter((check) => check.status === 'error').length;
  const warnings = report.checks.filter((check) => check.status === 'warning').length;
  lines.push(
    '',
    doctorPasses(report)
      ? `plan and apply can work${warnings > 0 ? `; ${warnings} optional capabilit${warnings === 1 ? 'y is' : 'ies are'} missing` : ''}.`
      : `plan or apply cannot work: ${errors} problem${errors === 1 ? '' : 's'} to fix.`,
  );
  return `${lines.join('\n')}\n`;
}

export function renderDoctorJson(report: DoctorReport): string {
  return `${JSON.stringify({ ok: doctorPasses(report), ...report }, null, 2)}\n`;
}
