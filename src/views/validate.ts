// The views of validate: SARIF, the validate JSON, workflow commands, or each problem at its place
// with a closing line for people.
import type { Validation } from '../operations/validate.js';
import { colorsFor } from './colors.js';
import { problemsSarif, renderProblems } from './problems.js';
import type { Streams } from './streams.js';

export type ValidateFormat = 'human' | 'json' | 'github' | 'sarif';

export interface ValidateView {
  format: ValidateFormat;
  color: boolean;
  /** The paths checked, as given. */
  paths: readonly string[];
}

export function showValidation(checked: Validation, view: ValidateView, streams: Streams): void {
  const { problems, fileCount, validCount } = checked;
  if (view.format === 'sarif') {
    streams.stdout.write(problemsSarif(problems));
    return;
  }
  if (view.format === 'json') {
    streams.stdout.write(
      `${JSON.stringify({ valid: problems.length === 0, fileCount, validCount, problems }, null, 2)}\n`,
    );
    return;
  }
  streams.stdout.write(renderProblems(problems, view.format));
  if (view.format === 'human') streams.stdout.write(closingLine(checked, view, streams));
}

/** What validate says last to people: how many problems where, or that all is valid. */
function closingLine(checked: Validation, view: ValidateView, streams: Streams): string {
  const c = colorsFor(streams.stdout, streams.env, view.color);
  const { problems, fileCount } = checked;
  const s = (n: number): string => (n === 1 ? '' : 's');
  if (view.paths.length === 0)
    return `${c.red('✗')} ${problems.length} problem${s(problems.length)} in the settings file; the contract files it names are checked once it is fixed.\n`;
  if (fileCount === 0)
    return `${c.yellow('No contract files found')} in ${view.paths.join(', ')} (looked for *.yaml and *.yml).\n`;
  if (problems.length === 0)
    return `${c.green('✓')} ${fileCount} contract file${fileCount === 1 ? ' is' : 's are'} valid.\n`;
  const settings = checked.settingsProblemCount;
  return `${c.red('✗')} ${problems.length} problem${s(problems.length)}${settings > 0 ? ` (${settings} in the settings file)` : ''} in ${checked.invalidFileCount} of ${fileCount} file${s(fileCount)}.\n`;
}
