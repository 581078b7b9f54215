// Value checks and the text form of /session.set values.
import { describe, expect, it } from 'vitest';
import { formatSettingValue, matchesFieldType, parseSettingText } from './check-value.js';

describe('parseSettingText', () => {
  it('reads numbers, rejecting text and non-finite values', () => {
    expect(parseSettingText('number', ' 12 ')).toEqual({ ok: true, value: 12 });
    expect(parseSettingText('number', '-0.5')).toEqual({ ok: true, value: -0.5 });
    expect(parseSettingText('number', '1e3')).toEqual({ ok: true, value: 1000 });
    for (const text of ['', 'ten', '1,5', 'Infinity', '0x10', '1e999'])
      expect(parseSettingText('number', text).ok).toBe(false);
  });

  it('reads booleans as true/false and on/off', () => {
    expect(parseSettingText('boolean', 'on')).toEqual({ ok: true, value: true });
    expect(parseSettingText('boolean', 'OFF')).toEqual({ ok: true, value: false });
    expect(parseSettingText('boolean', 'true')).toEqual({ ok: true, value: true });
    expect(parseSettingText('boolean', 'maybe').ok).toBe(false);
  });

  it('reads string lists comma-separated or as a JSON array', () => {
    expect(parseSettingText('string[]', 'a, b ,,c')).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(parseSettingText('string[]', '["a, b", "c"]')).toEqual({ ok: true, value: ['a, b', 'c'] });
    expect(parseSettingText('string[]', '')).toEqual({ ok: true, value: [] });
    expect(parseSettingText('string[]', '[1, 2]').ok).toBe(false);
    expect(parseSettingText('string[]', '[oops').ok).toBe(false);
  });

  it('reads llm-ref as <provider>/<model>, both non-empty, split at the first slash', () => {
    expect(parseSettingText('llm-ref', 'openai-1/gpt-4o')).toEqual({
      ok: true,
      value: { provider: 'openai-1', model: 'gpt-4o' },
    });
    expect(parseSettingText('llm-ref', 'or/meta/llama-3')).toEqual({
      ok: true,
      value: { provider: 'or', model: 'meta/llama-3' },
    });
    for (const text of ['gpt-4o', '/gpt', 'openai/', '']) expect(parseSettingText('llm-ref', text).ok).toBe(false);
  });

  it('keeps strings as written and needs a non-empty select value', () => {
    expect(parseSettingText('string', ' two words ')).toEqual({ ok: true, value: ' two words ' });
    expect(parseSettingText('select', ' high ')).toEqual({ ok: true, value: 'high' });
    expect(parseSettingText('select', ' ').ok).toBe(false);
  });
});

describe('matchesFieldType', () => {
  it('checks each type and fixed select options', () => {
    expect(matchesFieldType({ type: 'llm-ref' }, { provider: 'a', model: 'b' })).toBe(true);
    expect(matchesFieldType({ type: 'llm-ref' }, { provider: 'a', model: '' })).toBe(false);
    expect(matchesFieldType({ type: 'number' }, Number.POSITIVE_INFINITY)).toBe(false);
    expect(matchesFieldType({ type: 'string[]' }, ['a', 2])).toBe(false);
    const select = { type: 'select' as const, options: [{ value: 'a', label: 'A' }] };
    expect(matchesFieldType(select, 'a')).toBe(true);
    expect(matchesFieldType(select, 'b')).toBe(false);
    expect(matchesFieldType({ type: 'select' }, 'anything')).toBe(true);
  });
});

describe('formatSettingValue', () => {
  it('is the text form parseSettingText reads back', () => {
    expect(formatSettingValue('llm-ref', { provider: 'p', model: 'm/x' })).toBe('p/m/x');
    expect(formatSettingValue('string[]', ['a', 'b'])).toBe('a, b');
    expect(formatSettingValue('boolean', false)).toBe('false');
    expect(formatSettingValue('number', 3)).toBe('3');
  });
});
