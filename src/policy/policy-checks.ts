// The settings' policies checked when the settings file is read, before any contract is planned:
// every `name-pattern` compiled on RE2 (re2js, which matches in time linear in the name, so no
// pattern backtracks for ever; RE2 has no lookaround and no backreferences, and a pattern that
// uses them is said to; re2js is loaded only then, src/policy/re2-library.ts), and every rule of
// the team's checked for its size, its depth and its operations (src/policy/json-logic.ts).
// Each problem is said where it is in the file.
import type { RE2JS } from 're2js';
import { knownOperations, ruleProblem } from './json-logic.js';
import { re2Library } from './re2-library.js';

/** The name-pattern's pattern when none is given. */
export const DEFAULT_NAME_PATTERN = '^[a-z][a-z0-9_]*$';
/** The most instructions RE2 may compile a pattern to: a real one needs a few dozen. */
export const MAX_PATTERN_PROGRAM = 1000;
/**
 * The longest pattern, and the most its counted repetitions (`{n}`, `{m,n}`) may add up to:
 * checked before RE2 compiles it, since compiling what is far past MAX_PATTERN_PROGRAM costs
 * time too (a thousand characters of `a{1000}` take re2js half a second).
 */
export const MAX_PATTERN_LENGTH = 500;
const MAX_REPEATS = 1000;

/** The operations a team's rule may use: JSON Logic's own. */
export const POLICY_OPERATIONS = knownOperations();

/** What RE2 does not have, said when a pattern that uses it does not compile. */
function unsupported(pattern: string): string | undefined {
  if (/\(\?<?[=!]/.test(pattern)) return 'lookaround ((?=, (?!, (?<=, (?<!)';
  if (/\\[1-9]|\\k</.test(pattern)) return 'backreferences (\\1, \\k<name>)';
  if (/\(\?>|[*+?}]\+/.test(pattern)) return 'atomic groups and possessive quantifiers';
  return undefined;
}

/** `pattern` compiled on RE2, or why it cannot be. */
export function compilePattern(pattern: string): { regex: RE2JS } | { problem: string } {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return {
      problem: `the pattern is ${pattern.length} characters long, over the limit of ${MAX_PATTERN_LENGTH}; make it simpler`,
    };
  const repeats = [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].reduce(
    (sum, [, least, most]) => sum + Number(most || least),
    0,
  );
  if (repeats > MAX_REPEATS)
    return {
      problem: `the pattern's counted repetitions add up to ${repeats}, over the limit of ${MAX_REPEATS}; make it simpler`,
    };
  let regex: RE2JS;
  try {
    regex = re2Library().RE2JS.compile(pattern);
  } catch (error) {
    const missing = unsupported(pattern);
    if (missing !== undefined)
      return {
        problem: `the pattern uses ${missing}, which RE2 (the linear-time engine patterns run on) does not support; write it without`,
      };
    // RE2's reason, without the part of the pattern it quotes (the file's text is not echoed).
    const reason = (error as Error).message
      .replace(/^error parsing regexp: /, '')
      .replace(/:\s*`[^]*$/, '');
    return { problem: `the pattern is not a regular expression RE2 compiles: ${reason}` };
  }
  const size = regex.programSize();
  if (size > MAX_PATTERN_PROGRAM)
    return {
      problem: `the pattern is too large: RE2 compiles it to ${size} instructions, over the limit of ${MAX_PATTERN_PROGRAM}; make it simpler`,
    };
  return { regex };
}

/** A problem of one policy: where (from `policies`), whether at the key, and what. */
export interface PolicyProblem {
  at: (string | number)[];
  atKey: boolean;
  message: string;
}

/** The problems of the settings' `policies` (as read, before or whatever their schema says). */
export function policyProblems(policies: unknown): PolicyProblem[] {
  if (!Array.isArray(policies)) return [];
  return policies.flatMap((policy: unknown, index): PolicyProblem[] => {
    if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) return [];
    const setting = policy as Record<string, unknown>;
    if (setting.use === 'name-pattern' && typeof setting.pattern === 'string') {
      const compiled = compilePattern(setting.pattern);
      return 'problem' in compiled
        ? [{ at: ['policies', index, 'pattern'], atKey: false, message: compiled.problem }]
        : [];
    }
    if ('rule' in setting) {
      const problem = ruleProblem(setting.rule, POLICY_OPERATIONS);
      if (problem === undefined) return [];
      return [
        {
          at: ['policies', index, 'rule', ...problem.at],
          atKey: problem.unknown !== undefined,
          message: problem.message,
        },
      ];
    }
    return [];
  });
}
