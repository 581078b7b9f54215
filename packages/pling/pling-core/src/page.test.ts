import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { createPage } from './page.js';
import type { PageEvent } from './page-events.js';
import { sensitive } from './sensitive.js';

const action = (id: string, extra = {}) =>
  defineAction({ id, description: `Does ${id}`, parameters: { type: 'object' }, handler: () => id, ...extra });

describe('page snapshot (系统提示每轮都会按当前页面重建)', () => {
  it('is deterministic text: state sorted by name, object keys sorted, sensitive values redacted', () => {
    const page = createPage({ title: 'Orders', locale: 'en' });
    page.state('user', () => ({ name: 'Ann', email: sensitive('ann@example.com', 'email') }));
    page.state('cart', () => ({ total: 30n, items: [{ sku: 'b', qty: 1 }] }));
    page.register(action('delete_order', { danger: true }));
    page.register(action('add_item'));
    expect(page.snapshot()).toBe(
      [
        '# Current page: Orders',
        '',
        '## State',
        '- cart: {"items":[{"qty":1,"sku":"b"}],"total":"30"}',
        '- user: {"email":"[redacted:email]","name":"Ann"}',
        '',
        '## Actions',
        '- add_item: Does add_item',
        '- delete_order (danger): Does delete_order',
      ].join('\n'),
    );
    expect(page.snapshot()).not.toContain('ann@example.com');
  });

  it('reads the getters on every call, so it shows the page as it is now', () => {
    const page = createPage();
    let count = 1;
    page.state('count', () => count);
    expect(page.snapshot()).toContain('- count: 1');
    count = 2;
    expect(page.snapshot()).toContain('- count: 2');
  });

  it('a throwing getter shows [unavailable] without its message; removers take state and actions away', () => {
    const page = createPage({ locale: 'en' });
    const removeState = page.state('broken', () => {
      throw new Error('secret detail');
    });
    const removeAction = page.register(action('a'));
    expect(page.snapshot()).toContain('- broken: [unavailable]');
    expect(page.snapshot()).not.toContain('secret detail');
    removeState();
    removeAction();
    expect(page.snapshot()).toBe('# Current page\n\n## State\n(none)\n\n## Actions\n(none)');
  });

  it('state names are validated and unique, with coded errors', () => {
    const page = createPage();
    page.state('cart', () => 1);
    expect(() => page.state('cart', () => 2)).toThrow(/DUPLICATE_STATE/);
    expect(() => page.state('', () => 2)).toThrow(/INVALID_STATE_NAME/);
    expect(() => page.state('two\nlines', () => 2)).toThrow(/INVALID_STATE_NAME/);
  });

  it('sensitiveValues() maps markers of labelled state values to their real values', () => {
    const page = createPage();
    page.state('user', () => ({ email: sensitive('ann@example.com', 'email') }));
    expect(page.sensitiveValues().get('[redacted:email]')).toBe('ann@example.com');
  });
});

describe('page events and clearAll()', () => {
  it('events go to onEvent and on() listeners with a timestamp; clearAll empties both queues', async () => {
    const seen: PageEvent[] = [];
    const page = createPage({ now: () => 42, onEvent: (event) => seen.push(event) });
    const other: string[] = [];
    const off = page.on((event) => other.push(event.type));
    const decision = page.confirmations.request({ actionId: 'a', description: 'A', danger: false, arguments: {} });
    page.handoffs.request({ reason: 'stuck' });
    off();
    page.clearAll();
    await expect(decision).resolves.toMatchObject({ approved: false, by: 'cleared' });
    expect(page.confirmations.getSnapshot()).toEqual([]);
    expect(page.handoffs.getSnapshot()).toEqual([]);
    expect(seen.map((event) => [event.type, event.at])).toEqual([
      ['confirmation:requested', 42],
      ['handoff:requested', 42],
      ['confirmation:rejected', 42],
      ['handoff:resolved', 42],
    ]);
    expect(other).toEqual(['confirmation:requested', 'handoff:requested']);
  });
});
