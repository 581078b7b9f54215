// Renders schema violations for a reader of Aalis: @aalis/schema-message's rendering, in the reader's locale.
import type { Locale } from '@aalis/core';
import { describeViolations as describeSchemaViolations, type SchemaViolation } from '@aalis/schema-message';

/** One line per violation (`- $.a: …`), alternatives of anyOf/oneOf indented below; at most `limit` lines. */
export function describeViolations({
  violations,
  locale,
  limit,
}: {
  violations: readonly SchemaViolation[];
  locale: Locale;
  limit?: number;
}): string {
  return describeSchemaViolations({ violations, locale: locale === 'en' ? 'en' : 'zh-CN', limit });
}
