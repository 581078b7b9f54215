import { describe, expect, it } from 'vitest';
import { describeViolations } from './describe-violations.js';
import { SCHEMA_VIOLATION_TEXTS } from './schema-violation-texts.js';
import { validateJsonSchema } from './validate-json-schema.js';

describe('describeViolations', () => {
  it('lists each violation with its path, in the reader locale, with alternatives indented', () => {
    const violations = validateJsonSchema(
      { type: 'object', properties: { n: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['q'] },
      { n: 1.5 },
    );
    expect(describeViolations({ violations, locale: 'en' })).toBe(
      [
        '- $.q: required property "q" is missing',
        '- $.n: matches none of the allowed forms (2):',
        '  form 1:',
        '    - $.n: expected string, received number',
        '  form 2:',
        '    - $.n: expected integer, received number',
      ].join('\n'),
    );
    expect(describeViolations({ violations, locale: 'zh-CN' })).toContain('$.q：缺少必填字段「q」');
  });

  it('cuts long lists and says how many were left out', () => {
    const violations = validateJsonSchema({ type: 'array', items: { type: 'string' } }, [1, 2, 3, 4, 5]);
    const text = describeViolations({ violations, locale: 'en', limit: 2 });
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('3 more');
  });
});

describe('SCHEMA_VIOLATION_TEXTS', () => {
  it('words every key in both locales, with the {path} of the value on every violation line', () => {
    expect(Object.keys(SCHEMA_VIOLATION_TEXTS.en).sort()).toEqual(Object.keys(SCHEMA_VIOLATION_TEXTS['zh-CN']).sort());
    for (const texts of Object.values(SCHEMA_VIOLATION_TEXTS)) {
      for (const [key, text] of Object.entries(texts)) {
        if (key !== 'alternative' && key !== 'more') expect(text, key).toMatch(/^\{path\}/);
      }
    }
  });

  it('never puts an English noun after a number, so a limit of 1 reads right without plural rules', () => {
    for (const [key, text] of Object.entries(SCHEMA_VIOLATION_TEXTS.en)) {
      const rendered = text.replace(/\{(?!path\})\w+\}/g, '1');
      expect(rendered, key).not.toMatch(/\b1 [a-z]+s\b/);
    }
    const violations = validateJsonSchema({ type: 'string', minLength: 1 }, '');
    expect(describeViolations({ violations, locale: 'en' })).toBe('- $: too short (length at least 1, has 0)');
  });

  it('renders the "more" line in zh-CN too', () => {
    const violations = validateJsonSchema({ type: 'array', items: { type: 'string' } }, [1, 2, 3]);
    expect(describeViolations({ violations, locale: 'zh-CN', limit: 1 }).split('\n')).toEqual([
      '- $[0]：类型应为 string，实际为 integer',
      '……另有 2 处',
    ]);
  });
});
