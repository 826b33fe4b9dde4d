// What the Action says where it is: annotations at a file's line for invalid files, a plan's
// findings and the version gate; and the small interface to GitHub's runner they are written to.
import path from 'node:path';
import type { Problem } from '../model/problem.js';
import type { GateResult } from '../gate/version-gate.js';
import { findingAnnotations } from '../plan/findings.js';
import type { Plan } from '../plan/types.js';
import { SETTINGS_FILE } from '../settings/settings-file.js';

export interface AnnotationPlace {
  file: string;
  startLine: number;
  startColumn?: number;
  title?: string;
}

/** The runner features the Action uses; main.ts provides them with @actions/core. */
export interface Runner {
  info(message: string): void;
  warning(message: string, place?: AnnotationPlace): void;
  error(message: string, place?: AnnotationPlace): void;
  setOutput(name: string, value: string): void;
  setSecret(secret: string): void;
  writeSummary(markdown: string): Promise<void>;
  setFailed(message: string): void;
  /**
   * Told just before the first write is sent: from then on an interrupt stops the apply in order
   * (apply-step.ts) instead of ending the step at once.
   */
  sending?(): void;
}

/** Each problem of a file (a contract file's, or the settings file's) at its line. */
export function problemAnnotations(problems: readonly Problem[], runner: Runner): void {
  for (const problem of problems) {
    runner.error(problem.message, {
      file: problem.file,
      startLine: problem.line,
      startColumn: problem.column,
      title:
        path.basename(problem.file) === SETTINGS_FILE ? 'invalid settings' : 'invalid contract',
    });
  }
}

/** Every finding of the plan as an annotation at its own line: errors, breaking changes, warnings. */
export function planAnnotations(plan: Plan, runner: Runner): void {
  for (const finding of findingAnnotations(plan)) {
    const place = {
      file: finding.file,
      startLine: finding.line,
      startColumn: finding.column,
      title: finding.title,
    };
    if (finding.level === 'error') runner.error(finding.message, place);
    else runner.warning(finding.message, place);
  }
}

/** The version gate's errors and warnings, each where it is. */
export function gateAnnotations(gate: GateResult, runner: Runner): void {
  for (const problem of gate.errors)
    runner.error(problem.message, {
      file: problem.file,
      startLine: problem.line,
      startColumn: problem.column,
      title: 'version gate',
    });
  for (const warning of gate.warnings) runner.warning(warning);
  for (const note of gate.notes) runner.info(note);
}
