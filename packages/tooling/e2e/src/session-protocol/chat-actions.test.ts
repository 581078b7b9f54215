// Conformance: edit, regenerate and retry roll back by turn id (superseded versions kept, never sent to the model,
// shown as previousVersions, seen live by other tabs; refused while a turn runs and past a compression divider),
// and slash commands sent in the page (routed 'command', the answer kept as records that survive a reload).
import { SessionClient, type WebSocketLike } from '@aalis/session-client';
import { errorReply, type StreamStep, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { hostPerFile, Recorder } from './harness.case.js';

const files = hostPerFile();
const { host, connected, track } = files;

/** The text of every message of the model's last request. */
function lastRequestTexts(): string[] {
  const body = host.model.chatBodies().at(-1)!;
  return (body.messages as { content: unknown }[]).map((message) => JSON.stringify(message.content));
}

async function turnWith(
  client: Awaited<ReturnType<typeof connected>>,
  sessionId: string,
  recorder: Recorder,
  text: string,
  reply: string,
) {
  const before = recorder.of('turn.ended').length;
  host.model.enqueue(textReply(reply));
  await client.send({ sessionId, text });
  await recorder.until(() => recorder.of('turn.ended').length === before + 1);
  return recorder.of('turn.ended').at(-1)!.turnId;
}

describe('rolling back by turn id', () => {
  it('regenerate: the old reply leaves what the model sees, stays as a version, and another tab sees it live', async () => {
    const client = await connected();
    const other = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    const otherTab = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await other.subscribe(session.id, otherTab.handlers).ready;
    const turnId = await turnWith(client, session.id, recorder, 'tell me a colour', 'first answer: red');

    host.model.enqueue(textReply('second answer: blue'));
    const result = await client.request('turn.regenerate', { sessionId: session.id, turnId });
    expect(result.rolledBack).toEqual([turnId]);
    await recorder.until(() => recorder.of('turn.ended').length === 2);
    // The model got the same input once, and nothing of the superseded reply.
    const texts = lastRequestTexts();
    expect(texts.filter((text) => text.includes('tell me a colour'))).toHaveLength(1);
    expect(texts.some((text) => text.includes('first answer'))).toBe(false);

    // Both tabs get a timeline with the new turn carrying the old one as its previous version.
    for (const tab of [recorder, otherTab]) {
      await tab.until(() => {
        const turns = tab.latest!.entries.filter((entry) => entry.kind === 'turn');
        return turns.length === 1 && turns[0]!.kind === 'turn' && turns[0]!.previousVersions?.length === 1;
      });
    }
    const fresh = new Recorder();
    const reader = await connected();
    await reader.subscribe(session.id, fresh.handlers).ready;
    const [turn] = fresh.latest!.entries;
    expect(turn).toMatchObject({ kind: 'turn', outcome: 'replied' });
    if (turn?.kind !== 'turn') throw new Error('not a turn');
    expect(turn.items.find((item) => item.kind === 'text')).toMatchObject({ text: 'second answer: blue' });
    expect(turn.inputs[0]?.text).toBe('tell me a colour');
    const [version] = turn.previousVersions!;
    expect(version).toHaveLength(1);
    expect(version![0]).toMatchObject({
      turnId,
      superseded: { rollbackId: result.rollbackId, action: 'regenerate' },
      outcome: 'replied',
    });
    expect(version![0]!.items.find((item) => item.kind === 'text')).toMatchObject({ text: 'first answer: red' });

    // The next turn's request holds one question and one answer of the history, not the superseded pair.
    await turnWith(client, session.id, recorder, 'and another', 'green');
    const later = lastRequestTexts();
    expect(later.some((text) => text.includes('first answer'))).toBe(false);
    expect(later.filter((text) => text.includes('second answer: blue'))).toHaveLength(1);
  });

  it('edit: the edited turn and every later one are replaced by the edited text, as one version', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const first = await turnWith(client, session.id, recorder, 'my name is Ann', 'hello Ann');
    const second = await turnWith(client, session.id, recorder, 'what is my name?', 'Ann');

    host.model.enqueue(textReply('hello Bea'));
    const result = await client.request('turn.edit', { sessionId: session.id, turnId: first, text: 'my name is Bea' });
    expect(result.rolledBack).toEqual([first, second]);
    await recorder.until(() => recorder.of('turn.ended').length === 3);
    const texts = lastRequestTexts();
    expect(texts.some((text) => text.includes('my name is Bea'))).toBe(true);
    expect(texts.some((text) => text.includes('Ann'))).toBe(false);
    await recorder.until(() => {
      const turns = recorder.latest!.entries.filter((entry) => entry.kind === 'turn');
      return turns.length === 1 && turns[0]?.kind === 'turn' && turns[0].previousVersions?.[0]?.length === 2;
    });
    // A reload (a fresh subscription) after the new turn ended: its input is stored by now.
    const reloaded = new Recorder();
    await (await connected()).subscribe(session.id, reloaded.handlers).ready;
    const [turn] = reloaded.latest!.entries;
    if (turn?.kind !== 'turn') throw new Error('not a turn');
    expect(turn.inputs[0]?.text).toBe('my name is Bea');
    expect(turn.previousVersions![0]!.map((old) => old.turnId)).toEqual([first, second]);
    expect(turn.previousVersions![0]![0]!.superseded?.action).toBe('edit');
  });

  it('retry reruns a failed turn; a turn that replied is refused with a coded sentence', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(errorReply(400, 'the model refused this request'));
    await client.send({ sessionId: session.id, text: 'try this' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const failed = recorder.of('turn.ended')[0]!;
    expect(failed.outcome).toBe('error');

    host.model.enqueue(textReply('worked this time'));
    await client.request('turn.retry', { sessionId: session.id, turnId: failed.turnId });
    await recorder.until(() => recorder.of('turn.ended').length === 2);
    const retried = recorder.of('turn.ended')[1]!;
    expect(retried.outcome).toBe('replied');
    expect(lastRequestTexts().filter((text) => text.includes('try this'))).toHaveLength(1);

    const refusal = await client
      .request('turn.retry', { sessionId: session.id, turnId: retried.turnId })
      .catch((error) => error);
    expect(refusal.code).toBe('AALIS_WEBUI_TURN_NOT_FAILED');
    expect(refusal.message).toMatch(/Regenerate/);
    const unknown = await client
      .request('turn.regenerate', { sessionId: session.id, turnId: failed.turnId })
      .catch((error) => error.code);
    expect(unknown).toBe('AALIS_WEBUI_TURN_UNKNOWN');
  });

  it('is refused while a turn runs and for a turn before the compression divider; nothing changes', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const old = await turnWith(client, session.id, recorder, 'an old question', 'an old answer');
    host.model.enqueue(textReply('The old question was answered.'));
    await client.request('compact', { sessionId: session.id });
    await recorder.until(() => recorder.latest!.entries.some((entry) => entry.kind === 'divider'));
    const compressed = await client
      .request('turn.regenerate', { sessionId: session.id, turnId: old })
      .catch((error) => error);
    expect(compressed.code).toBe('AALIS_WEBUI_TURN_COMPRESSED');
    expect(compressed.message).toMatch(/compression divider/);

    const recent = await turnWith(client, session.id, recorder, 'a new question', 'a new answer');
    const steps: StreamStep[] = [{ role: 'assistant' }];
    for (let index = 0; index < 40; index++) steps.push({ text: 'word ' }, { delayMs: 40 });
    steps.push({ finish: 'stop' }, { done: true });
    host.model.enqueue({ type: 'stream', steps });
    await client.send({ sessionId: session.id, text: 'keep talking' });
    await recorder.until(() => recorder.of('text.delta').length >= 2);
    const running = await client
      .request('turn.edit', { sessionId: session.id, turnId: recent, text: 'changed' })
      .catch((error) => error.code);
    expect(running).toBe('AALIS_WEBUI_TURN_RUNNING');
    await client.request('stop', { sessionId: session.id });
    await recorder.until(() => recorder.of('turn.ended').length === 3);
    const timeline = recorder.latest!;
    expect(
      timeline.entries.some((entry) => entry.kind === 'turn' && (entry.superseded || entry.previousVersions)),
    ).toBe(false);
  });
});

describe('commands in the page', () => {
  it('send answers routed command with the Markdown answer; line and answer survive a reload and never reach the model', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const sent = await client.request('send', { sessionId: session.id, text: '/help', clientMessageId: 'c-help' });
    expect(sent.routed).toBe('command');
    expect(sent.reply).toContain('\n');
    expect(sent.reply).toContain('/help');
    await recorder.until(() => recorder.of('command').length === 1);
    // The answer also went out as a system message naming the command (a page shows the command entry instead).
    expect(recorder.of('message').find((message) => message.replyTo === sent.messageId)).toMatchObject({
      kind: 'system',
      text: sent.reply,
    });
    expect(recorder.of('command')[0]!.entry).toMatchObject({
      kind: 'command',
      text: '/help',
      messageId: sent.messageId,
      reply: sent.reply,
    });

    const answered = await turnWith(client, session.id, recorder, 'a real question', 'a real answer');
    expect(answered).toBeTruthy();
    expect(lastRequestTexts().some((text) => text.includes('/help'))).toBe(false);

    const reloaded = new Recorder();
    const reader = await connected();
    await reader.subscribe(session.id, reloaded.handlers).ready;
    const [command, turn] = reloaded.latest!.entries;
    expect(command).toMatchObject({ kind: 'command', text: '/help', reply: sent.reply, messageId: sent.messageId });
    expect(turn).toMatchObject({ kind: 'turn', outcome: 'replied' });

    host.model.enqueue(textReply('fine'));
    const plain = await client.request('send', { sessionId: session.id, text: 'no command' });
    expect(plain.routed).toBe('turn');
    await recorder.until(() => recorder.of('turn.ended').length === 2);
  });
});

describe('session list actions, export, palette and usage', () => {
  it('renames, pins and archives: pinned first, archived out of the list but found by a search, told to every tab', async () => {
    const client = await connected();
    const { session: first } = await client.request('session.create', { title: 'first' });
    const { session: second } = await client.request('session.create', { title: 'second' });
    const upserts: string[] = [];
    const other = await connected();
    other.on('sessions', (change) => {
      if (change.change === 'upsert' && change.session?.title === 'Renamed 重命名') upserts.push(change.sessionId);
    });
    const renamed = await client.request('sessions.rename', { sessionId: first.id, title: '  Renamed   重命名 ' });
    expect(renamed.session).toMatchObject({ id: first.id, title: 'Renamed 重命名', pinned: false, archived: false });
    await client.request('sessions.pin', { sessionId: first.id, pinned: true });
    const listed = (await client.request('sessions.list', {})).sessions;
    const mine = listed.filter((session) => session.id === first.id || session.id === second.id);
    expect(mine.map((session) => session.id)).toEqual([first.id, second.id]);
    expect(mine[0]).toMatchObject({ pinned: true });

    await client.request('sessions.archive', { sessionId: second.id, archived: true });
    const ids = async (params: { search?: string; archived?: boolean }) =>
      (await client.request('sessions.list', params)).sessions.map((session) => session.id);
    expect(await ids({})).not.toContain(second.id);
    expect(await ids({ archived: true })).toContain(second.id);
    expect(await ids({ archived: true })).not.toContain(first.id);
    expect(await ids({ search: 'second' })).toContain(second.id);
    await client.request('sessions.archive', { sessionId: second.id, archived: false });
    expect(await ids({})).toContain(second.id);
    // List rows go out together at most every 50 ms (docs/session-protocol.md), so the other tab hears it shortly.
    await expect.poll(() => upserts).toContain(first.id);

    const bad = await client.request('sessions.rename', { sessionId: first.id, title: '   ' }).catch((error) => error);
    expect(bad.code).toBe('AALIS_WEBUI_BAD_REQUEST');
    const notBoolean = await client
      .request('sessions.pin', { sessionId: first.id, pinned: 'yes' as never })
      .catch((error) => error.code);
    expect(notBoolean).toBe('AALIS_WEBUI_BAD_REQUEST');
  });

  it('exports Markdown and JSON with tool-free turns, outcomes, superseded versions and commands', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', { title: 'Export: me/please' });
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await client.request('send', { sessionId: session.id, text: '/help' });
    const turnId = await turnWith(client, session.id, recorder, 'first question', 'old answer');
    host.model.enqueue(textReply('new answer'));
    await client.request('turn.regenerate', { sessionId: session.id, turnId });
    await recorder.until(() => recorder.of('turn.ended').length === 2);

    const markdown = await client.request('sessions.export', { sessionId: session.id, format: 'markdown' });
    expect(markdown.filename).toBe('Export me please.md');
    expect(markdown.mimeType).toMatch(/^text\/markdown/);
    expect(markdown.content).toMatch(/^# Export: me\/please\n/);
    expect(markdown.content).toContain('/help');
    expect(markdown.content).toContain('> **Superseded version 1**');
    expect(markdown.content).toContain('> old answer');
    expect(markdown.content).toContain('new answer');

    const json = await client.request('sessions.export', { sessionId: session.id, format: 'json' });
    const exported = JSON.parse(json.content);
    expect(exported).toMatchObject({ format: 'aalis-session', version: 1, session: { id: session.id } });
    const kinds = exported.timeline.map((entry: { kind: string }) => entry.kind);
    expect(kinds).toEqual(['command', 'turn']);
    expect(exported.timeline[1].previousVersions[0][0].turnId).toBe(turnId);
    expect(exported.messages.some((message: { content: string }) => message.content === 'old answer')).toBe(true);
    const wrong = await client
      .request('sessions.export', { sessionId: session.id, format: 'pdf' as never })
      .catch((error) => error.code);
    expect(wrong).toBe('AALIS_WEBUI_BAD_REQUEST');
  });

  it('lists the commands this account may run with usage lines, and the last real model call after a reload', async () => {
    const client = await connected();
    const { commands } = await client.request('commands.list', {});
    const help = commands.find((command) => command.name === 'help');
    expect(help).toMatchObject({ level: 0 });
    expect(help?.usage).toMatch(/^\/help/);
    expect(help?.description).not.toBe('');
    expect(commands.map((command) => command.name)).toEqual([...commands.map((command) => command.name)].sort());

    const { session } = await client.request('session.create', {});
    expect(await client.request('usage.get', { sessionId: session.id })).toEqual({});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const before = recorder.of('turn.ended').length;
    host.model.enqueue(textReply('counted', { usage: { promptTokens: 321, completionTokens: 12, cachedTokens: 300 } }));
    await client.send({ sessionId: session.id, text: 'count me' });
    await recorder.until(() => recorder.of('turn.ended').length === before + 1);
    const { lastCall } = await client.request('usage.get', { sessionId: session.id });
    expect(lastCall).toMatchObject({
      turnId: recorder.of('turn.ended').at(-1)!.turnId,
      promptTokens: 321,
      completionTokens: 12,
      cachedPromptTokens: 300,
      model: 'openai/test-model',
    });
    // A reload: the usage snapshot after subscribe carries the same real figures.
    const reloaded = new Recorder();
    await (await connected()).subscribe(session.id, reloaded.handlers).ready;
    await reloaded.until(() => reloaded.of('usage').some((event) => event.usage.turnId === undefined));
    const snapshot = reloaded.of('usage').find((event) => event.usage.turnId === undefined)!.usage;
    expect(snapshot.lastCall).toMatchObject({ promptTokens: 321, completionTokens: 12, cachedPromptTokens: 300 });
    expect(snapshot.measured).toBe(false);
  });
});

describe("the connection's locale", () => {
  const withLocale = (locale: string) => {
    const cookie = files.cookie;
    return track(
      new SessionClient({
        baseUrl: host.base,
        headers: { cookie },
        locale,
        requestTimeoutMs: 10_000,
        createSocket: (url) =>
          new WebSocket(url, { headers: { cookie, origin: host.base } }) as unknown as WebSocketLike,
      }),
    );
  };

  it("writes errors, setting labels and usage rows in the page's language; locale.set switches it", async () => {
    // The host writes English (locale: en); this page is Chinese.
    const client = withLocale('zh-Hans-CN');
    const hello = await client.connect();
    expect(hello.locale).toBe('zh-CN');
    const unknown = await client.request('subscribe', { sessionId: 'web:nobody' }).catch((error) => error);
    expect(unknown.code).toBe('AALIS_WEBUI_SESSION_UNKNOWN');
    expect(unknown.message).toMatch(/没有会话「web:nobody」/);
    const { session } = await client.request('session.create', {});
    const { settings } = await client.request('settings.get', { sessionId: session.id });
    const labels = settings.map((setting) => setting.label).join(' ');
    expect(labels).toMatch(/[\u4e00-\u9fff]/);

    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await recorder.until(() => recorder.of('usage').length > 0);
    const part = recorder.of('usage')[0]!.usage.parts[0]!;
    expect(part.labels?.['zh-CN']).toBe('历史消息');
    expect(part.labels?.en).toBe('History');
    expect(recorder.of('usage')[0]!.usage.partsTotal).toBe(
      recorder.of('usage')[0]!.usage.parts.reduce((sum, row) => sum + row.tokens, 0),
    );

    // A command's answer in the page's language too (the host writes English).
    const help = await client.request('send', { sessionId: session.id, text: '/help' });
    expect(help.reply).toMatch(/^可用的指令/);
    expect(await client.setLocale('en-GB')).toBe('en');
    const english = await client.request('send', { sessionId: session.id, text: '/help' });
    expect(english.reply).toMatch(/^Commands you can use/);
    const again = await client.request('subscribe', { sessionId: 'web:nobody' }).catch((error) => error);
    expect(again.message).toMatch(/There is no session "web:nobody"/);
    // Over HTTP the X-Aalis-Locale header says it.
    const http = withLocale('zh-CN');
    await http.me();
    const overHttp = await http.call('settings.get', { sessionId: 'web:nobody' }).catch((error) => error);
    expect(overHttp.message).toMatch(/没有会话/);
  });
});

describe('search', () => {
  it('finds Chinese and English in message content, archived sessions too, with what opens the session there', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', { title: 'Water' });
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    const turnId = await turnWith(client, session.id, recorder, '提醒我每天喝水', 'The reminder was deployed for noon');
    await client.request('sessions.archive', { sessionId: session.id, archived: true });

    const chinese = await client.request('search', { query: '喝水' });
    const hit = chinese.hits.find((entry) => entry.sessionId === session.id);
    expect(hit).toMatchObject({ sessionTitle: 'Water', archived: true, turnId, role: 'user', superseded: false });
    expect(hit?.snippet).toBe('提醒我每天\u0002喝水\u0003');
    // The hit's messageId is the input's id in the timeline: the page scrolls to it.
    const stored = new Recorder();
    await (await connected()).subscribe(session.id, stored.handlers).ready;
    const [turn] = stored.latest!.entries;
    expect(turn?.kind === 'turn' && turn.inputs[0]?.id).toBe(hit?.messageId);

    const english = await client.request('search', { query: 'deploy' });
    expect(english.hits.find((entry) => entry.sessionId === session.id)).toMatchObject({ role: 'assistant' });
    expect((await client.request('search', { query: 'nothing like this' })).hits).toEqual([]);
    const wrong = await client.request('search', { query: 'x', limit: 0 }).catch((error) => error.code);
    expect(wrong).toBe('AALIS_WEBUI_BAD_REQUEST');
  });
});
