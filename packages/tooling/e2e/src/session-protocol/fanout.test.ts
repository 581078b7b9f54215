// Fan-out that scales: a session change is turned into list rows once per change — the
// children looked up once, one row per account — not once per socket (two queries each, which stalled every turn once
// a login held a few hundred sockets). Every socket that may see the session still gets the row.
import { sessionManager } from '@aalis/api-session-manager';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { hostPerFile, Recorder } from './harness.case.js';

const file = hostPerFile({ extraConfig: '    maxSocketsPerLogin: 64\n' });
const { host } = file;

describe('session changes fan out once per change', () => {
  it('40 sockets of one login: each gets the turn’s list rows, the children are looked up once per change', async () => {
    const manager = host.aalis.app.services.selected(sessionManager)!.impl;
    const client = await file.connected();
    const { session } = await client.request('session.create', {});
    const sockets: WebSocket[] = [];
    const upserts: number[] = [];
    for (let index = 0; index < 40; index++) {
      const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
        headers: { cookie: file.cookie, origin: host.base },
      });
      upserts.push(0);
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; change?: string; sessionId?: string };
        if (frame.type === 'sessions' && frame.change === 'upsert' && frame.sessionId === session.id) upserts[index]!++;
      });
      await new Promise((resolve) => socket.once('open', resolve));
      sockets.push(socket);
    }
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    let lookups = 0;
    const children = manager.children.bind(manager);
    manager.children = (id: string) => {
      if (id === session.id) lookups++;
      return children(id);
    };
    try {
      await client.send({ sessionId: session.id, text: 'hello' });
      await recorder.until(() => recorder.of('turn.ended').length === 1);
      // The rows of the turn's end (its outcome recorded) reach every socket.
      const deadline = Date.now() + 5000;
      while (upserts.some((count) => count < 2) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Math.min(...upserts)).toBeGreaterThanOrEqual(2);
      // Once per announced change, whatever the number of sockets (today: a turn's start and its end).
      expect(lookups).toBeLessThanOrEqual(4);
    } finally {
      manager.children = children;
      for (const socket of sockets) socket.close();
    }
  });
});
