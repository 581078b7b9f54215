import { describe, expect, it } from 'vitest';
import { AalisError } from './errors.js';
import { defineCatalogue, textRef } from './i18n.js';
import { withErrorCode } from './with-error-code.js';

defineCatalogue({
  'zh-CN': { 'test.withErrorCode.broken': '泵坏了，请更换。' },
  en: { 'test.withErrorCode.broken': 'The pump is broken; replace it.' },
});

describe('withErrorCode', () => {
  it('puts the code in full-width brackets right after a zh-CN sentence', () => {
    expect(withErrorCode('泵坏了，请更换。', 'AALIS_TEST_BROKEN', 'zh-CN')).toBe(
      '泵坏了，请更换。（AALIS_TEST_BROKEN）',
    );
  });

  it('puts the code in half-width brackets after a space in English', () => {
    expect(withErrorCode('The pump is broken.', 'AALIS_TEST_BROKEN', 'en')).toBe(
      'The pump is broken. (AALIS_TEST_BROKEN)',
    );
  });

  it('joins an error localized for each reader with that reader’s brackets', () => {
    const error = new AalisError('AALIS_TEST_BROKEN', textRef('test.withErrorCode.broken'));
    const lines = (['zh-CN', 'en'] as const).map((locale) =>
      withErrorCode(error.localized(locale), error.code, locale),
    );
    expect(lines).toEqual([
      '泵坏了，请更换。（AALIS_TEST_BROKEN）',
      'The pump is broken; replace it. (AALIS_TEST_BROKEN)',
    ]);
    expect(lines[0]).not.toMatch(/ \(|\(AALIS/);
  });
});
