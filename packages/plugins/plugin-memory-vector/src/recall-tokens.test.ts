import { describe, expect, it } from 'vitest';
import { recallTokens } from './recall-tokens.js';

describe('recallTokens', () => {
  it('keeps the configured most where the window is large', () => {
    expect(recallTokens(2000, 128_000)).toBe(2000);
    expect(recallTokens(2000, 20_000)).toBe(2000);
  });

  it('gives a small window a tenth of it', () => {
    expect(recallTokens(2000, 5632)).toBe(563);
    expect(recallTokens(2000, 8192)).toBe(819);
  });

  it('falls back to the configured most when the window is unknown', () => {
    expect(recallTokens(1500, 0)).toBe(1500);
    expect(recallTokens(1500, Number.NaN)).toBe(1500);
  });
});
