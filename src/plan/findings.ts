// What a plan found, each at its exact place in its file (the typed findings its changes carry),
// and the same as annotations (the Action's, and `plan --format github`) and SARIF read them.
import { isBreaking, type Finding } from '../model/finding.js';
import type { Plan, PlannedChange } from './types.js';

/** Every finding of `plan`, change by change (none for a plan of format version 1). */
export function planFindings(plan: Plan): Finding[] {
  return plan.changes.flatMap((change) => change.findings ?? []);
}

/** A finding as an annotation says it: its level, its title, its text, its place. */
export interface Annotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
  file: string;
  line: number;
  column: number;
}

/** The kind of finding an annotation's title names, by its code. */
export function findingTitle(finding: Finding): string {
  const [family] = finding.code.split('.');
  if (finding.severity === 'error')
    return finding.code === 'plan.missing'
      ? 'contract missing in the catalog'
      : family === 'policy'
        ? 'policy breach'
        : 'contract cannot be planned';
  if (isBreaking(finding.code)) return 'breaking data contract change';
  if (family === 'policy') return 'policy breach';
  if (family === 'unkept') return 'change the catalog will not keep';
  if (finding.code === 'odcs.kept-only-in-git') return 'kept only in git';
  return 'live-asset check';
}

/** The text of a finding where it is said apart from its change: a breaking one says so. */
export function findingText(finding: Finding): string {
  return isBreaking(finding.code) ? `breaking: ${finding.message}` : finding.message;
}

/** Every finding of `plan` as an annotation at its own line. */
export function findingAnnotations(plan: Plan): Annotation[] {
  return planFindings(plan).map((finding) => ({
    level: finding.severity === 'error' ? 'error' : 'warning',
    title: findingTitle(finding),
    message: findingText(finding),
    file: finding.file,
    line: finding.line,
    column: finding.column,
  }));
}

/** What a change found, as its renderings say it: each sentence after the place it is at. */
export interface PlacedTexts {
  error: string | null;
  breaking: string[];
  warnings: string[];
}

/**
 * The error, breaking changes and warnings of `change`, each sentence as `words` writes it after
 * its place as `place` writes it (`file:line:col`): from its findings, which a plan of format
 * version 1 lacks, and a deleted contract's file no longer has (then as the change says them,
 * without a place).
 */
export function placedTexts(
  change: PlannedChange,
  place: (finding: Finding) => string,
  words: (sentence: string) => string = (sentence) => sentence,
): PlacedTexts {
  const findings = change.findings;
  if (findings === undefined || change.action === 'delete')
    return {
      error: change.error === null ? null : words(change.error),
      breaking: change.breaking.map(words),
      warnings: change.warnings.map(words),
    };
  const said = (finding: Finding): string => `${place(finding)} ${words(finding.message)}`;
  const error = findings.find((finding) => finding.severity === 'error');
  return {
    // A change whose findings lack its error (no plan this tool writes) says it without a place.
    error: error === undefined ? (change.error === null ? null : words(change.error)) : said(error),
    breaking: findings.filter((finding) => isBreaking(finding.code)).map(said),
    warnings: findings
      .filter((finding) => finding.severity === 'warning' && !isBreaking(finding.code))
      .map(said),
  };
}

/** A finding's place as people read it, and editors and terminals open it: `file:line:col`. */
export function placeText(finding: Finding): string {
  return `${finding.file}:${finding.line}:${finding.column}`;
}
