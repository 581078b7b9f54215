import { definePlugin, defineService, events, logger, provide } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { bootApp } from './boot-app.js';

const greeter = defineService<{ greet(): string }>('greeter');

describe('bootApp', () => {
  it('starts plugins with their config and ids, keeps logs and captures events', async () => {
    const plugin = definePlugin({
      name: 'greeter-plugin',
      provides: [greeter],
      uses: { provide, logger, events },
      apply({ provide, logger, events }) {
        logger.use.info('hello', { id: logger.use.name });
        provide.use.service(greeter, { greet: () => 'hi' });
        events.use.emit('preferences:changed', { global: { before: 'capture' }, plugins: {} });
      },
    });
    const { app, sink, logs, capture, stop } = await bootApp({ plugins: [[plugin, undefined, { id: 'g1' }], plugin] });
    const changes = capture('preferences:changed');
    app.services.setGlobalPreference('greeter', 'g1');
    expect(app.states().map((state) => [state.id, state.state])).toEqual([
      ['g1', 'active'],
      ['greeter-plugin', 'active'],
    ]);
    expect(logs.filter((record) => record.message === 'hello').map((record) => record.fields?.id)).toEqual([
      'g1',
      'greeter-plugin',
    ]);
    expect(changes).toEqual([{ global: { greeter: 'g1' }, plugins: {} }]);
    expect(sink.records).toBe(logs);
    await stop();
    expect(app.states().every((state) => state.state === 'stopped')).toBe(true);
  });
});
