import { describe, expect, it } from 'vitest';
import { calculate, formatNumber } from './calculator.js';

describe('calculate', () => {
  it('follows precedence, right-associative powers, unary signs and parentheses', () => {
    expect(calculate('2*(3+4)^2')).toBe(98);
    expect(calculate('2^3^2')).toBe(512);
    expect(calculate('-2^2')).toBe(-4);
    expect(calculate('10 - 4 - 3')).toBe(3);
    expect(calculate('7 % 4 + 1.5e1')).toBe(18);
    expect(calculate('6 × 7 ÷ 2')).toBe(21);
  });

  it('knows a few functions and constants', () => {
    expect(calculate('sqrt(16) + abs(-2) + max(1, 5, 3) + min(4, 2)')).toBe(13);
    expect(calculate('round(pi * 100) / 100')).toBe(3.14);
    expect(calculate('ln(e)')).toBe(1);
  });

  it('says what is wrong, with coded errors', () => {
    expect(() => calculate('2 +')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_INCOMPLETE' }));
    expect(() => calculate('')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_INCOMPLETE' }));
    expect(() => calculate('2 $ 3')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_UNEXPECTED' }));
    expect(() => calculate('(1 + 2')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_EXPECTED' }));
    expect(() => calculate('1 2')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_UNEXPECTED' }));
    expect(() => calculate('foo(1)')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_UNKNOWN_NAME' }));
    expect(() => calculate('sqrt(1, 2)')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_ARGUMENTS' }));
    expect(() => calculate('1/0')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_NOT_FINITE' }));
    expect(() => calculate('process.exit()')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_UNEXPECTED' }));
    expect(() => calculate('process')).toThrow(expect.objectContaining({ code: 'AALIS_CALC_UNKNOWN_NAME' }));
  });

  it('formats results without float noise', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(42)).toBe('42');
  });
});
