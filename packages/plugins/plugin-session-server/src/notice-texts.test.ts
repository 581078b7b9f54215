import { defineCatalogue } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { noticeTexts } from './notice-texts.js';

defineCatalogue({
  'zh-CN': { 'test.notice.error': '[错误] {reason}', 'test.notice.reason': '模型调用失败：{status}' },
  en: { 'test.notice.error': '[Error] {reason}', 'test.notice.reason': 'The model call failed: {status}' },
});

describe('noticeTexts', () => {
  it('renders a notice and the catalogue texts inside it in each language', () => {
    const text = {
      key: 'test.notice.error',
      params: { reason: { key: 'test.notice.reason', params: { status: 500 } } },
    };
    expect(noticeTexts(text)).toEqual({
      'zh-CN': '[错误] 模型调用失败：500',
      en: '[Error] The model call failed: 500',
    });
  });

  it('leaves a plain reason as it is in both', () => {
    expect(noticeTexts({ key: 'test.notice.error', params: { reason: 'ECONNRESET' } })).toEqual({
      'zh-CN': '[错误] ECONNRESET',
      en: '[Error] ECONNRESET',
    });
  });

  it('gives nothing for no text, a malformed one, or a key no loaded catalogue has (the stored text stands)', () => {
    expect(noticeTexts(undefined)).toBeUndefined();
    expect(noticeTexts('[错误] x')).toBeUndefined();
    expect(noticeTexts({ key: 'test.notice.error', params: { reason: null } })).toBeUndefined();
    expect(noticeTexts({ key: 'nobody.knows' })).toBeUndefined();
    expect(noticeTexts({ key: 'test.notice.error', params: { reason: { key: 'nobody.knows' } } })).toBeUndefined();
  });
});
