import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineCatalogue, fillPlaceholders, translate } from './i18n.js';

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

describe('fillPlaceholders (a scan instead of a regular expression)', () => {
  const byRegularExpression = (template: string, params: Record<string, string | number>) =>
    template.replace(/\{(\w+)\}/g, (whole, name: string) =>
      params[name] === undefined ? whole : String(params[name]),
    );

  it('fills what the regular expression filled, for any template and parameters', () => {
    const piece = fc.constantFrom('{', '}', 'a', 'b', '_', '1', '-', ' ', '名', '{a}', '{b}', '{_1}', '{ab}', '{}');
    const template = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(''));
    const params = fc.dictionary(fc.constantFrom('a', 'b', '_1', 'ab', 'c'), fc.oneof(fc.string(), fc.integer()));
    fc.assert(
      fc.property(template, params, (text, values) => {
        expect(fillPlaceholders(text, values)).toBe(byRegularExpression(text, values));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves unknown and malformed placeholders as written, and fills adjacent ones', () => {
    expect(fillPlaceholders('{a}{b}{{a}}{c}{ a}{}', { a: 1, b: 'x' })).toBe('1x{1}{c}{ a}{}');
    expect(fillPlaceholders('no braces', { a: 1 })).toBe('no braces');
    expect(fillPlaceholders('{a}', undefined)).toBe('{a}');
  });
});
