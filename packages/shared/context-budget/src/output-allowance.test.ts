// outputAllowance: the max output one request may ask for so that messages + tool definitions + max output never exceed
// the model's window.
import { describe, expect, it } from 'vitest';
import { MIN_REPLY_TOKENS, outputAllowance } from './output-allowance.js';

describe('outputAllowance', () => {
  it('keeps the model max output while the prompt leaves room for it', () => {
    expect(outputAllowance({ contextWindow: 8000, maxOutputTokens: 1000, promptTokens: 7000 })).toEqual({
      maxOutputTokens: 1000,
      fits: true,
      room: 1000,
    });
  });

  it('lowers the max output to the room the window leaves (the 1024 floor of a small window)', () => {
    // Window 2048, max output 2048: the trim budget is its floor of 1024, so a full reserve cannot fit.
    const allowance = outputAllowance({ contextWindow: 2048, maxOutputTokens: 2048, promptTokens: 1024 });
    expect(allowance).toEqual({ maxOutputTokens: 1024, fits: true, room: 1024 });
  });

  it('refuses a request whose prompt leaves less than a useful reply', () => {
    expect(outputAllowance({ contextWindow: 4000, maxOutputTokens: 1000, promptTokens: 4000 - 10 }).fits).toBe(false);
    expect(outputAllowance({ contextWindow: 4000, maxOutputTokens: 1000, promptTokens: 5000 })).toEqual({
      maxOutputTokens: 0,
      fits: false,
      room: -1000,
    });
    expect(
      outputAllowance({ contextWindow: 4000, maxOutputTokens: 1000, promptTokens: 4000 - MIN_REPLY_TOKENS }).fits,
    ).toBe(true);
    // A model with a smaller max output than the minimum needs only its own.
    expect(outputAllowance({ contextWindow: 4000, maxOutputTokens: 50, promptTokens: 3950 }).fits).toBe(true);
  });

  it('rejects figures that are not finite numbers ≥ 0', () => {
    expect(() => outputAllowance({ contextWindow: Number.NaN, maxOutputTokens: 1, promptTokens: 1 })).toThrow(
      /contextWindow/,
    );
    expect(() => outputAllowance({ contextWindow: 1, maxOutputTokens: 1, promptTokens: -1 })).toThrow(/promptTokens/);
  });
});
