// The 典型用法 example of api-agent.zh.md, unchanged, running against a test-local agent provider.
import { agent } from '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import { App, definePlugin, memorySink, optional, provide, type RegistrationOwner } from '@aalis/core';
import hooksPlugin, { HookRegistry } from '@aalis/plugin-hooks';
import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import type { BoundAgent, PreprocessorFn } from './agent-service.js';

// ---- the specification's example, verbatim ----
const example = definePlugin({
  name: '@acme/plugin-example-agent',
  uses: { agent: optional(agent), hooks },
  apply({ agent, hooks }) {
    agent.use.registerPreprocessor('suffix', async (message, next) => {
      message.content += ' [logged]';
      await next();
    });
    hooks.use.middleware('agent:turn:after', async (_data, next) => {
      await next();
    });
  },
});
// ---- end of example ----

/** A test-local agent: runs registered preprocessors in order (same-name from the same owner replaces). */
function fakeAgent(label: string) {
  const preprocessors = new Map<string, PreprocessorFn>();
  const service: BoundAgent = {
    async handleMessage() {},
    abort: () => false,
    async clearing(_ids, clear) {
      await clear();
    },
    async assignModel() {},
    registerPreprocessor(name: string, handler: PreprocessorFn, owner?: RegistrationOwner) {
      const key = `${owner?.instanceId ?? ''}/${name}`;
      preprocessors.set(key, handler);
      return () => {
        if (preprocessors.get(key) === handler) preprocessors.delete(key);
      };
    },
  };
  const run = async (message: IncomingMessage) => {
    const chain = [...preprocessors.values()];
    const step = async (index: number): Promise<void> => {
      const handler = chain[index];
      if (handler) await handler(message, () => step(index + 1));
    };
    await step(0);
    return message;
  };
  const plugin = definePlugin({
    name: `@test/agent-${label}`,
    provides: [agent],
    uses: { provide },
    apply({ provide }) {
      provide.use.service(agent, service);
    },
  });
  return { plugin, preprocessors, run };
}

const input = (): IncomingMessage => ({ sessionId: 's', platform: 'cli', sender: { userId: 'u' }, content: 'hi' });

describe('api-agent 典型用法', () => {
  it('registers the preprocessor and the turn:after middleware, owned by the example plugin', async () => {
    const app = new App({ logSinks: [memorySink()] });
    const first = fakeAgent('a');
    app.plugin(hooksPlugin);
    app.plugin(first.plugin);
    app.plugin(example);
    await app.start();
    expect(app.stateOf('@acme/plugin-example-agent').state).toBe('active');
    expect([...first.preprocessors.keys()]).toEqual(['@acme/plugin-example-agent/suffix']);
    expect((await first.run(input())).content).toBe('hi [logged]');
    const registry = app.services.selected(hooks)?.impl as HookRegistry;
    expect(registry).toBeInstanceOf(HookRegistry);
    expect(registry.count('agent:turn:after')).toBe(1);
    await app.remove('@acme/plugin-example-agent');
    expect(first.preprocessors.size).toBe(0);
    expect(registry.count('agent:turn:after')).toBe(0);
    await app.stop();
  });

  it('activates without an agent, and attaches the preprocessor once an agent appears or the provider switches', async () => {
    const app = new App({ logSinks: [memorySink()] });
    app.plugin(hooksPlugin);
    app.plugin(example);
    await app.start();
    expect(app.stateOf('@acme/plugin-example-agent').state).toBe('active');
    const first = fakeAgent('a');
    app.plugin(first.plugin);
    await app.settled();
    expect(first.preprocessors.size).toBe(1);
    const second = fakeAgent('b');
    app.plugin(second.plugin);
    app.services.setGlobalPreference('agent', '@test/agent-b');
    await app.settled();
    expect(first.preprocessors.size).toBe(0);
    expect((await second.run(input())).content).toBe('hi [logged]');
    await app.stop();
  });
});
