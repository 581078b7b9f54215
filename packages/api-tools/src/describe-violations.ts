// Renders schema violations as the bullet list a model (or a person) reads in an error result.
import { type Locale, translate } from '@aalis/core';
import './tools-catalogue.js';
import type { SchemaViolation } from './validate-json-schema.js';

/** One line per violation (`- $.a: …`), alternatives of anyOf/oneOf indented below; at most `limit` lines. */
export function describeViolations({
  violations,
  locale,
  limit = 20,
}: {
  violations: readonly SchemaViolation[];
  locale: Locale;
  limit?: number;
}): string {
  const lines: string[] = [];
  const visit = (list: readonly SchemaViolation[], indent: string) => {
    for (const violation of list) {
      lines.push(
        `${indent}- ${translate({ key: `tools.schema.${violation.keyword}`, params: { path: violation.path, ...violation.params } }, locale)}`,
      );
      violation.alternatives?.forEach((alternative, index) => {
        lines.push(
          `${indent}  ${translate({ key: 'tools.schema.alternative', params: { index: index + 1 } }, locale)}`,
        );
        visit(alternative, `${indent}    `);
      });
    }
  };
  visit(violations, '');
  if (lines.length <= limit) return lines.join('\n');
  const kept = lines.slice(0, limit);
  kept.push(translate({ key: 'tools.schema.more', params: { count: lines.length - limit } }, locale));
  return kept.join('\n');
}
