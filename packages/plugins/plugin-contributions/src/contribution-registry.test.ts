import { contributions } from '@aalis/api-contributions';
import { App, definePlugin, memorySink } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { ContributionRegistry } from './contribution-registry.js';
import contributionsPlugin from './index.js';

declare module '@aalis/api-contributions' {
  interface ContributionPointMap {
    'test:point': { id: string; text: string };
  }
}

describe('contributions', () => {
  it('keys contributions <plugin instance id>/<local id> and collects them in order', async () => {
    const app = new App({ logSinks: [memorySink()] });
    let registry: ContributionRegistry | undefined;
    app.plugin(contributionsPlugin);
    app.plugin(
      definePlugin({
        name: '@test/contributor',
        uses: { contributions },
        apply({ contributions }) {
          registry = contributions.provider?.impl as ContributionRegistry;
          contributions.use.contribute('test:point', { id: 'one', text: 'first' });
          contributions.use.contribute('test:point', { id: 'two', text: 'second' });
        },
      }),
      undefined,
      { id: 'mine' },
    );
    await app.start();
    expect(registry!.collect('test:point').map((c) => [c.key, c.contributor, c.spec.text])).toEqual([
      ['mine/one', 'mine', 'first'],
      ['mine/two', 'mine', 'second'],
    ]);
    await app.remove('mine');
    expect(registry!.collect('test:point')).toEqual([]);
    await app.stop();
  });

  it('replaces a contribution with the same key in place, and the old disposer leaves the replacement alone', () => {
    const registry = new ContributionRegistry();
    const owner = { instanceId: 'p', pluginName: 'p' };
    const first = registry.contribute('test:point', { id: 'x', text: 'old' }, owner);
    registry.contribute('test:point', { id: 'y', text: 'other' }, owner);
    registry.contribute('test:point', { id: 'x', text: 'new' }, owner);
    first();
    expect(registry.collect('test:point').map((c) => c.spec.text)).toEqual(['new', 'other']);
  });
});
