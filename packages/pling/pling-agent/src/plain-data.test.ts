import { describe, expect, it } from 'vitest';
import { isPlainObject, mapPlainData } from './plain-data.js';
import { redactValue } from './redaction.js';

describe('mapPlainData', () => {
  it('copies arrays and plain objects (null prototype included) and passes every other value through the leaf', () => {
    const date = new Date(0);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { secret: 'abc' });
    const input = { a: ['abc', 1, date], b: { c: 'abc' }, bare };
    const output = mapPlainData(input, (leaf) => (typeof leaf === 'string' ? leaf.toUpperCase() : leaf)) as {
      a: unknown[];
      b: { c: string };
      bare: { secret: string };
    };
    expect(output).toEqual({ a: ['ABC', 1, date], b: { c: 'ABC' }, bare: { secret: 'ABC' } });
    expect(output.a[2]).toBe(date);
    expect(input.b.c).toBe('abc');
    expect(Object.isFrozen(output)).toBe(false);
  });

  it('freezes every copied level when asked, and writes a cycle as [circular]', () => {
    const loop: Record<string, unknown> = { name: 'x' };
    loop.self = loop;
    const output = mapPlainData({ list: [loop] }, (leaf) => leaf, true) as { list: Record<string, unknown>[] };
    expect(Object.isFrozen(output)).toBe(true);
    expect(Object.isFrozen(output.list)).toBe(true);
    expect(Object.isFrozen(output.list[0])).toBe(true);
    expect(output.list[0]).toEqual({ name: 'x', self: '[circular]' });
  });

  it('redacts the strings of a null-prototype object in a tool result', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { card: '4111' });
    expect(redactValue({ bare }, (text) => text.replace('4111', '[redacted:card]'))).toEqual({
      bare: { card: '[redacted:card]' },
    });
  });

  it('isPlainObject: literals and Object.create(null) only', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
  });
});
