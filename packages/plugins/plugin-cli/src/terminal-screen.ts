// Writes the screen model to the terminal. A TTY gets a live region redrawn in place above the readline prompt,
// so streamed output never tangles with what the user is typing; anything else gets the committed lines only.
import type { Interface } from 'node:readline';
import { endPosition, rowsOf } from './display-width.js';
import type { ScreenUpdate } from './turn-view.js';

export interface Screen {
  /** Prints committed lines, redraws the live region and the prompt. `echo`: the line the user just submitted. */
  render(update: ScreenUpdate, echo?: string): void;
  /** Stops drawing the prompt (input closed); later renders print without it. */
  closePrompt(): void;
}

export interface TerminalOutput {
  write(text: string): unknown;
  readonly columns?: number;
}

/** For pipes and dumb terminals: committed lines as they come, no live region, no prompt handling. */
export class PlainScreen implements Screen {
  constructor(private readonly output: { write(text: string): unknown }) {}
  render({ commit }: ScreenUpdate): void {
    for (const line of commit) this.output.write(`${line}\n`);
  }
  closePrompt(): void {}
}

export class TerminalScreen implements Screen {
  private live: string[] = [];
  private liveRows = 0;
  private promptShown = false;
  private promptOpen = true;

  constructor(
    private readonly output: TerminalOutput,
    private readonly readline: Pick<Interface, 'getPrompt' | 'getCursorPos' | 'line'>,
  ) {}

  render({ commit, live }: ScreenUpdate, echo?: string): void {
    const unchanged = commit.length === 0 && echo === undefined && sameLines(live, this.live);
    if (unchanged && this.promptShown === this.promptOpen) return;
    const columns = this.columns();
    let up = this.liveRows;
    if (echo !== undefined) {
      // readline wrote the submitted line under the live region and moved to a fresh row.
      up += rowsOf(echo, columns);
    } else if (this.promptShown) {
      up += this.readline.getCursorPos().rows;
    }
    let text = `\r${up > 0 ? `\x1b[${up}A` : ''}\x1b[J`;
    for (const line of commit) text += `${line}\n`;
    if (echo !== undefined) text += `${echo}\n`;
    for (const line of live) text += `${line}\n`;
    this.live = [...live];
    this.liveRows = live.reduce((rows, line) => rows + rowsOf(line, columns), 0);
    this.output.write(text);
    this.promptShown = false;
    if (this.promptOpen) this.drawPrompt(columns);
  }

  closePrompt(): void {
    this.promptOpen = false;
  }

  private drawPrompt(columns: number): void {
    const text = this.readline.getPrompt() + this.readline.line;
    const end = endPosition(text, columns);
    const endRows = end.rows;
    // At an exact multiple of the width the terminal holds the cursor at the edge; a space makes it wrap (as readline does).
    let out = end.cols === 0 ? `${text} ` : text;
    const cursor = this.readline.getCursorPos();
    out += `\x1b[${cursor.cols + 1}G`;
    if (endRows > cursor.rows) out += `\x1b[${endRows - cursor.rows}A`;
    this.output.write(out);
    this.promptShown = true;
  }

  private columns(): number {
    const columns = this.output.columns;
    return typeof columns === 'number' && columns > 0 ? columns : 80;
  }
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
