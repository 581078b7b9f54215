// The Vue 2.7 glue without a browser: the plugin and the setup() helpers' lifetimes (Vue 2.7's own runtime).

import { describe, expect, it } from 'vitest';
import Vue, { effectScope } from 'vue';
import { createPling } from './create-pling.js';
import { useAction, usePageState } from './use-action.js';

const action = (id: string) => ({
  id,
  description: `Does ${id}`,
  parameters: { type: 'object' },
  handler: () => undefined,
});

describe('@plingjs/vue2', () => {
  it('Vue.use(pling.plugin) makes the pling itself this.$pling in every component', () => {
    const pling = createPling({
      agent: { config: { limits: { maxTurns: 100, contextTokens: 16_384, keepRecent: 8 } } },
    });
    const Local = Vue.extend(); // a subclass, so the global Vue prototype stays untouched between tests
    Local.use(pling.plugin);
    const Component = Local.extend({ render: (h) => h('i') });
    expect(new Local().$pling).toBe(pling);
    expect(new Component().$pling).toBe(pling);
    expect(typeof pling.dock).toBe('function');
    expect(pling.locale).toBe('zh-CN');
  });

  it('useAction and usePageState last as long as the effect scope (the component) that called them', () => {
    const pling = createPling();
    const scope = effectScope();
    scope.run(() => {
      useAction(pling, action('add_todo'));
      usePageState(pling, 'todos', () => ['milk']);
    });
    expect(pling.page.actions.list().map((item) => item.id)).toEqual(['add_todo']);
    expect(pling.page.snapshot()).toContain('milk');
    scope.stop();
    expect(pling.page.actions.list()).toEqual([]);
    expect(pling.page.snapshot()).not.toContain('milk');
  });

  it('outside a component they return the remover and leave the removal to the caller', () => {
    const pling = createPling();
    const remove = useAction(pling, action('add_todo'));
    const removeState = usePageState(pling, 'todos', () => ['milk']);
    expect(pling.page.actions.list()).toHaveLength(1);
    remove();
    removeState();
    expect(pling.page.actions.list()).toEqual([]);
    expect(pling.page.snapshot()).not.toContain('milk');
  });
});
