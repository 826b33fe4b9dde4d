// The views of a restore (`contracts restore`): a line per contract named, then a closing line; or
// the report as JSON.
import type { RestoreReport, RestoreResult } from '../prune/restore.js';
import { printable } from '../support/printable.js';
import type { Colors } from './colors.js';

/** The line of one contract named. */
function resultLine(result: RestoreResult, c: Colors): string[] {
  const name = c.bold(printable(result.fullyQualifiedName));
  switch (result.outcome) {
    case 'restored': {
      const lines = [
        `${c.green('+')} ${name}  restored (version ${String(result.oldVersion)} → ${String(result.newVersion)})${result.file === undefined ? '' : `  ${c.dim(`(managed by ${printable(result.file)})`)}`}${result.confirmedByReread === true ? c.dim(' (the response was lost; reading the contract back showed it restored)') : ''}`,
      ];
      if (result.file !== undefined && result.fileInCheckout === false)
        lines.push(
          `    its file ${printable(result.file)} is not in this checkout: bring it back${result.commit === undefined ? '' : ` (git checkout ${result.commit.slice(0, 12)} -- ${printable(result.file)})`} and commit it, or the next plan --prune deletes the contract again`,
        );
      return lines;
    }
    case 'not-deleted':
      return [`  ${name}  not deleted (version ${String(result.version)}): nothing to restore`];
    case 'failed':
      return [`${c.red('!')} ${name}  not restored: ${printable(result.message)}`];
    case 'not-attempted':
      return [`  ${name}  not attempted (a restore before it failed)`];
  }
}

/** The closing line: how many were restored, and what failed. */
function closing(report: RestoreReport): string {
  const count = (outcome: RestoreResult['outcome']) =>
    report.results.filter((result) => result.outcome === outcome).length;
  const restored = count('restored');
  const failed = count('failed') + count('not-attempted');
  return failed === 0
    ? `Restore complete: ${String(restored)} restored, ${String(count('not-deleted'))} not deleted.`
    : `Restore stopped: ${String(restored)} restored, ${String(failed)} not restored.`;
}

export function renderRestoreHuman(report: RestoreReport, c: Colors): string {
  const lines = report.results.flatMap((result) => resultLine(result, c));
  return `${[...lines, '', closing(report)].join('\n')}\n`;
}

export function renderRestoreJson(report: RestoreReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
