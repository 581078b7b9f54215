// The sentences of an add's or remove's progress and outcome, in both languages.
import type { PluginInstallView } from '@aalis/session-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { preferences } from '../page-preferences.js';
import { outcomeLine, phaseSentence, progressShare } from './plugin-install.js';

const base: PluginInstallView = {
  id: 'install-1',
  action: 'add',
  target: 'aalis-plugin-weather',
  state: 'running',
  phase: 'fetching',
  packages: 3,
  startedAt: 1,
};

beforeEach(() => {
  preferences.locale = 'en';
});

describe('plugin install sentences', () => {
  it('says npm’s phase with the packages unpacked, and how far along it is', () => {
    expect(phaseSentence(base)).toBe('Downloading and unpacking (npm): 3 packages unpacked…');
    expect(progressShare({ ...base, phase: 'resolving' })).toBeCloseTo(1 / 6);
    expect(progressShare({ ...base, phase: 'loading' })).toBeCloseTo(5 / 6);
    expect(progressShare({ ...base, phase: 'rolling-back' })).toBeUndefined();
    expect(outcomeLine(base)).toBeUndefined();
    preferences.locale = 'zh-CN';
    expect(phaseSentence(base)).toBe('正在下载并解包（npm）：已解包 3 个包…');
  });

  it('says the outcome: running now, after a restart, or why it failed', () => {
    const done = { ...base, state: 'done', phase: 'finished', name: 'aalis-plugin-weather', version: '1.2.0' } as const;
    expect(outcomeLine({ ...done, live: true })).toEqual({
      tone: 'ok',
      text: 'Added aalis-plugin-weather 1.2.0: it runs now; its settings are in the plugin list above.',
    });
    expect(outcomeLine({ ...done, live: false, restartNeeded: true })?.text).toBe(
      'Added aalis-plugin-weather 1.2.0; it takes effect after Aalis restarts.',
    );
    const error = { code: 'AALIS_PLUGIN_INSTALL_FAILED', message: 'npm install failed (E404, exit code 1): …' };
    expect(outcomeLine({ ...base, state: 'failed', phase: 'finished', unchanged: true, error })).toEqual({
      tone: 'error',
      text: 'Could not add aalis-plugin-weather.',
      error,
    });
    preferences.locale = 'zh-CN';
    expect(outcomeLine({ ...done, action: 'remove', version: undefined, live: true })?.text).toBe(
      '已移除 aalis-plugin-weather，它已停止运行。',
    );
    expect(outcomeLine({ ...base, state: 'failed', phase: 'finished', unchanged: true })?.text).toBe(
      '没能添加 aalis-plugin-weather。部署没有任何变化。',
    );
  });
});
