// Conformance: settings (value, source, notes, options; writes used by the next turn), models and personas, clear,
// deleting a running session, and the owner's admin data (plugin states, preferences, live logs).
import { type StreamStep, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { hostPerFile, Recorder, waitFor } from './harness.case.js';

const { host, connected } = hostPerFile();

describe('settings, models and personas', () => {
  it('shows each field with its source and note, and a written model is used by the next turn', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const { settings } = await client.request('settings.get', { sessionId: session.id });
    const llmField = settings.find((setting) => setting.key === 'llm')!;
    expect(llmField).toMatchObject({ type: 'llm-ref', visibility: 'composer', source: 'unset', writable: true });
    expect(llmField.note).toMatch(/test-model/);
    const think = settings.find((setting) => setting.key === 'think')!;
    expect(think).toMatchObject({ visibility: 'common', dynamicOptions: { dependsOn: ['llm'] } });
    expect(settings.find((setting) => setting.key === 'maxToolIterations')).toMatchObject({
      visibility: 'advanced',
      level: 'owner',
    });
    const { models, defaultModel } = await client.request('models.list', {});
    expect(models.map((model) => model.id)).toContain('openai/test-model');
    expect(defaultModel).toBe('openai/test-model');
    const options = await client.request('settings.options', {
      sessionId: session.id,
      key: 'think',
      values: { llm: 'openai/test-model' },
    });
    expect(Array.isArray(options.options)).toBe(true);
    expect((await client.request('personas.list', { sessionId: session.id })).personas.length).toBeGreaterThan(0);

    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const { setting } = await client.request('settings.set', {
      sessionId: session.id,
      key: 'llm',
      value: 'openai/test-model',
    });
    expect(setting).toMatchObject({ value: 'openai/test-model', source: 'session' });
    await recorder.until(() => recorder.of('settings.changed').some((event) => event.key === 'llm'));
    await client.request('settings.set', { sessionId: session.id, key: 'maxToolIterations', value: 3 });
    host.model.enqueue(textReply('ok'));
    await client.send({ sessionId: session.id, text: 'hello' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    expect(host.model.chatBodies().at(-1)!.model).toBe('test-model');
    const reset = await client.request('settings.reset', { sessionId: session.id, key: 'llm' });
    expect(reset.setting.source).toBe('unset');
    expect(
      await client
        .request('settings.set', { sessionId: session.id, key: 'llm', value: 'nobody/none' })
        .catch((error) => error.code),
    ).toBe('AALIS_WEBUI_BAD_REQUEST');
  });
});

describe('clear and delete', () => {
  it('clear empties the history and sends a fresh timeline', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(textReply('remember me'));
    await client.send({ sessionId: session.id, text: 'hi' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const { reply } = await client.request('clear', { sessionId: session.id });
    expect(reply).not.toBe('');
    await recorder.until(() => recorder.timelines.length === 2 && recorder.latest!.entries.length === 0);
  });

  it('compact summarises the history: a divider in a fresh timeline, then a usage snapshot', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    for (const [index, text] of ['first answer', 'second answer'].entries()) {
      host.model.enqueue(textReply(text));
      await client.send({ sessionId: session.id, text: `question for ${text}` });
      await recorder.until(() => recorder.of('turn.ended').length === index + 1);
    }
    const snapshotsBefore = recorder.of('usage').filter((entry) => entry.usage.turnId === undefined).length;
    host.model.enqueue(textReply('The two questions were answered.'));
    const { reply } = await client.request('compact', { sessionId: session.id });
    expect(reply).not.toBe('');
    await recorder.until(() => recorder.latest!.entries.some((entry) => entry.kind === 'divider'));
    await recorder.until(
      () => recorder.of('usage').filter((entry) => entry.usage.turnId === undefined).length > snapshotsBefore,
    );
  });

  it('deletes a running session: the turn stops, subscribers are told, the list forgets it', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const removed: string[] = [];
    client.on('sessions', (change) => {
      if (change.change === 'removed') removed.push(change.sessionId);
    });
    const steps: StreamStep[] = [{ role: 'assistant' }];
    for (let index = 0; index < 50; index++) steps.push({ text: 'word ' }, { delayMs: 40 });
    steps.push({ finish: 'stop' }, { done: true });
    host.model.enqueue({ type: 'stream', steps });
    await client.send({ sessionId: session.id, text: 'go on forever' });
    await recorder.until(() => recorder.of('text.delta').length >= 2);
    const { deleted } = await client.request('delete', { sessionId: session.id });
    expect(deleted).toEqual([session.id]);
    await recorder.until(() => recorder.of('session.deleted').length === 1);
    // The turn stopped (as the agent does on session:deleted) before the subscribers heard of the deletion.
    expect(recorder.of('turn.ended')).toMatchObject([{ outcome: 'aborted' }]);
    const types = recorder.types();
    expect(types.indexOf('turn.ended')).toBeLessThan(types.indexOf('session.deleted'));
    await waitFor(() => removed.includes(session.id));
    const listed = (await client.request('sessions.list', {})).sessions.map((entry) => entry.id);
    expect(listed).not.toContain(session.id);
    expect(await client.request('subscribe', { sessionId: session.id }).catch((error) => error.code)).toBe(
      'AALIS_WEBUI_SESSION_UNKNOWN',
    );
  });
});

describe('delivery failures', () => {
  it('a reply a platform could not deliver is pushed live and marked in the history', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(textReply('lost on the way'));
    await client.send({ sessionId: session.id, text: 'hi' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const turnId = recorder.of('turn.ended')[0]!.turnId;
    await host.aalis.app.events.emitAsync('outbound:failed', {
      message: { sessionId: session.id, content: 'lost on the way', kind: 'reply', turnId, platform: 'webui' },
      platform: 'webui',
      code: 'TEST_UNREACHABLE',
      reason: 'the test platform is unreachable',
    });
    await recorder.until(() => recorder.of('delivery.failed').length === 1);
    // The note in both languages for the page (「Locale」); `text` stays the platform's reason.
    const texts = {
      'zh-CN': '[投递失败] 上面那条回复没有送到 webui：the test platform is unreachable',
      en: '[Delivery failed] The reply above did not reach webui: the test platform is unreachable',
    };
    expect(recorder.of('delivery.failed')[0]).toMatchObject({
      turnId,
      text: 'the test platform is unreachable',
      texts,
    });
    const later = await connected();
    const timeline = new Recorder();
    await later.subscribe(session.id, timeline.handlers).ready;
    const turn = timeline.latest!.entries.find((entry) => entry.kind === 'turn');
    expect(turn?.kind === 'turn' && turn.items).toMatchObject([
      { kind: 'text', text: 'lost on the way', final: true, unsent: true },
      { kind: 'notice', tone: 'delivery-failure', texts },
    ]);
    // An export is in the connection's locale, the note too.
    for (const locale of ['en', 'zh-CN'] as const) {
      await later.setLocale(locale);
      const { content } = await later.request('sessions.export', { sessionId: session.id, format: 'markdown' });
      expect(content).toContain(`_${texts[locale]}_`);
    }
  });
});

describe('IM rooms', () => {
  it('lists a room with canSend false and refuses to send into it, while stop still answers', async () => {
    const { sessionManager } = await import('@aalis/api-session-manager');
    await host.aalis.app.services.selected(sessionManager)!.impl.ensure({
      id: 'onebot:group:777',
      kind: 'room',
      platform: 'onebot',
      venue: '777',
      originChat: { multiParty: true },
      title: 'Book club',
    });
    const client = await connected();
    const { sessions } = await client.request('sessions.list', {});
    expect(sessions.find((session) => session.id === 'onebot:group:777')).toMatchObject({
      writable: true,
      canSend: false,
    });
    expect(sessions.find((session) => session.kind !== 'room')?.canSend ?? true).toBe(true);
    await expect(client.send({ sessionId: 'onebot:group:777', text: 'hello group' })).rejects.toMatchObject({
      code: 'AALIS_WEBUI_ROOM_READ_ONLY',
    });
    expect(await client.request('stop', { sessionId: 'onebot:group:777' })).toEqual({ stopped: false });
    expect(host.model.chatBodies()).toHaveLength(0);
  });

  it('writes a room’s settings on its venue or platform layer, and says where each value comes from', async () => {
    const { sessionManager } = await import('@aalis/api-session-manager');
    const manager = host.aalis.app.services.selected(sessionManager)!.impl;
    for (const id of ['888', '889']) {
      await manager.ensure({
        id: `onebot:group:${id}`,
        kind: 'room',
        platform: 'onebot',
        venue: id,
        originChat: { multiParty: true },
      });
    }
    const client = await connected();
    const venue = await client.request('settings.set', {
      sessionId: 'onebot:group:888',
      key: 'historyLimit',
      value: 40,
      layer: 'venue',
    });
    expect(venue.setting).toMatchObject({ value: 40, source: 'venue' });
    const platform = await client.request('settings.set', {
      sessionId: 'onebot:group:888',
      key: 'maxToolIterations',
      value: 3,
      layer: 'platform',
    });
    expect(platform.setting).toMatchObject({ value: 3, source: 'platform' });
    // The other group shares the platform layer but not the venue layer.
    const other = (await client.request('settings.get', { sessionId: 'onebot:group:889' })).settings;
    expect(other.find((setting) => setting.key === 'maxToolIterations')).toMatchObject({
      value: 3,
      source: 'platform',
    });
    expect(other.find((setting) => setting.key === 'historyLimit')?.source).not.toBe('venue');
    await expect(
      client.request('settings.set', {
        sessionId: 'onebot:group:888',
        key: 'historyLimit',
        value: 1,
        layer: 'galaxy' as never,
      }),
    ).rejects.toMatchObject({ code: 'AALIS_WEBUI_BAD_REQUEST' });
    const reset = await client.request('settings.reset', {
      sessionId: 'onebot:group:888',
      key: 'historyLimit',
      layer: 'venue',
    });
    expect(reset.setting.source).not.toBe('venue');
  });
});

describe('admin', () => {
  it('gives the owner plugin states, preferences (written and kept) and live logs', async () => {
    const client = await connected();
    const { plugins } = await client.request('admin.plugins', {});
    expect(plugins.find((plugin) => plugin.id === '@aalis/plugin-session-server')).toMatchObject({ state: 'active' });
    const before = await client.request('admin.preferences.get', {});
    expect(before.preferences.defaultModel?.id).toBe('openai/test-model');
    const pushed: string[] = [];
    client.on('admin', (frame) => pushed.push(frame.change));
    const after = await client.request('admin.preferences.set', { service: 'llm', value: 'openai/test-model' });
    expect(after.preferences.global.llm).toBe('openai/test-model');
    await waitFor(() => pushed.includes('preferences'));

    const logs: string[] = [];
    client.on('log', (record) => logs.push(record.message));
    const { recent } = await client.request('logs.subscribe', { level: 'info' });
    expect(recent.length).toBeGreaterThan(0);
    const { session } = await client.request('session.create', {});
    host.model.enqueue(textReply('logged'));
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await client.send({ sessionId: session.id, text: 'make a log line' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    await waitFor(() => logs.some((line) => line.includes('回合结束') || line.includes('turn')));
    await client.request('logs.unsubscribe', {});
  });
});
