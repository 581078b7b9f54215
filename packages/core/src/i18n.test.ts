import { describe, expect, it } from 'vitest';
import { defineCatalogue, translate } from './i18n.js';

describe('message catalogues', () => {
  defineCatalogue({ 'zh-CN': { 'test.greet': '你好,{name}' }, en: { 'test.greet': 'Hello, {name}' } });

  it('renders a text reference in each locale with its parameters', () => {
    expect(translate({ key: 'test.greet', params: { name: 'Aalis' } }, 'zh-CN')).toBe('你好,Aalis');
    expect(translate({ key: 'test.greet', params: { name: 'Aalis' } }, 'en')).toBe('Hello, Aalis');
  });

  it('passes plain strings through and shows the key of an unknown reference', () => {
    expect(translate('literal', 'en')).toBe('literal');
    expect(translate({ key: 'test.unknown' }, 'en')).toBe('test.unknown');
  });

  it('refuses a catalogue entry missing a locale', () => {
    expect(() => defineCatalogue({ 'zh-CN': { 'test.half': '半' }, en: {} })).toThrow(/has no en text/);
  });

  it('refuses the same key with different texts', () => {
    expect(() => defineCatalogue({ 'zh-CN': { 'test.greet': '别的' }, en: { 'test.greet': 'Other' } })).toThrow(
      /defined twice/,
    );
  });
});
