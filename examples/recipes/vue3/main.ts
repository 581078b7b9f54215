/// <reference types="vite/client" />
// The Vue 3 recipe's entry: one `createPling` for the app (the model name from VITE_AGENT_MODEL through `env`, the
// relative baseUrl '/v1' that the dev server proxies to AGENT_UPSTREAM), the spec's HookRegistry, the order page and
// `<AgentDock :debug="{ maxCalls: 8 }">`, which shows the last eight requests actually sent in its recent operations.
import { HookRegistry } from '@plingjs/agent';
import { AgentDock, createPling } from '@plingjs/vue';
import { createApp, defineComponent, h } from 'vue';
import { OrderPage } from './order-page.js';

const hooks = new HookRegistry();
const pling = createPling({
  agent: { env: import.meta.env, config: { baseUrl: '/v1' }, hooks },
  page: { title: '订单助手' },
});

const App = defineComponent({
  name: 'OrderAssistantApp',
  setup() {
    return () => h('main', [h(OrderPage, { hooks }), h(AgentDock, { title: '订单助手', debug: { maxCalls: 8 } })]);
  },
});

// index.html provides #app; a page built around this module alone (the recipe's browser test) gets one here.
const container = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
createApp(App).use(pling).mount(container);
