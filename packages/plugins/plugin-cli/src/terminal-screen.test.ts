import { describe, expect, it } from 'vitest';
import { PlainScreen, TerminalScreen } from './terminal-screen.js';

function fakeReadline(prompt = '› ') {
  return {
    line: '',
    cursor: 0,
    getPrompt: () => prompt,
    getCursorPos() {
      const width = prompt.length + this.cursor;
      return { rows: Math.floor(width / 20), cols: width % 20 };
    },
  };
}

function output() {
  const writes: string[] = [];
  return { writes, columns: 20, write: (text: string) => writes.push(text) };
}

describe('TerminalScreen', () => {
  it('draws committed lines, then the live region, then the prompt with the cursor where readline has it', () => {
    const out = output();
    const readline = fakeReadline();
    readline.line = 'hel';
    readline.cursor = 3;
    const screen = new TerminalScreen(out, readline);
    screen.render({ commit: ['done'], live: ['live line'] });
    expect(out.writes.join('')).toBe('\r\x1b[Jdone\nlive line\n› hel\x1b[6G');
  });

  it('erases the live region and the prompt rows before redrawing', () => {
    const out = output();
    const readline = fakeReadline();
    const screen = new TerminalScreen(out, readline);
    screen.render({ commit: [], live: ['a'.repeat(25), 'b'] }); // 2 + 1 rows on a 20-column terminal
    out.writes.length = 0;
    readline.line = 'x'.repeat(30);
    readline.cursor = 30; // prompt + 30 = 32 columns: the cursor is on the prompt's second row
    screen.render({ commit: ['c'], live: [] });
    expect(out.writes[0]).toBe('\r\x1b[4A\x1b[Jc\n');
  });

  it('counts the submitted line readline echoed under the live region', () => {
    const out = output();
    const readline = fakeReadline();
    const screen = new TerminalScreen(out, readline);
    screen.render({ commit: [], live: ['live'] });
    out.writes.length = 0;
    screen.render({ commit: [], live: ['live'] }, `› ${'y'.repeat(25)}`); // the echo took 2 rows
    expect(out.writes[0]).toBe(`\r\x1b[3A\x1b[J› ${'y'.repeat(25)}\nlive\n`);
  });

  it('does nothing when nothing changed, and stops drawing the prompt once closed', () => {
    const out = output();
    const screen = new TerminalScreen(out, fakeReadline());
    screen.render({ commit: [], live: ['x'] });
    const count = out.writes.length;
    screen.render({ commit: [], live: ['x'] });
    expect(out.writes.length).toBe(count);
    screen.closePrompt();
    screen.render({ commit: ['bye'], live: [] });
    expect(out.writes.at(-1)).toBe('\r\x1b[1A\x1b[Jbye\n');
  });
});

describe('PlainScreen', () => {
  it('writes committed lines only', () => {
    const out = output();
    new PlainScreen(out).render({ commit: ['a', 'b'], live: ['ignored'] });
    expect(out.writes).toEqual(['a\n', 'b\n']);
  });
});
