// A change of a value as a line diff: when a value before or after spans several lines, or is too
// long for one, its lines are shown with the changed ones marked (jsdiff's diffLines), so that a
// change inside a long value is never shown cut, nor as the same cut text on both sides. A text
// reads as its own lines; a list as its items, one a line; an object as its keys, one a line.
import { diffLines } from 'diff';
import { printable } from '../support/printable.js';

/** One line of a text diff: kept (' '), removed ('-') or added ('+'), or '…' for kept lines left out. */
export interface TextDiffLine {
  mark: ' ' | '-' | '+';
  text: string;
}

/** Kept lines shown around each change. */
const CONTEXT = 1;

/** The text a value holds: a string, or OpenMetadata's terms of use `{content}`. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { content, ...rest } = value as Record<string, unknown>;
    if (typeof content === 'string' && Object.keys(rest).every((key) => key === 'inherited'))
      return content;
  }
  return undefined;
}

/** A value as the lines it reads as: a list's items, or an object's keys, one a line, as JSON. */
function structureLines(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => JSON.stringify(item)).join('\n');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([key, item]) => `${key}: ${JSON.stringify(item)}`)
      .join('\n');
  return JSON.stringify(value);
}

/** `before` and `after` as the texts their line diff compares; undefined when one line shows them. */
function linesToCompare(
  before: unknown,
  after: unknown,
  max: number,
): [string, string] | undefined {
  const [was, now] = [textOf(before), textOf(after)];
  if ((was !== undefined || before === undefined) && (now !== undefined || after === undefined)) {
    // Text (or text added or removed whole).
    const long = (text: string) => text.trimEnd().includes('\n') || text.length > max;
    if ((was ?? '') === (now ?? '') || (!long(was ?? '') && !long(now ?? ''))) return undefined;
    return [was ?? '', now ?? ''];
  }
  const long = (value: unknown) => value !== undefined && JSON.stringify(value).length > max;
  if (!long(before) && !long(after)) return undefined;
  return [structureLines(before), structureLines(after)];
}

/**
 * `before` → `after` as a line diff, when either spans several lines or is longer than `max`
 * characters on one; undefined otherwise (one line shows them whole). `undefined` is a value
 * absent (added or removed whole). Kept lines far from any change are folded into one `…` line.
 */
export function textLineDiff(
  before: unknown,
  after: unknown,
  max = 100,
): TextDiffLine[] | undefined {
  const compared = linesToCompare(before, after, max);
  if (compared === undefined) return undefined;
  const [was, now] = compared;
  const lines: TextDiffLine[] = [];
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  for (const part of diffLines(ended(was), ended(now))) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n'))
      lines.push({ mark, text: printable(text) });
  }
  // Fold kept lines that are more than CONTEXT lines from a change.
  const near = lines.map((_, i) =>
    lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((line) => line.mark !== ' '),
  );
  const shown: TextDiffLine[] = [];
  lines.forEach((line, i) => {
    if (line.mark !== ' ' || near[i]) shown.push(line);
    else if (shown.at(-1)?.text !== '…' || shown.at(-1)?.mark !== ' ')
      shown.push({ mark: ' ', text: '…' });
  });
  return shown;
}
