// The views of a plan on the command line (`plan`, `drift`): one per format, chosen once. Also
// what a plan whose files are invalid shows instead, and what an empty selection says.
import type { Problem } from '../model/problem.js';
import type { CheckedPlan } from '../operations/plan.js';
import {
  deletedFilesText,
  type DeletedContractFile,
  type DeletedSaying,
} from '../read/deleted-files.js';
import { findingAnnotations } from '../plan/findings.js';
import { renderPlanHuman } from './render-human.js';
import { renderPlanMarkdown } from './render-markdown.js';
import { colorsFor } from './colors.js';
import type { Format } from './format.js';
import { gateText } from './gate.js';
import { problemsSarif, renderProblems, workflowCommand } from './problems.js';
import { sarifText } from './sarif.js';
import type { Streams } from './streams.js';

export interface PlanView {
  format: Format;
  color: boolean;
  /** `drift`: the plan read as a drift report. */
  drift: boolean;
  /** Contract files deleted (`where`) whose contracts the plan does not delete. */
  deleted: {
    files: readonly DeletedContractFile[];
    where: string;
    pruning: boolean;
    keptForOthers: readonly string[];
    /** A plain plan's: the contracts this repository manages whose files are gone. */
    orphans?: NonNullable<DeletedSaying['orphans']>;
  };
  /** Where the plan was saved (`--out`, as given). */
  savedTo?: string | undefined;
}

/** What plan and apply say when no contract file was selected: never that nothing differs. */
export function nothingSelected(
  paths: readonly string[],
  changedSince: string | undefined,
): string {
  return changedSince === undefined
    ? `No contract files selected in ${paths.join(', ')} (looked for *.yaml and *.yml); nothing was planned.`
    : `No contract file changed since ${changedSince}; nothing was planned.`;
}

/** The note on the deleted files the plan leaves: on stderr beside JSON, after the human plan. */
function deletedNote(view: PlanView, streams: Streams): string {
  const { files, where, pruning, keptForOthers, orphans } = view.deleted;
  const note = deletedFilesText(files, where, undefined, {
    pruning,
    keptForOthers,
    ...(orphans === undefined ? {} : { orphans }),
  });
  // Beside JSON or SARIF on stdout, the note goes to stderr.
  const aside = view.format === 'json' || (view.format === 'sarif' && orphans !== undefined);
  if (note !== '' && aside) streams.stderr.write(`Note: ${note}\n`);
  return note === '' || aside ? '' : `\n${note}\n`;
}

/** Whether the format shows an empty selection as a sentence (the rest show the empty plan). */
export function saysNothingSelected(format: Format): boolean {
  return format === 'human' || format === 'github';
}

/** Says that no contract file was selected, with the deleted files' note. */
export function showNothingSelected(
  view: PlanView,
  selection: { paths: readonly string[]; changedSince: string | undefined },
  streams: Streams,
): void {
  const note = deletedNote(view, streams);
  streams.stdout.write(`${nothingSelected(selection.paths, selection.changedSince)}\n${note}`);
}

/** The plan in its format on stdout; fail-on's breach and the version gate on stderr. */
export function showPlan(planned: CheckedPlan, view: PlanView, streams: Streams): void {
  const { plan } = planned;
  const note = deletedNote(view, streams);
  const human = (color: boolean): string =>
    renderPlanHuman(plan, colorsFor(streams.stdout, streams.env, color), { drift: view.drift }) +
    note;
  switch (view.format) {
    case 'sarif':
      streams.stdout.write(sarifText(planned.sarifResults()));
      break;
    case 'json':
      streams.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
      break;
    case 'markdown':
      streams.stdout.write(
        renderPlanMarkdown(plan, {
          deleted: { ...view.deleted },
          ...(view.drift ? { title: 'Data contract drift' } : {}),
        }),
      );
      break;
    case 'github':
      for (const finding of findingAnnotations(plan))
        streams.stdout.write(`${workflowCommand(finding.level, finding, finding.message)}\n`);
      streams.stdout.write(human(false));
      break;
    case 'human':
      streams.stdout.write(human(view.color));
      if (view.savedTo !== undefined)
        streams.stdout.write(
          planned.blocked === 0
            ? `\nSaved the plan to ${view.savedTo}; apply it with: contracts apply ${view.savedTo}\n`
            : `\nSaved the plan to ${view.savedTo}; it has contracts that cannot be applied (see above), so fix them and plan again before applying.\n`,
        );
  }
  if (planned.breach !== undefined) streams.stderr.write(`Error: ${planned.breach}.\n`);
  if (planned.gate !== undefined)
    streams.stderr.write(gateText(planned.gate, view.format === 'github'));
}

/** What a plan of invalid files shows: every problem in the format, and that nothing was sent. */
export function showInvalidFiles(
  invalid: { problems: readonly Problem[]; fileCount: number },
  format: Format,
  streams: Streams,
): void {
  const { problems, fileCount } = invalid;
  // With --json the problems are the machine output, as `validate --json` gives them.
  if (format === 'sarif') streams.stdout.write(problemsSarif(problems));
  else if (format === 'json')
    streams.stdout.write(`${JSON.stringify({ valid: false, fileCount, problems }, null, 2)}\n`);
  else streams.stdout.write(renderProblems(problems, format === 'github' ? 'github' : 'human'));
  streams.stderr.write(
    `Error: ${problems.length} problem${problems.length === 1 ? '' : 's'} in contract files; nothing was written to the catalog.\n`,
  );
}
