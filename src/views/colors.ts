// The colours every view writes with: ANSI on a terminal, none elsewhere (cli/io.ts picks).

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
export const ANSI: Colors = {
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};
