// The settings form of a plugin, generated from its schema (the same one that checks the YAML): one field per key
// with its control (text, long text, secret, number with bounds, switch, choice, list, map, nested group, JSON for
// what has no simpler form), its help and default; reading and writing a draft of the section by dotted path; and
// the server's validation issues placed under the field they concern.
import { CONFIG_SECRET_MASK, type ConfigIssueView, type SchemaView } from '@aalis/session-client';

export type FieldControl =
  | 'text'
  | 'textarea'
  | 'password'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'list'
  | 'record'
  | 'group'
  | 'json';

export interface FormField {
  /** The key: the field's label, as in the YAML. */
  key: string;
  /** Dotted path inside the section (transcription.apiKey). */
  path: string;
  control: FieldControl;
  help?: string;
  default?: unknown;
  optional: boolean;
  min?: number;
  max?: number;
  integer?: boolean;
  /** Choices of an enum. */
  values?: readonly (string | number)[];
  /** A list's or a map's entries: 'text' or 'number' rows (else the field is JSON). */
  entry?: 'text' | 'number';
  /** A group's fields. */
  fields?: FormField[];
}

/** The fields of a section's schema (an object schema; anything else is one JSON field). */
export function formFields(schema: SchemaView, secrets: readonly string[] = [], prefix = ''): FormField[] {
  if (schema.type !== 'object' || !schema.fields) return [];
  return Object.entries(schema.fields).map(([key, field]) =>
    fieldOf(key, field, prefix ? `${prefix}.${key}` : key, secrets),
  );
}

function fieldOf(key: string, schema: SchemaView, path: string, secrets: readonly string[]): FormField {
  const base: FormField = {
    key,
    path,
    control: 'json',
    optional: schema.optional === true,
    ...(schema.description ? { help: schema.description } : {}),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
  };
  switch (schema.type) {
    case 'string':
      return {
        ...base,
        control:
          schema.widget === 'password' || secrets.includes(path)
            ? 'password'
            : schema.widget === 'textarea'
              ? 'textarea'
              : 'text',
      };
    case 'number':
      return {
        ...base,
        control: 'number',
        ...(schema.min !== undefined ? { min: schema.min } : {}),
        ...(schema.max !== undefined ? { max: schema.max } : {}),
        ...(schema.integer ? { integer: true } : {}),
      };
    case 'boolean':
      return { ...base, control: 'boolean' };
    case 'enum':
      return { ...base, control: 'enum', values: (schema.values ?? []) as (string | number)[] };
    case 'array':
    case 'record': {
      const entry = schema.items?.type === 'string' ? 'text' : schema.items?.type === 'number' ? 'number' : undefined;
      if (!entry || schema.items?.widget === 'password') return base;
      return { ...base, control: schema.type === 'array' ? 'list' : 'record', entry };
    }
    case 'object':
      if (!schema.fields || Object.keys(schema.fields).length === 0) return base;
      return { ...base, control: 'group', fields: formFields(schema, secrets, path) };
    default:
      return base;
  }
}

/** The value at a dotted path of a draft (undefined when absent). */
export function valueAt(draft: Record<string, unknown>, path: string): unknown {
  let node: unknown = draft;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** A copy of the draft with the value at `path` set (undefined removes the key; empty groups are removed too). */
export function withValue(draft: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(draft);
  const segments = path.split('.');
  const parents: Record<string, unknown>[] = [copy];
  let node = copy;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      if (value === undefined) return copy;
      node[segment] = {};
    }
    node = node[segment] as Record<string, unknown>;
    parents.push(node);
  }
  const last = segments.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  // A group left empty is left out rather than written as {}.
  for (let index = parents.length - 1; index > 0; index--) {
    if (Object.keys(parents[index]!).length > 0) break;
    delete parents[index - 1]![segments[index - 1]!];
  }
  return copy;
}

/** What a text input of a field means: its typed value, or undefined (the key left out: the default applies). */
export function parseInput(field: FormField, text: string): { value: unknown } | { problem: 'number' | 'json' } {
  if (field.control === 'number') {
    if (text.trim() === '') return { value: undefined };
    const number = Number(text);
    return Number.isFinite(number) ? { value: number } : { problem: 'number' };
  }
  if (field.control === 'json') {
    if (text.trim() === '') return { value: undefined };
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { problem: 'json' };
    }
  }
  // An emptied text falls back to the default when there is one (or the key may be left out).
  if (text === '' && (field.default !== undefined || field.optional)) return { value: undefined };
  return { value: text };
}

/** How a value is shown in a field's text input. */
export function inputText(field: FormField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.control === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/** What the placeholder of an unset field says: its default. */
export function defaultText(field: FormField): string | undefined {
  if (field.default === undefined || field.default === '') return undefined;
  return typeof field.default === 'string' ? field.default : JSON.stringify(field.default);
}

/** A secret stays masked unless the person typed a new one. */
export function isMasked(value: unknown): boolean {
  return value === CONFIG_SECRET_MASK;
}

/**
 * The server's issues by the field they concern: `plugins.<alias>.transcription.baseUrl` under the field
 * `transcription.baseUrl`, a list item's issue (`models.0.id`) under its list; issues outside the section under ''.
 */
export function issuesByField(
  issues: readonly ConfigIssueView[],
  sectionKey: string,
  fields: readonly FormField[],
): Map<string, ConfigIssueView[]> {
  const paths = new Set<string>();
  const collect = (list: readonly FormField[]) => {
    for (const field of list) {
      paths.add(field.path);
      if (field.fields) collect(field.fields);
    }
  };
  collect(fields);
  const byField = new Map<string, ConfigIssueView[]>();
  for (const issue of issues) {
    let path = issue.path.startsWith(`${sectionKey}.`) ? issue.path.slice(sectionKey.length + 1) : '';
    while (path !== '' && !paths.has(path)) path = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
    byField.set(path, [...(byField.get(path) ?? []), issue]);
  }
  return byField;
}
