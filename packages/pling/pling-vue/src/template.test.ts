// The spec writes the dock in template syntax (`<AgentDock :debug="{ maxCalls: 8 }">`); this compiles that very
// template with Vue's runtime compiler (the full build Node resolves `vue` to) and checks what it renders.
import { describe, expect, it } from 'vitest';
import { compile, defineComponent } from 'vue';
import { AgentDock } from './agent-dock.js';
import { createPling } from './create-pling.js';
import { scriptedLlm } from './scripted-llm.case.js';
import { find, mount } from './test-renderer.case.js';

describe('AgentDock in a template', () => {
  it('<AgentDock :debug="{ maxCalls: 8 }"> turns the runtime’s trace on and shows it in recent operations', () => {
    const pling = createPling({ agent: { config: { model: 'm' }, llm: scriptedLlm([]) } });
    const App = defineComponent({
      components: { AgentDock },
      render: compile('<AgentDock :debug="{ maxCalls: 8 }" title="订单助手" />'),
    });
    const { root } = mount(App, {}, (app) => app.use(pling));
    expect(pling.runtime().config.trace).toEqual({ maxCalls: 8 });
    expect(find(root, 'dock')!.attributes['aria-label']).toBe('订单助手');
    expect(find(find(root, 'operations')!, 'trace')).toBeDefined();
  });
});
