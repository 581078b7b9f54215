import { type AgentConfig, PlingError, resolveAgentConfig } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { createPlingCore } from './create-pling-core.js';
import { DockModel } from './dock-model.js';
import type { SettingsStorage } from './model-settings.js';
import { MODEL_SETTINGS_TEXTS } from './model-settings-texts.js';
import { scriptedLlm } from './test-helpers.case.js';

class MemoryStorage implements SettingsStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

/** What the runtime itself says of a config value. */
function configError(config: AgentConfig): string {
  try {
    resolveAgentConfig({ config });
  } catch (error) {
    if (PlingError.isInstance(error) && error.code === 'INVALID_CONFIG') return error.message;
  }
  throw new Error('expected INVALID_CONFIG');
}

function setup(storage = new MemoryStorage(), key = 'pling:model-settings:/orders') {
  const llm = scriptedLlm([]);
  const pling = createPlingCore({
    agent: { config: { model: 'small', temperature: 0.3, maxTokens: 1024 }, llm },
    modelSettings: { models: ['small', { id: 'large', label: 'Large model' }], storage, key },
  });
  return { pling, llm, storage, settings: pling.modelSettings };
}

describe('model settings (the framework-free model every dock renders)', () => {
  it('a changed setting is used by the next send()', async () => {
    const { pling, llm, settings } = setup();
    await pling.session().send('one');
    expect(settings.setModel('large')).toBe(true);
    expect(settings.setTemperature('1.2')).toBe(true);
    expect(settings.setMaxTokens(256)).toBe(true);
    await pling.session().send('two');
    const [first, second] = llm.requests;
    expect([first!.model, first!.temperature, first!.maxTokens]).toEqual(['small', 0.3, 1024]);
    expect([second!.model, second!.temperature, second!.maxTokens]).toEqual(['large', 1.2, 256]);
    settings.reset();
    await pling.session().send('three');
    expect(llm.requests[2]).toMatchObject({ model: 'small', temperature: 0.3, maxTokens: 1024 });
  });

  it('values are checked with the runtime config rules; a refused one is reported and not used', async () => {
    const { pling, llm, settings } = setup();
    expect(settings.setTemperature('0.5')).toBe(true);
    expect(settings.setTemperature('3')).toBe(false);
    expect(settings.setMaxTokens('1.5')).toBe(false);
    expect(settings.setModel('gpt-unknown')).toBe(false);
    const state = settings.getSnapshot();
    expect(state.temperature).toBe(0.5);
    expect(state.maxTokens).toBe(1024);
    // The runtime's own INVALID_CONFIG wording (zh-CN by default), the input kept for the field.
    expect(state.errors.temperature).toEqual({ input: '3', message: configError({ temperature: 3 }) });
    expect(state.errors.maxTokens?.message).toBe(configError({ maxTokens: 1.5 }));
    expect(state.errors.model?.message).toBe(
      MODEL_SETTINGS_TEXTS['zh-CN'].modelNotAllowed('gpt-unknown', 'small、large'),
    );
    await pling.session().send('hi');
    expect(llm.requests[0]).toMatchObject({ model: 'small', temperature: 0.5, maxTokens: 1024 });
    expect(settings.setTemperature('0.7')).toBe(true);
    expect(settings.getSnapshot().errors.temperature).toBeUndefined();
  });

  it('the allowed list starts with the configured model; labels shown', () => {
    const { settings } = setup();
    expect(settings.getSnapshot().models).toEqual([
      { id: 'small', label: 'small', configured: true },
      { id: 'large', label: 'Large model', configured: false },
    ]);
    expect(settings.getSnapshot().configured).toEqual({ model: 'small', temperature: 0.3, maxTokens: 1024 });
  });

  it('persisted per page: the next visit of the page gets the choice, another page does not', async () => {
    const storage = new MemoryStorage();
    const first = setup(storage);
    first.settings.setModel('large');
    first.settings.setTemperature(0.9);
    expect(JSON.parse(storage.getItem('pling:model-settings:/orders')!)).toEqual({
      version: 1,
      model: 'large',
      temperature: 0.9,
    });

    const again = setup(storage);
    expect(again.settings.getSnapshot()).toMatchObject({ model: 'large', temperature: 0.9, maxTokens: 1024 });
    await again.pling.session().send('hi');
    expect(again.llm.requests[0]).toMatchObject({ model: 'large', temperature: 0.9 });
    expect(setup(storage, 'pling:model-settings:/invoices').settings.getSnapshot().model).toBe('small');

    // A kept value the rules or the list no longer allow is dropped, not used.
    storage.setItem('pling:model-settings:/orders', JSON.stringify({ version: 1, model: 'gone', temperature: 9 }));
    expect(setup(storage).settings.getSnapshot()).toMatchObject({ model: 'small', temperature: 0.3, chosen: {} });
    first.settings.reset();
    expect(storage.getItem('pling:model-settings:/orders')).toBeNull();
  });

  it('a dock shows the settings when createPling offers them, or when asked to', () => {
    const { pling } = setup();
    const dock = new DockModel({ core: pling });
    expect(dock.modelSettings).toBe(pling.modelSettings);
    expect(dock.getSnapshot().modelSettings?.model).toBe('small');
    let changes = 0;
    dock.subscribe(() => changes++);
    pling.modelSettings.setModel('large');
    expect(changes).toBeGreaterThan(0);
    expect(dock.getSnapshot().modelSettings?.model).toBe('large');
    expect(new DockModel({ core: pling, modelSettings: false }).getSnapshot().modelSettings).toBeUndefined();

    const plain = createPlingCore({ agent: { config: { model: 'm' }, llm: scriptedLlm([]) } });
    expect(plain.modelSettings.offered).toBe(false);
    expect(new DockModel({ core: plain }).getSnapshot().modelSettings).toBeUndefined();
    expect(new DockModel({ core: plain, modelSettings: true }).getSnapshot().modelSettings?.models).toEqual([
      { id: 'm', label: 'm', configured: true },
    ]);
  });
});
