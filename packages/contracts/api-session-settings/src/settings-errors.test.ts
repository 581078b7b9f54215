import { defineCatalogue, textRef } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { invalidValueError } from './settings-errors.js';

defineCatalogue({
  'zh-CN': { 'settings-errors-test.clock': '「时：分」（如 23:00）' },
  en: { 'settings-errors-test.clock': "'HH:MM' (e.g. 23:00)" },
});

describe('invalidValueError', () => {
  it('says what was expected in the language the error is read in, not the one it was made in', () => {
    const error = invalidValueError('flowQuietFrom', textRef('settings-errors-test.clock'), '"25:00"');
    expect(error.code).toBe('AALIS_SETTINGS_INVALID_VALUE');
    expect(error.localized('zh-CN')).toBe(
      '会话设置项「flowQuietFrom」应为 「时：分」（如 23:00），实际为 "25:00"。没有做任何改动。',
    );
    expect(error.localized('en')).toBe(
      `Session setting "flowQuietFrom" expects 'HH:MM' (e.g. 23:00), received "25:00". Nothing was changed.`,
    );
    expect(error.details).toMatchObject({ key: 'flowQuietFrom', received: '"25:00"' });
  });

  it('takes a plain string as it is', () => {
    const error = invalidValueError('style', 'one of: a, b', '"c"');
    expect(error.localized('zh-CN')).toBe('会话设置项「style」应为 one of: a, b，实际为 "c"。没有做任何改动。');
  });
});
