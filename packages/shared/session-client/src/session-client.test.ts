// The client's own rules, against a socket double: events applied once by sequence number, a reconnect resubscribes
// with resume, sends wait for the socket, a 4401 close ends with the server's code.
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from './frame-types.js';
import { SessionClient, type WebSocketLike } from './session-client.js';

class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000, reason = '') {
    this.onclose?.({ code, reason });
  }
  receive(frame: ServerFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const hello = (serverId: string): ServerFrame => ({
  type: 'hello',
  protocol: 1,
  serverId,
  account: { userId: 'owner', displayName: 'owner', owner: true, level: 0 },
  limits: { maxMessageChars: 10, maxAttachmentBytes: 10, maxAttachments: 1, maxFrameBytes: 100 },
  locale: 'en',
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SessionClient', () => {
  it('applies each event once, resubscribes with resume after a drop, and keeps sends for the new socket', async () => {
    const sockets: FakeSocket[] = [];
    const client = new SessionClient({
      baseUrl: 'http://127.0.0.1:1',
      reconnectDelayMs: { min: 1, max: 1 },
      createSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
    });
    const connected = client.connect();
    sockets[0]!.receive(hello('s1'));
    await connected;
    const seen: number[] = [];
    client.subscribe('a', { event: (_event, seq) => seen.push(seq) });
    const subscribe = sockets[0]!.sent.at(-1)!;
    expect(subscribe).toMatchObject({ type: 'subscribe', sessionId: 'a' });
    sockets[0]!.receive({
      type: 'timeline',
      sessionId: 'a',
      seq: 3,
      timeline: { sessionId: 'a', entries: [], waiting: [], truncated: false },
    });
    sockets[0]!.receive({
      type: 'reply',
      id: subscribe.id as string,
      result: { sessionId: 'a', seq: 3, resumed: false },
    });
    for (const seq of [4, 5, 5, 3, 6]) {
      sockets[0]!.receive({ type: 'event', sessionId: 'a', seq, event: { type: 'settings.changed', key: 'llm' } });
    }
    expect(seen).toEqual([4, 5, 6]);

    sockets[0]!.close(1006);
    const sent = client.send({ sessionId: 'a', text: 'hi' });
    await tick();
    expect(sockets).toHaveLength(2);
    sockets[1]!.receive(hello('s1'));
    const frames = sockets[1]!.sent;
    expect(frames.filter((frame) => frame.type === 'subscribe')).toEqual([
      expect.objectContaining({ sessionId: 'a', resume: { serverId: 's1', seq: 6 } }),
    ]);
    const send = frames.find((frame) => frame.type === 'send')!;
    expect(send.clientMessageId).toEqual(expect.any(String));
    sockets[1]!.receive({ type: 'reply', id: send.id as string, result: { messageId: 'm1', duplicate: false } });
    expect(await sent).toEqual({ messageId: 'm1', duplicate: false });
    client.close();
  });

  it('ends with the code the server sent before closing 4401', async () => {
    const socket = new FakeSocket();
    const client = new SessionClient({ baseUrl: 'http://127.0.0.1:1', createSocket: () => socket });
    const connected = client.connect();
    socket.receive({ type: 'error', error: { code: 'AALIS_WEBUI_LOGIN_EXPIRED', message: 'expired' } });
    socket.close(4401, 'AALIS_WEBUI_LOGIN_EXPIRED');
    await expect(connected).rejects.toMatchObject({ code: 'AALIS_WEBUI_LOGIN_EXPIRED' });
    expect(client.connectionState).toBe('logged-out');
  });
});
