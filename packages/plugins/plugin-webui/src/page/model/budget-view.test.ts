import { describe, expect, it } from 'vitest';
import { amountText, budgetLevel, limitText, parseLimit, percentUsed } from './budget-view.js';

const tokens = { unit: 'tokens' as const, currency: 'USD', locale: 'en', unlimited: 'no limit' };

describe('budget figures', () => {
  it('writes tokens grouped, money with its currency, and a limit of 0 as unlimited', () => {
    expect(amountText(1234567.4, tokens)).toBe('1,234,567');
    expect(amountText(0.12345, { ...tokens, unit: 'money' })).toBe('0.1235 USD');
    expect(limitText(0, { ...tokens, unlimited: '不限' })).toBe('不限');
    expect(limitText(5000, tokens)).toBe('5,000');
  });

  it('gives the share used and the bar state against the warning line', () => {
    expect(percentUsed(345, 1000)).toBe(34);
    expect(percentUsed(345, 0)).toBeUndefined();
    expect(budgetLevel(790, 1000, 0.8)).toBe('ok');
    expect(budgetLevel(800, 1000, 0.8)).toBe('warn');
    expect(budgetLevel(1000, 1000, 0.8)).toBe('over');
    expect(budgetLevel(10 ** 9, 0, 0.8)).toBe('ok');
  });

  it('reads a typed limit, refusing what is not a number of at least 0', () => {
    expect(parseLimit(' 2000 ')).toBe(2000);
    expect(parseLimit('0')).toBe(0);
    expect(parseLimit('0.5')).toBe(0.5);
    expect(parseLimit('-1')).toBeUndefined();
    expect(parseLimit('abc')).toBeUndefined();
    expect(parseLimit('')).toBeUndefined();
    expect(parseLimit('Infinity')).toBeUndefined();
  });
});
