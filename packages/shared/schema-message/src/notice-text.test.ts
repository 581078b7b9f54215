import { describe, expect, it } from 'vitest';
import { isNoticeText, renderNoticeText } from './notice-text.js';

const catalogue: Record<string, string> = { outer: '[{tag}] {inner}', inner: 'count {n}' };
const translate = ({ key, params }: { key: string; params?: Readonly<Record<string, string | number>> }) =>
  (catalogue[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => String(params?.[name] ?? whole));

describe('renderNoticeText', () => {
  it('renders nested texts first and passes plain parameters through', () => {
    expect(
      renderNoticeText({ key: 'outer', params: { tag: 'x', inner: { key: 'inner', params: { n: 3 } } } }, translate),
    ).toBe('[x] count 3');
    expect(renderNoticeText({ key: 'inner' }, translate)).toBe('count {n}');
  });
});

describe('isNoticeText', () => {
  it('accepts a key with string, number or nested-text parameters and refuses anything else', () => {
    expect(isNoticeText({ key: 'a' })).toBe(true);
    expect(isNoticeText({ key: 'a', params: { b: 'c', d: 1, e: { key: 'f' } } })).toBe(true);
    for (const value of [
      undefined,
      null,
      'a',
      { key: '' },
      { key: 1 },
      { key: 'a', params: 'b' },
      { key: 'a', params: { b: null } },
      { key: 'a', params: { b: { key: 2 } } },
    ]) {
      expect(isNoticeText(value)).toBe(false);
    }
  });
});
