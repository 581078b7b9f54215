import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, memorySink, type PreferenceSnapshot } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import { afterEach, describe, expect, it } from 'vitest';
import preferencesPlugin from './index.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function boot(preferences?: Partial<PreferenceSnapshot>) {
  const app = new App({ logSinks: [memorySink()], preferences });
  app.plugin(storagePlugin, { dataDir: dir });
  app.plugin(preferencesPlugin);
  await app.start();
  return app;
}

describe('plugin-preferences', () => {
  it('keeps global and per-plugin preferences across a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'aalis-prefs-'));
    const first = await boot();
    first.services.setGlobalPreference('llm', 'hosted/gpt');
    first.services.setPluginPreference('@aalis/plugin-agent', 'llm', 'local/qwen');
    await first.stop();
    const second = await boot();
    expect(second.services.preferences()).toEqual({
      global: { llm: 'hosted/gpt' },
      plugins: { '@aalis/plugin-agent': { llm: 'local/qwen' } },
    });
    second.services.setGlobalPreference('llm', undefined);
    await second.stop();
    const third = await boot();
    expect(third.services.preferences().global).toEqual({});
    await third.stop();
  });

  it('stored choices win over the ones the host started with, and those are stored too', async () => {
    dir = mkdtempSync(join(tmpdir(), 'aalis-prefs-'));
    const first = await boot({ global: { llm: 'config/model', tools: 'a' } });
    first.services.setGlobalPreference('llm', 'chosen/model');
    await first.stop();
    const second = await boot({ global: { llm: 'config/model' } });
    expect(second.services.preferences().global).toEqual({ llm: 'chosen/model', tools: 'a' });
    await second.stop();
  });
});
