// streamRedactor: streamed text redacted as a whole, so a value split across deltas is caught; what is held back
// (a tail that could start a value, `pendingLength`) comes out on flush(); text that cannot is not held back.
import { describe, expect, it } from 'vitest';
import { type Redact, streamRedactor } from './redaction.js';

const SECRET = 'ann.private@example.com';
const redact: Redact = Object.assign((text: string) => text.split(SECRET).join('[redacted:email]'), {
  pendingLength: (text: string) => {
    for (let length = Math.min(SECRET.length - 1, text.length); length > 0; length--) {
      if (text.endsWith(SECRET.slice(0, length))) return length;
    }
    return 0;
  },
});

describe('streamRedactor', () => {
  it('catches a value split across deltas and delivers everything by the end', () => {
    const out: string[] = [];
    const stream = streamRedactor(
      () => redact,
      (text) => out.push(text),
    );
    for (const delta of ['Hello, I will mail ', 'ann.pri', 'vate@exa', 'mple.com', ' today, as you asked.']) {
      stream.push(delta);
    }
    stream.flush();
    expect(out.join('')).toBe('Hello, I will mail [redacted:email] today, as you asked.');
    expect(out.some((text) => text.includes('ann.pri') || text.includes('vate@'))).toBe(false);
    // Text that cannot start the value is not held back: the first delta came out whole.
    expect(out[0]).toBe('Hello, I will mail ');
  });

  it('without pendingLength every delta is delivered at once', () => {
    const out: string[] = [];
    const stream = streamRedactor(
      () => (text) => text,
      (text) => out.push(text),
    );
    stream.push('a');
    stream.push('b');
    expect(out).toEqual(['a', 'b']);
    stream.flush();
    expect(out).toEqual(['a', 'b']);
  });
});
