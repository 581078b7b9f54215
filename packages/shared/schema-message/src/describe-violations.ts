// Renders schema violations as the bullet list a model (or a person) reads in an error result, in the table's wording.
import { SCHEMA_VIOLATION_TEXTS, type SchemaTextKey, type SchemaTextLocale } from './schema-violation-texts.js';
import type { SchemaViolation } from './validate-json-schema.js';

/** One line per violation (`- $.a: …`), alternatives of anyOf/oneOf indented below; at most `limit` lines. */
export function describeViolations({
  violations,
  locale,
  limit = 20,
}: {
  violations: readonly SchemaViolation[];
  locale: SchemaTextLocale;
  limit?: number;
}): string {
  const texts: Readonly<Record<string, string>> = SCHEMA_VIOLATION_TEXTS[locale] ?? SCHEMA_VIOLATION_TEXTS['zh-CN'];
  const render = (key: SchemaTextKey | string, params: Readonly<Record<string, string | number>>) =>
    fill(Object.hasOwn(texts, key) ? texts[key]! : `{path}: ${key}`, params);
  const lines: string[] = [];
  const visit = (list: readonly SchemaViolation[], indent: string) => {
    for (const violation of list) {
      lines.push(`${indent}- ${render(violation.keyword, { path: violation.path, ...violation.params })}`);
      violation.alternatives?.forEach((alternative, index) => {
        lines.push(`${indent}  ${render('alternative', { index: index + 1 })}`);
        visit(alternative, `${indent}    `);
      });
    }
  };
  visit(violations, '');
  if (lines.length <= limit) return lines.join('\n');
  const kept = lines.slice(0, limit);
  kept.push(render('more', { count: lines.length - limit }));
  return kept.join('\n');
}

/** `{name}` → params[name]; a placeholder without a value stays as written. */
function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
