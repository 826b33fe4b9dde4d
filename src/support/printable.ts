// Text made safe to print: no control character can start a line of its own (a workflow command
// in a CI log) or move the cursor, and no bidirectional-text control can reorder what a reviewer
// reads.

/**
 * C0 and C1 controls, the Unicode line and paragraph separators (a line break to some readers),
 * and the Unicode bidirectional formatting characters.
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control and bidi character written as an escape (`\n`, `\u202e`). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (ch) =>
    ch === '\n' ? '\\n' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Text of many lines made printable line by line: its own line breaks stay line breaks. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}
