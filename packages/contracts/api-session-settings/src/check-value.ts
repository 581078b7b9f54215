// Type checking of setting values and parsing of the text form used by /session.set. Pure.
import { defineCatalogue, type TextRef, textRef } from '@aalis/core';
import type { AnySessionField, LlmRef, SessionFieldType } from './session-field.js';

defineCatalogue({
  'zh-CN': {
    'settings.expected.llm-ref': '模型条目 <提供者实例 id>/<模型 id>（两段都不能为空）',
    'settings.expected.select': '以下之一：{options}',
    'settings.expected.selectAny': '一个选项 id（字符串）',
    'settings.expected.number': '一个数',
    'settings.expected.boolean': 'true/false（也可写 on/off）',
    'settings.expected.string[]': '字符串列表（逗号分隔，或 JSON 数组）',
    'settings.expected.string': '一段文字',
  },
  en: {
    'settings.expected.llm-ref': 'a model entry <provider instance id>/<model id> (both parts non-empty)',
    'settings.expected.select': 'one of: {options}',
    'settings.expected.selectAny': 'an option id (a string)',
    'settings.expected.number': 'a number',
    'settings.expected.boolean': 'true/false (or on/off)',
    'settings.expected.string[]': 'a list of strings (comma-separated, or a JSON array)',
    'settings.expected.string': 'a text',
  },
});

/** What a field of this definition expects, as a catalogue text. */
export function expectedOf(field: Pick<AnySessionField, 'type' | 'options'>): TextRef {
  if (field.type === 'select') {
    return field.options && field.options.length > 0
      ? textRef('settings.expected.select', { options: field.options.map((option) => option.value).join(', ') })
      : textRef('settings.expected.selectAny');
  }
  return textRef(`settings.expected.${field.type}`);
}

export function isLlmRef(value: unknown): value is LlmRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { provider, model } = value as Record<string, unknown>;
  return typeof provider === 'string' && provider !== '' && typeof model === 'string' && model !== '';
}

/** Whether a value has the shape the field type stores (and, for a 'select' with fixed options, is one of them). */
export function matchesFieldType(field: Pick<AnySessionField, 'type' | 'options'>, value: unknown): boolean {
  switch (field.type) {
    case 'llm-ref':
      return isLlmRef(value);
    case 'select':
      return (
        typeof value === 'string' &&
        (!field.options || field.options.length === 0 || field.options.some((option) => option.value === value))
      );
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
    case 'string':
      return typeof value === 'string';
  }
}

/**
 * Parses the text form of a value (/session.set <key> <value>) by field type: numbers; booleans true/false/on/off
 * (also 1/0, yes/no); string[] comma-separated (trimmed, empties dropped) or a JSON array; llm-ref
 * `<provider>/<model>` split at the first '/' (model ids may contain '/'); select and string as written.
 * Returns `{ ok: false }` when the text cannot be read as that type.
 */
export function parseSettingText(type: SessionFieldType, text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  switch (type) {
    case 'number': {
      if (trimmed === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return { ok: false };
      const value = Number(trimmed);
      return Number.isFinite(value) ? { ok: true, value } : { ok: false };
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (['true', 'on', 'yes', '1'].includes(lower)) return { ok: true, value: true };
      if (['false', 'off', 'no', '0'].includes(lower)) return { ok: true, value: false };
      return { ok: false };
    }
    case 'string[]': {
      if (trimmed.startsWith('[')) {
        try {
          const value: unknown = JSON.parse(trimmed);
          return Array.isArray(value) && value.every((entry) => typeof entry === 'string')
            ? { ok: true, value }
            : { ok: false };
        } catch {
          return { ok: false };
        }
      }
      return {
        ok: true,
        value: trimmed
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      };
    }
    case 'llm-ref': {
      const slash = trimmed.indexOf('/');
      const provider = slash < 0 ? '' : trimmed.slice(0, slash).trim();
      const model = slash < 0 ? '' : trimmed.slice(slash + 1).trim();
      return provider !== '' && model !== '' ? { ok: true, value: { provider, model } } : { ok: false };
    }
    case 'select':
      return trimmed === '' ? { ok: false } : { ok: true, value: trimmed };
    case 'string':
      return { ok: true, value: text };
  }
}

/** The text form of a value (the inverse of parseSettingText, for display). */
export function formatSettingValue(type: SessionFieldType, value: unknown): string {
  if (value === undefined) return '';
  if (type === 'llm-ref' && isLlmRef(value)) return `${value.provider}/${value.model}`;
  if (type === 'string[]' && Array.isArray(value)) return value.join(', ');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A short neutral rendering of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
