import { withErrorCode } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { splitErrorCode } from './error-line.js';

describe('splitErrorCode', () => {
  it('takes the code off a zh-CN line (full-width brackets) and an English one (after a space)', () => {
    expect(splitErrorCode('值不对。没有做任何改动。（AALIS_SETTINGS_INVALID_VALUE）')).toEqual({
      message: '值不对。没有做任何改动。',
      code: 'AALIS_SETTINGS_INVALID_VALUE',
    });
    expect(splitErrorCode('Nothing was changed. (AALIS_SETTINGS_INVALID_VALUE)')).toEqual({
      message: 'Nothing was changed.',
      code: 'AALIS_SETTINGS_INVALID_VALUE',
    });
  });

  it('reads back what withErrorCode joined, in both languages, over several lines', () => {
    for (const locale of ['zh-CN', 'en'] as const) {
      const message = 'Line one\n- a list item';
      expect(splitErrorCode(withErrorCode(message, 'AALIS_X_Y', locale))).toEqual({ message, code: 'AALIS_X_Y' });
    }
  });

  it('leaves a text without a trailing code alone: a code inside it, brackets that hold no code', () => {
    for (const text of [
      'See (AALIS_X) above for the reason.',
      'Two chats (and a room)',
      '额度用完了（已用 115 token，上限 100 token）',
      'AALIS_BARE_CODE',
      '',
    ]) {
      expect(splitErrorCode(text)).toEqual({ message: text });
    }
  });
});
