import { describe, expect, it } from 'vitest';
import { LineJoiner } from './line-joiner.js';

describe('LineJoiner', () => {
  it('passes single lines through', () => {
    expect(new LineJoiner().push('hello')).toBe('hello');
  });

  it('joins lines ending in a backslash with the next one', () => {
    const joiner = new LineJoiner();
    expect(joiner.push('what time is it? \\')).toBeUndefined();
    expect(joiner.continuing).toBe(true);
    expect(joiner.push('/call current_time')).toBe('what time is it? \n/call current_time');
    expect(joiner.continuing).toBe(false);
  });

  it('drops an unfinished message on reset', () => {
    const joiner = new LineJoiner();
    joiner.push('a\\');
    expect(joiner.reset()).toBe(true);
    expect(joiner.push('b')).toBe('b');
    expect(joiner.reset()).toBe(false);
  });
});
