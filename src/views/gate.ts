// The version gate's findings on the command line: each missing or wrong bump at its version's
// line (a workflow command with --format github), then the acknowledgements' warnings and notes.
import { formatProblem } from '../model/problem.js';
import type { GateResult } from '../gate/version-gate.js';
import { workflowCommand } from './problems.js';

/** What the gate says on standard error. */
export function gateText(gate: GateResult, github: boolean): string {
  let text = '';
  for (const problem of gate.errors)
    text += github
      ? `${workflowCommand('error', { ...problem, title: 'version gate' }, problem.message)}\n`
      : `${formatProblem(problem)}\n`;
  for (const warning of gate.warnings) text += `Warning: ${warning}\n`;
  for (const note of gate.notes) text += `Note: ${note}\n`;
  const n = gate.errors.length;
  if (n > 0)
    text += `Error: ${n} contract version${n === 1 ? '' : 's'} not bumped as the change${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} (above).\n`;
  return text;
}
