import { describe, expect, it } from 'vitest';
import { requireSettings } from './require-settings.js';
import { type LoggedLine, recordingLogger, reportedStates, testErrors } from './state-test-helpers.case.js';

describe('requireSettings', () => {
  it('passes when every required setting is set, and changes nothing', () => {
    const { state, seen } = reportedStates();
    const lines: LoggedLine[] = [];
    expect(requireSettings(state, recordingLogger(lines), 'Test', { appId: 'a', secret: 's' })).toBe(true);
    expect(seen).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('reports the first missing one as stopped at its config key, with the coded error where there is one', () => {
    const { state } = reportedStates('https://api.test/');
    const lines: LoggedLine[] = [];
    expect(requireSettings(state, recordingLogger(lines), 'Test', { appId: 'a', secret: '', token: '' })).toBe(false);
    expect(state.current()).toMatchObject({
      status: 'stopped',
      configKey: 'plugins.platform-test.secret',
      endpoint: 'https://api.test/',
    });
    expect(state.current().error).toBeUndefined();
    expect(lines).toEqual([
      { level: 'warn', message: 'Test: plugins.platform-test.secret is not set; not connecting', fields: {} },
    ]);

    const coded = reportedStates();
    const missing = (key: string) => (key === 'token' ? testErrors.AALIS_TEST_REFUSED() : testErrors.AALIS_TEST_DOWN());
    expect(requireSettings(coded.state, recordingLogger([]), 'Test', { token: '' }, missing)).toBe(false);
    expect(coded.state.current()).toMatchObject({
      status: 'stopped',
      configKey: 'plugins.platform-test.token',
      error: { code: 'AALIS_TEST_REFUSED' },
    });
  });
});
