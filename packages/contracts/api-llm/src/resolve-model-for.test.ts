import { App, definePlugin, memorySink, provide } from '@aalis/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeModel, fakeService } from './fake-provider.case.js';
import { llm } from './llm-service.js';
import { resolveModelFor } from './resolve-model-for.js';

const providerOf = (id: string, models: string[], priority = 0) =>
  definePlugin({
    name: 'fake-llm',
    provides: [llm],
    uses: { provide },
    apply({ provide }) {
      provide.use.service(llm, fakeService(models.map((model) => fakeModel(id, model))), { priority });
    },
  });

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
});

describe('resolveModelFor', () => {
  it('reads the plugin’s own and the global preference from the services handle', async () => {
    app = new App({ logSinks: [memorySink()] });
    app.plugin(providerOf('a', ['one'], 5), undefined, { id: 'a' });
    app.plugin(providerOf('b', ['two']), undefined, { id: 'b' });
    app.plugin(providerOf('c', [], 50), undefined, { id: 'c' });
    await app.start();
    await app.settled();
    expect(resolveModelFor({ services: app.services })?.model.id).toBe('a/one');
    app.services.setGlobalPreference('llm', 'b/two');
    expect(resolveModelFor({ services: app.services })?.model.id).toBe('b/two');
    app.services.setPluginPreference('agent', 'llm', 'a/one');
    expect(resolveModelFor({ services: app.services, consumer: 'agent' })?.model.id).toBe('a/one');
    app.services.setPluginPreference('agent', 'llm', 'a/missing');
    expect(resolveModelFor({ services: app.services, consumer: 'agent' })).toMatchObject({
      model: { id: 'b/two' },
      fallback: { preference: 'a/missing', scope: 'plugin', actual: 'b/two' },
    });
    expect(
      resolveModelFor({ services: app.services, consumer: 'agent', requested: 'a/one' })?.fallback,
    ).toBeUndefined();
  });
});
