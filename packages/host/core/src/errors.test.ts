import { describe, expect, it } from 'vitest';
import { AalisError, defineErrors, reasonOf } from './errors.js';

const errors = defineErrors({
  AALIS_TEST_BROKEN: { en: 'The {thing} is broken; replace it.', 'zh-CN': '{thing} 坏了,请更换。', isRetryable: true },
});

describe('AalisError', () => {
  it('carries a stable code, details, retryability, and an English message with the parameters', () => {
    const error = errors.AALIS_TEST_BROKEN({ thing: 'pump' });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('AALIS_TEST_BROKEN');
    expect(error.message).toBe('The pump is broken; replace it.');
    expect(error.localized('zh-CN')).toBe('pump 坏了,请更换。');
    expect(error.isRetryable).toBe(true);
    expect(error.details).toEqual({ thing: 'pump' });
    expect(errors.AALIS_TEST_BROKEN.is(error)).toBe(true);
  });

  it('recognises errors from another copy of the package by the global marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('aalis.error')]: true, code: 'AALIS_TEST_BROKEN' });
    expect(AalisError.isInstance(foreign)).toBe(true);
    expect(AalisError.isInstance(new Error('plain'))).toBe(false);
  });
});

describe('reasonOf', () => {
  it("says a coded error in the reader's language and any other error by its message", () => {
    expect(reasonOf(errors.AALIS_TEST_BROKEN({ thing: 'pump' }), 'zh-CN')).toBe('pump 坏了,请更换。');
    expect(reasonOf(errors.AALIS_TEST_BROKEN({ thing: 'pump' }), 'en')).toBe('The pump is broken; replace it.');
    expect(reasonOf(new Error('disk full'), 'zh-CN')).toBe('disk full');
    expect(reasonOf('just a string', 'en')).toBe('just a string');
  });
});
