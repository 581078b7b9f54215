import { describe, expect, it } from 'vitest';
import { describeReceived, s } from './schema.js';

const section = s.object({
  name: s.string().nonEmpty(),
  port: s.number().integer().min(0).max(65535),
  mode: s.enum(['a', 'b']),
  tags: s.array(s.string()),
  flags: s.record(s.boolean()),
});

describe('schema issues in a locale', () => {
  it('are worded in English by default and in zh-CN when validate is asked to', () => {
    const value = { name: '', port: 'x', mode: 3, tags: {}, flags: { on: 1 }, extra: null };
    expect(section.validate(value).issues).toEqual([
      { path: 'name', expected: 'a non-empty string', received: 'the string ""' },
      { path: 'port', expected: 'an integer ≥ 0 ≤ 65535', received: 'the string "x"' },
      { path: 'mode', expected: 'one of "a", "b"', received: 'number 3' },
      { path: 'tags', expected: 'an array of a string', received: 'an object ({})' },
      { path: 'flags.on', expected: 'true or false', received: 'number 1' },
      { path: 'extra', expected: 'no such field (unknown key)', received: 'null' },
    ]);
    expect(section.validate(value, 'zh-CN').issues).toEqual([
      { path: 'name', expected: '非空字符串', received: '字符串 ""' },
      { path: 'port', expected: '整数 ≥ 0 ≤ 65535', received: '字符串 "x"' },
      { path: 'mode', expected: '"a", "b" 之一', received: '数 3' },
      { path: 'tags', expected: '由「字符串」组成的数组', received: '对象 {}' },
      { path: 'flags.on', expected: 'true 或 false', received: '数 1' },
      { path: 'extra', expected: '没有这个键（未知的键）', received: 'null' },
    ]);
    // The locale is the validate call's only: the next call words in English again.
    expect(section.validate({ ...value, extra: undefined }).issues[0]!.expected).toBe('a non-empty string');
  });

  it('describes a received value in a locale', () => {
    expect(describeReceived(undefined, 'zh-CN')).toBe('没有值');
    expect(describeReceived(true, 'zh-CN')).toBe('布尔值 true');
    expect(describeReceived([1, 2], 'zh-CN')).toBe('数组 [1,2]');
    expect(describeReceived(true)).toBe('boolean true');
  });
});
