// The console's key test for an Anthropic section: the section as it would be saved, its configured models offered;
// a section that cannot work is refused at once with the field to fix.
import { AalisError, LogHub, memorySink, translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { openProbeProvider } from './probe-provider.js';

const logger = new LogHub([memorySink()]).logger('probe');
const i18n = { locale: 'en' as const, t: (text: Parameters<typeof translate>[0]) => translate(text, 'en') };

describe('openProbeProvider (anthropic)', () => {
  it('offers the configured models', async () => {
    const probe = openProbeProvider({
      section: { apiKey: 'sk-ant-probe', models: [{ id: 'claude-a', contextWindow: 200_000 }] },
      logger,
      i18n,
    });
    try {
      expect(await probe.listModels()).toEqual(['claude-a']);
    } finally {
      probe.close();
    }
  });

  it('refuses a section that cannot work, naming the field', () => {
    let thrown: unknown;
    try {
      openProbeProvider({ section: { apiKey: 'sk-ant-probe', models: 'claude-a' }, logger, i18n });
    } catch (error) {
      thrown = error;
    }
    expect(AalisError.isInstance(thrown) && thrown.code).toBe('AALIS_CONFIG_INVALID');
    expect((thrown as AalisError).details).toMatchObject({ plugin: 'anthropic', field: 'models' });
  });
});
