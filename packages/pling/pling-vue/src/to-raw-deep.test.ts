import { sensitive } from '@plingjs/core';
import { describe, expect, it } from 'vitest';
import { isProxy, reactive, ref } from 'vue';
import { toRawDeep } from './to-raw-deep.js';

describe('toRawDeep', () => {
  it('replaces every reactive proxy, however deep, by its raw value; primitives pass through', () => {
    const state = reactive({ todos: [{ title: 'milk', done: false }], owner: { name: 'Ann' } });
    const copy = toRawDeep({ todos: state.todos, owner: state.owner, count: ref(2).value });
    expect(copy).toEqual({ todos: [{ title: 'milk', done: false }], owner: { name: 'Ann' }, count: 2 });
    expect(isProxy(copy.todos)).toBe(false);
    expect(isProxy(copy.todos[0])).toBe(false);
    expect(isProxy(copy.owner)).toBe(false);
    expect(toRawDeep('text')).toBe('text');
    expect(toRawDeep(null)).toBe(null);
  });

  it('keeps class instances such as sensitive() values raw, so they can still be revealed', () => {
    const state = reactive({ email: sensitive('ann@example.com', 'email'), at: new Date(0) });
    expect(() => state.email.reveal()).toThrow(TypeError); // why the adapter unwraps: private fields and proxies
    const copy = toRawDeep({ email: state.email, at: state.at });
    expect(copy.email.reveal()).toBe('ann@example.com');
    expect(copy.at).toBeInstanceOf(Date);
  });

  it('keeps cycles as cycles instead of recursing forever', () => {
    const node: { name: string; self?: unknown } = reactive({ name: 'loop' });
    node.self = node;
    const copy = toRawDeep(node) as { name: string; self: unknown };
    expect(copy.self).toBe(copy);
  });
});
