// JSON with sorted keys, so the same page state always gives the same snapshot text (and a stable prompt prefix).

import { isPlainObject } from '@plingjs/agent';
import { compare } from './action-registry.js';
import { redact } from './sensitive.js';

/** Redacts, then serialises like JSON.stringify but with object keys in code-unit order; bigint as a string. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(redact(value))) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compare)) sorted[key] = sortKeys(value[key]);
  return sorted;
}
