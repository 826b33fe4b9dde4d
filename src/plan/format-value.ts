// Short, one-line renderings of JSON values for plans and apply reports.

/** A value on one line: strings quoted, long text cut with an ellipsis. */
export function formatValue(value: unknown, max = 100): string {
  if (value === undefined) return '(absent)';
  let text: string;
  if (typeof value === 'string') {
    const firstLine = value.split('\n')[0]!;
    text = JSON.stringify(
      value.includes('\n') && value.trimEnd().includes('\n') ? `${firstLine}…` : value.trimEnd(),
    );
  } else {
    text = JSON.stringify(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
