// A problem found in a contract file: where it is and a sentence that says what to do.

import { printable } from '../support/printable.js';

export interface Problem {
  /** File path as the user gave it (relative to the working directory, forward slashes). */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** Dotted path of the value in the document, e.g. `schema[1].dataType`; empty for the file itself. */
  path: string;
  /** A sentence a person can act on; starts with the path when there is one. */
  message: string;
}

/** The note that stands, at `where`, for `count` problems not listed. */
export function notListed(count: number, where: Problem): Problem {
  return {
    ...where,
    path: '',
    message: `${count} more problems like the ones above are not listed; fix those and validate again`,
  };
}

export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function formatProblem(problem: Problem): string {
  return `${printable(problem.file)}:${problem.line}:${problem.column} ${printable(problem.message)}`;
}

/** `['schema', 1, 'dataType']` → `schema[1].dataType`. */
export function dottedPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
