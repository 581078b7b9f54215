// Which values of the configuration are secrets: fields whose schema says widget 'password' (llm.apiKey, database,
// the providers' apiKey …) and the values a plugin slot names as secret (platform tokens, header values, MCP server
// environments). The console never sends them to a page in clear, and the audit log never stores them.

import { SECRET_MASK } from '@aalis/api-host-config';
import type { SchemaDescription } from '@aalis/core';
import { isPlainObject } from '@aalis/schema-message';
import { hostConfigSchema } from './host-config.js';
import type { PluginSlot } from './plugin-set.js';

/** Dotted paths (from the configuration's root) of every secret value in `root`. */
export function secretPaths(root: unknown, slots: readonly PluginSlot[]): string[] {
  const found: string[] = [];
  if (!isPlainObject(root)) return found;
  const host = hostConfigSchema.toJSON();
  for (const [key, value] of Object.entries(root)) {
    if (key === 'plugins') continue;
    const field = host.fields?.[key];
    if (field) walk(field, value, key, found);
  }
  const plugins = root.plugins;
  if (!isPlainObject(plugins)) return found;
  for (const [key, section] of Object.entries(plugins)) {
    const slot = slots.find((candidate) => candidate.alias === key || candidate.name === key);
    if (!slot || !isPlainObject(section)) continue;
    const prefix = `plugins.${key}`;
    const schema = slot.schema?.toJSON();
    if (schema) walk(schema, section, prefix, found);
    const values = new Set(slot.secretsOf?.(section) ?? []);
    if (values.size > 0) {
      leaves(section, prefix, (path, leaf) => {
        if (values.has(leaf)) found.push(path);
      });
    }
  }
  return [...new Set(found)];
}

/** The secrets under `path`, relative to it ('' = the value at `path` itself). */
export function secretsUnder(all: readonly string[], path: readonly string[]): string[] {
  const prefix = path.join('.');
  return all.flatMap((secret) => {
    if (secret === prefix) return [''];
    return secret.startsWith(`${prefix}.`) ? [secret.slice(prefix.length + 1)] : [];
  });
}

/**
 * `value` with each string leaf equal to SECRET_MASK replaced by the value `stored` has at the same place (a secret
 * the page left as it showed it); a mask with nothing stored behind it is dropped.
 */
export function unmask(value: unknown, stored: unknown): unknown {
  if (value === SECRET_MASK) return typeof stored === 'string' ? stored : undefined;
  if (Array.isArray(value))
    return value.map((entry, index) => unmask(entry, Array.isArray(stored) ? stored[index] : undefined));
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      const kept = unmask(entry, isPlainObject(stored) ? stored[key] : undefined);
      if (kept !== undefined) result[key] = kept;
    }
    return result;
  }
  return value;
}

function walk(schema: SchemaDescription, value: unknown, path: string, found: string[]): void {
  if (value === undefined || value === null) return;
  if (schema.widget === 'password') {
    if (typeof value === 'string' && value !== '') found.push(path);
    return;
  }
  if (schema.type === 'object' && schema.fields && isPlainObject(value)) {
    for (const [key, field] of Object.entries(schema.fields)) walk(field, value[key], `${path}.${key}`, found);
  } else if (schema.type === 'record' && schema.items && isPlainObject(value)) {
    for (const [key, entry] of Object.entries(value)) walk(schema.items, entry, `${path}.${key}`, found);
  } else if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    for (const [index, entry] of value.entries()) walk(schema.items, entry, `${path}.${index}`, found);
  }
}

function leaves(value: unknown, path: string, visit: (path: string, leaf: string) => void): void {
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) for (const [index, entry] of value.entries()) leaves(entry, `${path}.${index}`, visit);
  else if (isPlainObject(value))
    for (const [key, entry] of Object.entries(value)) leaves(entry, `${path}.${key}`, visit);
}
