// Conformance: a change of the service preferences (the default model, written in the admin area) reaches every
// subscriber of every session as settings.changed, so 「跟随服务偏好(此刻:<模型名>)」 names the model the next turn
// uses, without a reload.
import { describe, expect, it } from 'vitest';
import { hostPerFile, Recorder, waitFor } from './harness.case.js';

const file = hostPerFile({
  providerConfig: '    models: [{ id: test-model, name: Test Model }, { id: other-model, name: Other Model }]\n',
});

describe('service preferences, live', () => {
  it('a new default model is announced to subscribers and named in the llm note at once', async () => {
    const client = await file.connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const note = async () =>
      (await client.request('settings.get', { sessionId: session.id })).settings.find(
        (setting) => setting.key === 'llm',
      )?.note;
    expect(await note()).toContain('Test Model');
    await client.request('admin.preferences.set', { service: 'llm', value: 'openai/other-model' });
    await recorder.until(() => recorder.of('settings.changed').some((event) => event.key === 'llm'));
    expect(await note()).toContain('Other Model');
    await client.request('admin.preferences.set', { service: 'llm', value: null });
    await recorder.until(() => recorder.of('settings.changed').filter((event) => event.key === 'llm').length === 2);
    await waitFor(async () => (await note())?.includes('Test Model') ?? false);
  });
});
