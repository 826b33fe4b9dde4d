// Problems of files (validation, the settings file's) as each view shows them: `file:line:col:
// message` for people, GitHub workflow commands, the validate JSON, SARIF.
import { formatProblem, type Problem } from '../model/problem.js';
import { printable, printableLines } from '../support/printable.js';
import { problemResults } from '../plan/sarif-results.js';
import { sarifText } from './sarif.js';

export type ProblemFormat = 'human' | 'json' | 'github';

/** Escapes a value for a GitHub workflow command (`::error file=...::message`). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A GitHub workflow command that annotates `file` at `line`, `col`. */
export function workflowCommand(
  level: 'error' | 'warning',
  place: { file: string; line: number; column: number; title: string },
  message: string,
): string {
  // No control or bidirectional-text character reaches the log as itself (a U+202E in a file name
  // would reorder what a reviewer reads): each is written as an escape, as everywhere else.
  return `::${level} file=${escapeProperty(printable(place.file))},line=${place.line},col=${place.column},title=${escapeProperty(printable(place.title))}::${escapeData(printableLines(message))}`;
}

export function githubAnnotation(problem: Problem): string {
  return workflowCommand('error', { ...problem, title: 'invalid contract' }, problem.message);
}

/** Renders problems in the chosen format; shared by validate, plan, verify, export, coverage. */
export function renderProblems(problems: readonly Problem[], format: ProblemFormat): string {
  if (format === 'github') return problems.map((p) => `${githubAnnotation(p)}\n`).join('');
  return problems.map((p) => `${formatProblem(p)}\n`).join('');
}

/** Problems as a SARIF log of invalid contracts (or settings). */
export function problemsSarif(problems: readonly Problem[]): string {
  return sarifText(problemResults(problems, 'invalidContract'));
}
