// A change of text as a line diff: when a value before or after spans several lines, or is too
// long for one, its lines are shown with the changed ones marked (jsdiff's diffLines), so that a
// change inside a long text is never shown as the same truncated text on both sides.
import { diffLines } from 'diff';
import { printable } from '../printable.js';

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

/**
 * `before` → `after` as a line diff, when both are text and either spans several lines or is
 * longer than `max` characters; undefined otherwise (one line shows them whole). Kept lines far
 * from any change are folded into one `…` line.
 */
export function textLineDiff(
  before: unknown,
  after: unknown,
  max = 100,
): TextDiffLine[] | undefined {
  const [was, now] = [textOf(before), textOf(after)];
  if (was === undefined || now === undefined || was === now) return undefined;
  const long = (text: string) => text.trimEnd().includes('\n') || text.length > max;
  if (!long(was) && !long(now)) return undefined;
  const lines: TextDiffLine[] = [];
  for (const part of diffLines(
    was.endsWith('\n') ? was : `${was}\n`,
    now.endsWith('\n') ? now : `${now}\n`,
  )) {
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
