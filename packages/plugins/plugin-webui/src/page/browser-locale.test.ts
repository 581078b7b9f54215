import { describe, expect, it } from 'vitest';
import { browserLocale } from './browser-locale.js';

describe('browserLocale', () => {
  it('takes the first language the page is written in, by language', () => {
    expect(browserLocale(['en-US', 'zh-CN'])).toBe('en');
    expect(browserLocale(['zh-TW', 'en'])).toBe('zh-CN');
    expect(browserLocale(['fr-FR', 'de', 'EN_gb'])).toBe('en');
    expect(browserLocale(['zh-Hans-CN'])).toBe('zh-CN');
  });

  it('gives nothing when the browser asks for neither, so the host decides', () => {
    expect(browserLocale(['fr-FR', 'ja'])).toBeUndefined();
    expect(browserLocale([])).toBeUndefined();
  });
});
