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

describe('plural choices in fillPlaceholders', () => {
  const facts = '{count, plural, one {# fact} other {# facts}}';

  it('picks the English category for 1, 0, 2 and 21', () => {
    expect(fillPlaceholders(`owner · ${facts}`, { count: 1 }, 'en')).toBe('owner · 1 fact');
    expect(fillPlaceholders(facts, { count: 0 }, 'en')).toBe('0 facts');
    expect(fillPlaceholders(facts, { count: 2 }, 'en')).toBe('2 facts');
    expect(fillPlaceholders(facts, { count: 21 }, 'en')).toBe('21 facts');
    expect(fillPlaceholders(facts, { count: '1' }, 'en')).toBe('1 fact');
    expect(fillPlaceholders(facts, { count: '1,001' }, 'en')).toBe('1,001 facts');
  });

  it('prefers an exact =N match, and falls back to other for a category the choice does not name', () => {
    const messages = '{n, plural, =0 {no messages} =1 {one message} other {# messages}}';
    expect(fillPlaceholders(messages, { n: 0 }, 'en')).toBe('no messages');
    expect(fillPlaceholders(messages, { n: 1 }, 'en')).toBe('one message');
    expect(fillPlaceholders(messages, { n: 7 }, 'en')).toBe('7 messages');
    // zh-CN has only the category other, so `one` is never chosen there.
    expect(fillPlaceholders(facts, { count: 1 }, 'zh-CN')).toBe('1 facts');
  });

  it('fills placeholders and nested choices inside the chosen text, each # being its own number', () => {
    const template =
      '{count, plural, one {# call in {room}} other {# calls in {room}, {tools, plural, one {# tool} other {# tools}}}}';
    expect(fillPlaceholders(template, { count: 1, room: 'lab', tools: 1 }, 'en')).toBe('1 call in lab');
    expect(fillPlaceholders(template, { count: 3, room: 'lab', tools: 1 }, 'en')).toBe('3 calls in lab, 1 tool');
  });

  it('leaves a malformed choice or one without its parameter as written, and never throws', () => {
    for (const malformed of [
      '{count, plural, one {# fact}}',
      '{count, plural, one {# fact} other {# facts}',
      '{count, plural, one {# fact} other {# facts',
      '{count, plural, one # fact other {# facts}}',
      '{count, select, one {# fact} other {# facts}}',
      '{count, plural, = {x} other {y}}',
      '{count, plural,}',
      '{count,',
    ]) {
      expect(fillPlaceholders(`${malformed} {count}`, { count: 1 }, 'en')).toBe(`${malformed} 1`);
    }
    expect(fillPlaceholders(facts, { other: 1 }, 'en')).toBe(facts);
  });

  it('keeps zh-CN texts with a plain {count} as they were', () => {
    defineCatalogue({
      'zh-CN': { 'test.facts': '{count} 条事实' },
      en: { 'test.facts': '{count, plural, one {# fact} other {# facts}}' },
    });
    expect(translate({ key: 'test.facts', params: { count: 1 } }, 'zh-CN')).toBe('1 条事实');
    expect(translate({ key: 'test.facts', params: { count: 1 } }, 'en')).toBe('1 fact');
    expect(translate({ key: 'test.facts', params: { count: 21 } }, 'en')).toBe('21 facts');
  });

  // A second reference: one regular expression for choices whose texts hold no braces, plus the plain placeholder.
  const byReference = (template: string, params: Record<string, string | number>, locale: 'en' | 'zh-CN') =>
    template.replace(
      /\{(\w+)\s*,\s*plural\s*,((?:\s*(?:=\d+|\w+)\s*\{[^{}]*\})+)\s*\}|\{(\w+)\}/g,
      (whole, choiceName: string | undefined, body: string | undefined, name: string | undefined) => {
        if (name !== undefined) return params[name] === undefined ? whole : String(params[name]);
        const value = params[choiceName!];
        const branches = [...body!.matchAll(/(=\d+|\w+)\s*\{([^{}]*)\}/g)].map((m) => ({
          selector: m[1]!,
          text: m[2]!,
        }));
        if (!branches.some((branch) => branch.selector === 'other')) return whole;
        if (value === undefined) return whole;
        const count = typeof value === 'number' ? value : /^\s*$/.test(value) ? Number.NaN : Number(value);
        const category = Number.isFinite(count) ? new Intl.PluralRules(locale).select(count) : 'other';
        const chosen =
          branches.find((branch) => branch.selector === `=${count}`) ??
          branches.find((branch) => branch.selector === category) ??
          branches.find((branch) => branch.selector === 'other')!;
        return chosen.text.split('#').join(String(value));
      },
    );

  it('fills what the reference fills, for templates mixing choices, broken choices and placeholders', () => {
    const piece = fc.constantFrom(
      '{a, plural, one {# x} other {# xs}}',
      '{b, plural, =0 {none} =1 {one b} other {# b}}',
      '{a,plural,other{#}}',
      '{c , plural , one {c} few {few c} other {# c}}',
      '{a, plural, one {x}}',
      '{a, plural, one {x} other {y}',
      '{a, plural, bogus}',
      '{b, select, x {y} other {z}}',
      '{a}',
      '{b}',
      '{a,',
      // No lone word: after the unclosed choice above it would be a selector opening a nested choice, which the
      // reference (brace-free texts only) cannot follow.
      '-',
      ' ',
      '#',
      ',',
      '}',
      '名',
    );
    const template = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    const value = fc.oneof(
      fc.integer({ min: -3, max: 30 }),
      fc.string({ maxLength: 3 }),
      fc.constantFrom('1', '2.5', '1,234', ' 1 '),
    );
    const params = fc.dictionary(fc.constantFrom('a', 'b', 'c'), value);
    const locale = fc.constantFrom<'en' | 'zh-CN'>('en', 'zh-CN');
    fc.assert(
      fc.property(template, params, locale, (text, values, language) => {
        expect(fillPlaceholders(text, values, language)).toBe(byReference(text, values, language));
      }),
      { numRuns: 2000 },
    );
  });
});
