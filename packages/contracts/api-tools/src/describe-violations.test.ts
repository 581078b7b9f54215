import { translate } from '@aalis/core';
import { SCHEMA_VIOLATION_TEXTS, validateJsonSchema } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { describeViolations } from './describe-violations.js';
import { toolsCatalogue } from './tools-catalogue.js';

describe('api-tools describeViolations', () => {
  it("renders @aalis/schema-message's wording in the reader's locale", () => {
    const violations = validateJsonSchema({ type: 'object', required: ['q'] }, {});
    expect(describeViolations({ violations, locale: 'en' })).toBe('- $.q: required property "q" is missing');
    expect(describeViolations({ violations, locale: 'zh-CN' })).toBe('- $.q：缺少必填字段「q」');
  });

  it('registers the shared texts as tools.schema.* in the catalogue, word for word', () => {
    for (const locale of ['zh-CN', 'en'] as const) {
      for (const [keyword, text] of Object.entries(SCHEMA_VIOLATION_TEXTS[locale])) {
        const catalogue: Readonly<Record<string, string>> = toolsCatalogue[locale];
        expect(catalogue[`tools.schema.${keyword}`]).toBe(text);
      }
    }
    expect(translate({ key: 'tools.schema.more', params: { count: 3 } }, 'en')).toBe('…and 3 more');
  });
});
