import { describe, expect, it } from 'vitest';
import { acceptedLocale, clientLocale } from './client-locale.js';

describe('clientLocale', () => {
  it('matches a tag by language and keeps the fallback for other languages or none', () => {
    expect(clientLocale('en-GB', 'zh-CN')).toBe('en');
    expect(clientLocale('zh-Hans', 'en')).toBe('zh-CN');
    expect(clientLocale('zh_TW', 'en')).toBe('zh-CN');
    expect(clientLocale('ZH', 'en')).toBe('zh-CN');
    expect(clientLocale('fr-FR', 'zh-CN')).toBe('zh-CN');
    expect(clientLocale(undefined, 'en')).toBe('en');
    expect(clientLocale(42, 'en')).toBe('en');
  });

  it('reads Accept-Language by quality, skipping languages it does not write', () => {
    expect(acceptedLocale('fr-FR,fr;q=0.9,en;q=0.8,zh-CN;q=0.7', 'zh-CN')).toBe('en');
    expect(acceptedLocale('en;q=0.5, zh-CN', 'en')).toBe('zh-CN');
    expect(acceptedLocale('de, fr', 'en')).toBe('en');
    expect(acceptedLocale('en;q=0', 'zh-CN')).toBe('zh-CN');
    expect(acceptedLocale(undefined, 'zh-CN')).toBe('zh-CN');
  });
});
