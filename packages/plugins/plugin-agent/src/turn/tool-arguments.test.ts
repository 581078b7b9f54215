import { describe, expect, it } from 'vitest';
import { parseToolArguments } from './tool-arguments.js';

describe('工具调用循环: argument parsing', () => {
  it('空串按无参处理', () => {
    expect(parseToolArguments('')).toEqual({ ok: true, args: {} });
  });
  it('accepts a JSON object', () => {
    expect(parseToolArguments('{"q":"x"}')).toEqual({ ok: true, args: { q: 'x' } });
  });
  it('坏 JSON is refused with the first 200 characters', () => {
    const raw = `{"q": ${'x'.repeat(300)}`;
    const parsed = parseToolArguments(raw);
    expect(parsed).toEqual({ ok: false, problem: 'json', excerpt: raw.slice(0, 200) });
  });
  it.each(['null', '[1,2]', '42', '"text"', 'true'])('顶层是 null、数组、原始值 (%s) is refused', (raw) => {
    expect(parseToolArguments(raw)).toMatchObject({ ok: false, problem: 'notObject' });
  });
});
