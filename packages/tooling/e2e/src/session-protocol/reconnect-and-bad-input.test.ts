// Conformance: a reconnect resumes without gaps or duplicates (and a resend is not sent twice); bad input gets a
// coded error and loses nothing: oversized messages and attachments, malformed frames, unknown sessions.
import { memory as memoryService } from '@aalis/api-memory';
import { SessionClient, SessionClientError, type WebSocketLike } from '@aalis/session-client';
import { type StreamStep, textReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { hostPerFile, Recorder } from './harness.case.js';

const file = hostPerFile();
const { host } = file;
const sockets: WebSocket[] = [];
afterEach(() => {
  sockets.splice(0);
});

/** A connected client whose sockets are kept in `sockets`, so a test can drop one. */
async function connected(): Promise<SessionClient> {
  const { cookie } = file;
  const client = file.track(
    new SessionClient({
      baseUrl: host.base,
      headers: { cookie },
      reconnectDelayMs: { min: 20, max: 100 },
      createSocket: (url) => {
        const socket = new WebSocket(url, { headers: { cookie, origin: host.base } });
        sockets.push(socket);
        return socket as unknown as WebSocketLike;
      },
    }),
  );
  await client.connect();
  return client;
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; details?: Record<string, unknown> }> {
  try {
    await promise;
    return { code: 'resolved' };
  } catch (error) {
    if (error instanceof SessionClientError)
      return { code: error.code, ...(error.details ? { details: error.details } : {}) };
    throw error;
  }
}

function slowReply(words: number): { type: 'stream'; steps: StreamStep[] } {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  for (let index = 0; index < words; index++) steps.push({ text: `w${index} ` }, { delayMs: 15 });
  steps.push({ finish: 'stop' }, { usage: { promptTokens: 10, completionTokens: 5 } }, { done: true });
  return { type: 'stream', steps };
}

describe('reconnect', () => {
  it('resumes after the socket drops mid-stream: every event once, in order, the reply whole', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(slowReply(40));
    await client.send({ sessionId: session.id, text: 'stream please' });
    await recorder.until(() => recorder.of('text.delta').length >= 5);
    sockets.at(-1)!.terminate();
    await recorder.until(() => recorder.of('turn.ended').length === 1, 15_000);
    expect(sockets.length).toBeGreaterThan(1);
    expect(recorder.timelines).toHaveLength(1); // resumed, no second timeline
    const seqs = recorder.events.map((entry) => entry.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seqs[0]! + index));
    const text = recorder
      .of('text.delta')
      .map((delta) => delta.delta)
      .join('');
    expect(text).toBe(Array.from({ length: 40 }, (_, index) => `w${index} `).join(''));
  });

  it('sends a message once although it is resent with the same clientMessageId', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    host.model.enqueue(textReply('once'));
    const first = await client.send({ sessionId: session.id, text: 'only once', clientMessageId: 'm-1' });
    const again = await client.send({ sessionId: session.id, text: 'only once', clientMessageId: 'm-1' });
    expect(again).toEqual({ messageId: first.messageId, duplicate: true, routed: 'turn' });
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await recorder.until(
      () =>
        (recorder.latest?.entries ?? []).some((entry) => entry.kind === 'turn' && entry.outcome === 'replied') ||
        recorder.of('turn.ended').length > 0,
    );
    const inputs =
      JSON.stringify(recorder.timelines.at(-1)).split('only once').length - 1 + recorder.of('input').length;
    expect(inputs).toBe(1);
    expect(host.model.chatBodies()).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('refuses oversized and malformed messages and attachments with codes, sending nothing', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const sessionId = session.id;
    expect(await codeOf(client.send({ sessionId, text: 'x'.repeat(2001) }))).toMatchObject({
      code: 'AALIS_WEBUI_MESSAGE_TOO_LONG',
      details: { limit: 2000, length: 2001 },
    });
    expect((await codeOf(client.send({ sessionId, text: '  ' }))).code).toBe('AALIS_WEBUI_MESSAGE_EMPTY');
    const big = Buffer.alloc(5000, 1).toString('base64');
    expect(
      await codeOf(
        client.send({ sessionId, text: 'look', attachments: [{ type: 'image', mimeType: 'image/png', data: big }] }),
      ),
    ).toMatchObject({ code: 'AALIS_WEBUI_ATTACHMENT_TOO_LARGE', details: { index: 0, limit: 4096 } });
    expect(
      (
        await codeOf(
          client.send({
            sessionId,
            text: 'look',
            attachments: [{ type: 'image', mimeType: 'image/png', data: '%%%notbase64' }],
          }),
        )
      ).code,
    ).toBe('AALIS_WEBUI_ATTACHMENT_INVALID');
    expect(
      (
        await codeOf(
          client.request('send', {
            sessionId,
            text: 'look',
            attachments: [{ type: 'image', mimeType: 'text/html' as 'image/png', data: 'AAAA' }],
          }),
        )
      ).code,
    ).toBe('AALIS_WEBUI_ATTACHMENT_INVALID');
    expect((await codeOf(client.send({ sessionId: 'webui:owner:nope', text: 'hi' }))).code).toBe(
      'AALIS_WEBUI_SESSION_UNKNOWN',
    );
    expect((await codeOf(client.request('subscribe', { sessionId: 'no-such-session' }))).code).toBe(
      'AALIS_WEBUI_SESSION_UNKNOWN',
    );
    expect((await codeOf(client.request('settings.set', { sessionId, key: 'historyLimit', value: -3 }))).code).toBe(
      'AALIS_SETTINGS_INVALID_VALUE',
    );
    // Nothing reached the model or the history.
    expect(host.model.chatBodies()).toHaveLength(0);
    const recorder = new Recorder();
    await client.subscribe(sessionId, recorder.handlers).ready;
    expect(recorder.latest!.entries).toEqual([]);
  });

  it('answers malformed frames with coded errors and keeps the socket', async () => {
    await connected();
    const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
      headers: { cookie: file.cookie, origin: host.base },
    });
    // Only the hello and the answers are counted: frames nobody asked for (the login's session list rows, sent at most
    // every 50 ms after the other tests' changes; an owner's admin frames) may come in between.
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.type === 'hello' || frame.type === 'error' || frame.type === 'reply') frames.push(frame);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    const next = async (count: number) => {
      const deadline = Date.now() + 5000;
      while (frames.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return frames[count - 1]!;
    };
    expect(await next(1)).toMatchObject({ type: 'hello', protocol: 1 });
    socket.send('this is not json');
    expect(await next(2)).toMatchObject({ type: 'error', error: { code: 'AALIS_WEBUI_FRAME_MALFORMED' } });
    socket.send(JSON.stringify([1, 2]));
    expect(await next(3)).toMatchObject({ type: 'error', error: { code: 'AALIS_WEBUI_FRAME_MALFORMED' } });
    socket.send(JSON.stringify({ id: 'a', type: 'launch.rockets' }));
    expect(await next(4)).toMatchObject({ type: 'error', id: 'a', error: { code: 'AALIS_WEBUI_UNKNOWN_REQUEST' } });
    socket.send(JSON.stringify({ id: 'b', type: 'send', sessionId: 42 }));
    expect(await next(5)).toMatchObject({ type: 'error', id: 'b', error: { code: 'AALIS_WEBUI_BAD_REQUEST' } });
    socket.send(JSON.stringify({ id: 'c', type: 'ping', pad: 'x'.repeat(17 * 1024 * 1024) }));
    expect(await next(6)).toMatchObject({ type: 'error', error: { code: 'AALIS_WEBUI_FRAME_TOO_LARGE' } });
    socket.send(JSON.stringify({ id: 'd', type: 'ping' }));
    expect(await next(7)).toMatchObject({ type: 'reply', id: 'd' });
    socket.close();
  });

  it('names the request and the wrong parameter of every BAD_REQUEST in details.problems [{ path, expected, received }]', async () => {
    const client = await connected();
    const session = await client.request('session.create', {});
    const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
      headers: { cookie: file.cookie, origin: host.base },
    });
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    const answer = async (frame: Record<string, unknown>) => {
      socket.send(JSON.stringify(frame));
      const deadline = Date.now() + 5000;
      const reply = () => frames.find((candidate) => candidate.id === frame.id);
      while (!reply() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const found = reply();
      return found?.error as { code: string; message: string; details?: { problems?: unknown } } | undefined;
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'subscribe' }, 'sessionId'],
      [{ type: 'send', sessionId: 42, text: 'hi' }, 'sessionId'],
      [{ type: 'stop', sessionId: '' }, 'sessionId'],
      [{ type: 'settings.get' }, 'sessionId'],
      [{ type: 'settings.set', sessionId: session.session.id, key: 'no-such-key', value: 1 }, 'key'],
      [{ type: 'settings.set', sessionId: session.session.id, key: 'historyLimit' }, 'value'],
      [{ type: 'settings.set', sessionId: session.session.id, key: 'historyLimit', value: 3, layer: 'venue' }, 'layer'],
      [{ type: 'settings.reset', sessionId: session.session.id, key: 'historyLimit', layer: 'galaxy' }, 'layer'],
      [{ type: 'settings.options', sessionId: session.session.id, key: 'no-such-key' }, 'key'],
      [{ type: 'logs.subscribe', level: 'loud' }, 'level'],
      [{ type: 'admin.preferences.set', service: 'llm', value: 7 }, 'value'],
    ];
    for (const [index, [frame, path]] of cases.entries()) {
      const error = await answer({ id: `bad-${index}`, ...frame });
      expect(error, JSON.stringify(frame)).toMatchObject({
        code: 'AALIS_WEBUI_BAD_REQUEST',
        details: { problems: [{ path, expected: expect.any(String), received: expect.any(String) }] },
      });
      expect(error!.message, JSON.stringify(frame)).toContain(`"${frame.type}"`);
    }
    socket.close();
  });

  it('passes an image attachment to the model as the message attachment', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(textReply('A red pixel.'));
    const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    await client.send({
      sessionId: session.id,
      text: 'what is this?',
      attachments: [{ type: 'image', mimeType: 'image/png', data: `data:image/png;base64,${pixel}`, name: 'p.png' }],
    });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const input = recorder.of('input')[0]!.input;
    expect(input.attachments).toHaveLength(1);
    expect(input.attachments[0]!.url).toMatch(/^\/api\/v1\/attachments\//);
    const image = await fetch(`${host.base}${input.attachments[0]!.url}`, { headers: { cookie: file.cookie } });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await image.arrayBuffer()).toString('base64')).toBe(pixel);
  });

  it('passes a file and a voice recording of any type on, and refuses an unknown kind or a malformed type', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    host.model.enqueue(textReply('Read it.'));
    const text = Buffer.from('第一行\nsecond line').toString('base64');
    await client.send({
      sessionId: session.id,
      text: 'see the notes',
      attachments: [
        { type: 'file', mimeType: 'text/plain', data: text, name: 'notes.txt' },
        { type: 'audio', data: `data:audio/ogg;base64,${Buffer.from('OggS').toString('base64')}`, name: 'voice.ogg' },
      ],
    });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const input = recorder.of('input')[0]!.input;
    expect(input.attachments.map((attachment) => [attachment.type, attachment.name, attachment.mimeType])).toEqual([
      ['file', 'notes.txt', 'text/plain'],
      ['audio', 'voice.ogg', 'audio/ogg'],
    ]);
    const refused = await codeOf(
      client.send({
        sessionId: session.id,
        text: 'x',
        attachments: [{ type: 'video' as 'file', data: text }],
      }),
    );
    expect(refused).toMatchObject({ code: 'AALIS_WEBUI_ATTACHMENT_INVALID', details: { index: 0 } });
    expect(
      (
        await codeOf(
          client.send({
            sessionId: session.id,
            text: 'x',
            attachments: [{ type: 'file', mimeType: 'not a type', data: text }],
          }),
        )
      ).code,
    ).toBe('AALIS_WEBUI_ATTACHMENT_INVALID');
  });

  it('serves a stored attachment that is not a raster image (an SVG from a room) as a sandboxed download', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/v1/me")</script></svg>';
    const memory = host.aalis.app.services.selected(memoryService)!.impl;
    const [stored] = await memory.append(session.id, [
      {
        role: 'user',
        content: 'look',
        timestamp: Date.now(),
        attachments: [{ type: 'image', mimeType: 'image/svg+xml', data: Buffer.from(svg).toString('base64') }],
      },
    ]);
    const response = await fetch(
      `${host.base}/api/v1/attachments/${encodeURIComponent(session.id)}/${encodeURIComponent(stored!.id!)}/0`,
      { headers: { cookie: file.cookie } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe('attachment');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await response.text()).toBe(svg);
  });
});
