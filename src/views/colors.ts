// The colors a view paints with: ANSI on a terminal, none otherwise (NO_COLOR, --no-color, a pipe,
// the Action's log).

export interface Colors {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const plain = (text: string): string => text;
export const PLAIN: Colors = { red: plain, green: plain, yellow: plain, bold: plain, dim: plain };
const sgr = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const ANSI: Colors = {
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

/** Color only on a terminal, never with NO_COLOR or --no-color. */
export function colorsFor(
  output: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
  colorFlag: boolean,
): Colors {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return colorFlag && !noColor && output.isTTY === true ? ANSI : PLAIN;
}
