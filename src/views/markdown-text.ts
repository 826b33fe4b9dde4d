// Text from files, file names and the catalog, written into markdown that GitHub renders (the pull
// request comment, the job summary): each escaped for where it goes, so that no name can open an
// HTML element, close a code span or a `<details>` block, start a list or a link, or ping people.
// Only the mentions the settings map (render-impact.ts) are written as mentions.

/** A line break of any kind: a code span or a table cell takes none, a blank line ends either. */
const LINE_BREAK = /\r\n?|\n/g;

/**
 * `text` as inline code, whatever it holds: a code span whose fence is longer than any run of
 * backticks in it; or, when it holds `<` or `>` (which a code span would keep as they are in the
 * markdown's source, a tag to any other reader of it), a `<code>` element of escaped text.
 */
export function codeSpan(text: string): string {
  if (/[<>]/.test(text)) return `<code>${markdownText(text)}</code>`;
  const one = text.replace(LINE_BREAK, ' ');
  const longest = Math.max(0, ...[...one.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

/** `text` inside an HTML element (`<summary>`, `<code>`), where markdown is not read: entities. */
export function htmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(LINE_BREAK, ' ');
}

/**
 * The punctuation that makes markup inside a line: code, emphasis, links and images (`[`), and
 * the backslash itself; `_` only at a word's edge (inside one, as in `BAD_REQUEST`, it is none). What makes blocks (`#`, `-`, `1.`) does so only at a line's start, which
 * this text never is: it follows words of the renderer's own on a line, its breaks made spaces.
 */
const MARKDOWN_PUNCTUATION = /[\\`*[\]~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * `text` as plain words in markdown: its markup punctuation backslash-escaped, `<`, `>` and `&`
 * as entities (no HTML), an `@` before a name kept from mentioning anyone (a zero-width space
 * after it), and line breaks as spaces (a blank line would end the block it is in).
 */
export function markdownText(text: string): string {
  return text
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[\p{L}\p{N}_-])/gu, '@\u200b')
    .replace(LINE_BREAK, ' ');
}

/**
 * JSON text for a fenced block: `<`, `>` and `&` written as JSON's own escapes (`\u003c`), the
 * same JSON, so that no tag is in the markdown's source.
 */
export function fencedJson(json: string): string {
  return json.replace(/[<>&]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `markdown` (already escaped for its place) in a table's cell: its `|` escaped. */
export function tableCell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}
