// The version gate's findings on the command line: each missing or wrong bump at its version's
// line (a workflow command with --format github), then the acknowledgements' warnings and notes.
import { formatProblem } from '../contract/problem.js';
import type { GateResult } from '../gate/version-gate.js';
import type { Io } from './io.js';
import { workflowCommand } from './validate.js';

export function reportGate(gate: GateResult, github: boolean, io: Io): void {
  for (const problem of gate.errors)
    io.stderr.write(
      github
        ? `${workflowCommand('error', { ...problem, title: 'version gate' }, problem.message)}\n`
        : `${formatProblem(problem)}\n`,
    );
  for (const warning of gate.warnings) io.stderr.write(`Warning: ${warning}\n`);
  for (const note of gate.notes) io.stderr.write(`Note: ${note}\n`);
  if (gate.errors.length > 0)
    io.stderr.write(
      `Error: ${gate.errors.length} contract version${gate.errors.length === 1 ? '' : 's'} not bumped as the change${gate.errors.length === 1 ? '' : 's'} need${gate.errors.length === 1 ? 's' : ''} (above).\n`,
    );
}
