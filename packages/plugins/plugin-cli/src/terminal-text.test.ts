import { describe, expect, it } from 'vitest';
import { isBlankInput, neutraliseControls } from './terminal-text.js';

describe('neutraliseControls', () => {
  it('shows escape sequences as text: no OSC title or clipboard, screen clear, alternate screen or cursor move', () => {
    const hostile =
      'a\x1b]0;pwned\x07b\x1b]52;c;ZXZpbA==\x1b\\c\x1b[2J\x1b[3J\x1bcd\x1b[?1049he\x1b[10;10Hf\x9b31mg\x7fh\x00i\x08j';
    const safe = neutraliseControls(hostile);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that no control character is left.
    expect(safe).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(safe).toBe('a␛]0;pwned␇b␛]52;c;ZXZpbA==␛\\c␛[2J␛[3J␛cd␛[?1049he␛[10;10Hf\ufffd31mg␡h␀i␈j');
  });

  it('keeps line feeds, tabs and every printable character; drops carriage returns', () => {
    expect(neutraliseControls('línea 1\r\n\tzwei 二 🙂\rover')).toBe('línea 1\n\tzwei 二 🙂over');
  });
});

describe('isBlankInput', () => {
  it('treats a line of only zero-width or other invisible characters as empty', () => {
    for (const text of [
      '',
      '   ',
      '\u200b',
      '\u200b\u200c\u200d\ufeff\u2060',
      '\u00a0\u3000',
      '\u2800',
      '\u3164',
      '\ufe0f',
      '\u202e',
    ]) {
      expect(isBlankInput(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ['a', '\u200bx', '二', '🙂', '.', '\u00ad-']) expect(isBlankInput(text), text).toBe(false);
  });
});
