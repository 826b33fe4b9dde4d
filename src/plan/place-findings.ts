// The one step that places what a planned change found: each pointer at its line and column in
// the file (its position map, contract/positions.ts), and the sentences of the change's older
// fields (`error`, `breaking`, `warnings`) read from the same findings, so that the two agree.
import { placeOf, type ContractFile } from '../contract/positions.js';
import { isBreaking, type Finding, type Found } from '../model/finding.js';
import type { Planned } from './refusals.js';
import { plannedChange, type PlannedChange } from './types.js';

/** `found` at its place in `file`. */
export function placeFinding(file: ContractFile, found: Found): Finding {
  const place = placeOf(file, found.pointer, found.inDocument === true);
  return {
    code: found.code,
    severity: found.severity,
    message: found.message,
    file: file.file,
    line: place.line,
    column: place.column,
    pointer: place.pointer,
  };
}

/**
 * `planned` as a change, its findings placed in `file`: its error first, then its breaking
 * changes, then its warnings, then any note, each list in the order found.
 */
export function placedChange(planned: Planned, file: ContractFile): PlannedChange {
  const { found, ...rest } = planned;
  const error = found.filter((item) => item.severity === 'error');
  const breaking = found.filter((item) => item.severity !== 'error' && isBreaking(item.code));
  const warnings = found.filter((item) => item.severity === 'warning' && !isBreaking(item.code));
  const notes = found.filter((item) => item.severity === 'note' && !isBreaking(item.code));
  const message = (item: Found): string => item.message;
  return plannedChange({
    ...rest,
    error: error[0]?.message ?? null,
    breaking: breaking.map(message),
    warnings: warnings.map(message),
    findings: [...error, ...breaking, ...warnings, ...notes].map((item) =>
      placeFinding(file, item),
    ),
  });
}
