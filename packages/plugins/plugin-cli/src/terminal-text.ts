// Text from outside the CLI (replies, reasoning, tool arguments and results, server messages, log fields) made safe
// for a terminal, and the test for an input line that shows nothing. Only the CLI's own styling (style.ts) and
// screen handling (terminal-screen.ts) write escape sequences.

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this module neutralises.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Every control character except the line feed and the tab becomes a visible symbol: C0 controls their Control
 * Pictures (ESC → ␛, BEL → ␇), DEL ␡, C1 controls (8-bit CSI, OSC …) the replacement character. So an escape sequence
 * in a model's reply is printed as text and cannot set the window title or the clipboard (OSC 0/2/52), clear the
 * screen, switch to the alternate screen, or move the cursor. Carriage returns are dropped: a lone one would return
 * to the start of the line and overwrite what was printed (and CRLF line ends need no CR on a terminal).
 */
export function neutraliseControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x0d) return '';
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return '\ufffd';
  });
}

// White space, default-ignorable code points (zero-width space and joiners, BOM, word joiner, bidi marks, variation
// selectors, Hangul fillers, soft hyphen …), other controls, and the blank braille pattern.
const INVISIBLE = /^[\s\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\u2800]*$/u;

/** Whether a typed message shows nothing at all: such a line is treated as empty and not sent. */
export function isBlankInput(text: string): boolean {
  return INVISIBLE.test(text);
}
