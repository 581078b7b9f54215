import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { ActionRegistry } from './action-registry.js';

const action = (id: string, extra = {}) =>
  defineAction({ id, description: `does ${id}`, parameters: { type: 'object' }, handler: () => id, ...extra });

describe('ActionRegistry', () => {
  it('register returns a remover; the snapshot lists declared actions sorted, without handlers', () => {
    const registry = new ActionRegistry();
    let notified = 0;
    registry.subscribe(() => notified++);
    const removeB = registry.register(action('b', { danger: true }));
    registry.register(action('a', { confirm: () => true }));
    registry.register(action('c', { confirm: 'always' }));
    expect(registry.getSnapshot()).toEqual([
      { id: 'a', description: 'does a', parameters: { type: 'object' }, danger: false, confirm: 'custom' },
      { id: 'b', description: 'does b', parameters: { type: 'object' }, danger: true, confirm: 'default' },
      { id: 'c', description: 'does c', parameters: { type: 'object' }, danger: false, confirm: 'always' },
    ]);
    expect(registry.getSnapshot()).toBe(registry.getSnapshot());
    removeB();
    removeB();
    expect(registry.getSnapshot().map((info) => info.id)).toEqual(['a', 'c']);
    expect(notified).toBe(4);
  });

  it('a duplicate id is refused with DUPLICATE_ACTION; an old remover does not remove a newer declaration', () => {
    const registry = new ActionRegistry('en');
    const remove = registry.register(action('a'));
    expect(() => registry.register(action('a'))).toThrow(/DUPLICATE_ACTION.*remover/);
    const zh = new ActionRegistry();
    zh.register(action('a'));
    expect(() => zh.register(action('a'))).toThrow(/DUPLICATE_ACTION: 动作 a 已声明/);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    registry.register(action('a'));
    remove();
    expect(registry.get('a')).toBeDefined();
  });

  it('register validates what it is given (not only defineAction results)', () => {
    const registry = new ActionRegistry();
    expect(() =>
      registry.register({ id: 'bad id', description: 'x', parameters: { type: 'object' }, handler: () => 1 }),
    ).toThrow(/INVALID_ACTION_ID/);
  });
});
