// Terminal styles: ANSI SGR sequences when colour is on, plain text otherwise (NO_COLOR, pipes).

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  green(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

export const colourStyle: Style = {
  dim: wrap(2, 22),
  bold: wrap(1, 22),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  green: wrap(32, 39),
};

const same = (text: string) => text;
export const plainStyle: Style = { dim: same, bold: same, red: same, yellow: same, cyan: same, green: same };

/** Colour when the stream is a terminal and NO_COLOR is not set (https://no-color.org). */
export function styleFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): Style {
  return stream.isTTY === true && !env.NO_COLOR ? colourStyle : plainStyle;
}
