// Acknowledged means stored, and a burst stays bounded: `send` answers a messageId only
// for an input the agent stored; a full database is AALIS_WEBUI_NOT_STORED and the session list claims nothing new; a
// burst of sends into one session is capped at maxWaitingInputs, and resuming from the start replays a bounded amount.
import { storage } from '@aalis/api-storage';
import type { SessionClient } from '@aalis/session-client';
import type { StreamStep } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { hostPerFile, Recorder } from './harness.case.js';

const file = hostPerFile({ extraConfig: '    maxWaitingInputs: 10\n' });
const { host } = file;

/** Every write to the host's database fails as on a full disk (SQLite raising its SQLITE_FULL message). */
function fillDisk(): () => void {
  const connection = host.aalis.app.services.selected(storage)!.impl.database().connection;
  const tables = (
    connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const triggers: string[] = [];
  for (const table of tables) {
    for (const action of ['INSERT', 'UPDATE', 'DELETE']) {
      const name = `disk_full_${table}_${action.toLowerCase()}`;
      try {
        connection.exec(
          `CREATE TRIGGER "${name}" BEFORE ${action} ON "${table}" BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
        );
        triggers.push(name);
      } catch {
        // A virtual table's own tables (full-text, vector indexes) take no triggers; their writes go with the rest.
      }
    }
  }
  return () => {
    for (const name of triggers) connection.exec(`DROP TRIGGER "${name}"`);
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

function slowReply(words: number, delayMs: number): { type: 'stream'; steps: StreamStep[] } {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  for (let index = 0; index < words; index++) steps.push({ text: `w${index} ` }, { delayMs });
  steps.push({ finish: 'stop' }, { usage: { promptTokens: 10, completionTokens: 5 } }, { done: true });
  return { type: 'stream', steps };
}

async function lastTurnOf(client: SessionClient, sessionId: string) {
  const { sessions } = await client.request('sessions.list', {});
  return sessions.find((session) => session.id === sessionId)?.lastTurn;
}

describe('send answers only what was stored', () => {
  it('with a full database send is AALIS_WEBUI_NOT_STORED and the list claims nothing; with space back it is answered', async () => {
    const client = await file.connected();
    const { session } = await client.request('session.create', {});
    await client.send({ sessionId: session.id, text: 'first, stored' });
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    // Wait for the first turn to end so the list has its outcome.
    for (let tries = 0; tries < 200 && (await lastTurnOf(client, session.id)) === undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const before = await lastTurnOf(client, session.id);
    expect(before?.outcome).toBe('replied');
    const free = fillDisk();
    try {
      expect(await codeOf(client.send({ sessionId: session.id, text: 'lost?' }))).toBe('AALIS_WEBUI_NOT_STORED');
      // Reads still work, and the list shows only what is stored.
      expect(await lastTurnOf(client, session.id)).toEqual(before);
    } finally {
      free();
    }
    const sent = await client.send({ sessionId: session.id, text: 'after space came back' });
    expect(sent.messageId).toEqual(expect.any(String));
    await recorder.until(() => recorder.of('turn.ended').length >= 1, 10_000);
    for (let tries = 0; tries < 200; tries++) {
      const last = await lastTurnOf(client, session.id);
      if (last && last.turnId !== before?.turnId) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await lastTurnOf(client, session.id))?.turnId).not.toBe(before?.turnId);
  });
});

describe('a burst into one session stays bounded', () => {
  it('600 sends without waiting: at most maxWaitingInputs wait, the rest are QUEUE_FULL, and a resume from 0 is small', async () => {
    const client = await file.connected();
    const { session } = await client.request('session.create', {});
    host.model.enqueue(slowReply(80, 40));
    const recorder = new Recorder();
    await client.subscribe(session.id, recorder.handlers).ready;
    await client.send({ sessionId: session.id, text: 'opening' });
    await recorder.until(() => recorder.of('turn.started').length === 1);
    const outcomes = await Promise.all(
      Array.from({ length: 600 }, (_, index) => codeOf(client.send({ sessionId: session.id, text: `burst ${index}` }))),
    );
    const accepted = outcomes.filter((outcome) => outcome === 'resolved').length;
    // Refused as the session's waiting list is full, or as this login has maxRequestsPerLogin requests in progress.
    const refused = outcomes.filter((outcome) =>
      ['AALIS_WEBUI_QUEUE_FULL', 'AALIS_WEBUI_TOO_MANY_REQUESTS'].includes(outcome),
    ).length;
    expect(accepted + refused).toBe(600);
    expect(outcomes).toContain('AALIS_WEBUI_QUEUE_FULL');
    expect(accepted).toBe(10);
    // No queue event carries the whole list: together they name each waiting input about once.
    const carried = recorder.of('queue').reduce((sum, event) => sum + event.added.length, 0);
    expect(carried).toBeLessThanOrEqual(accepted + 1);

    // A client resuming from the very start gets what the server kept: bounded, far from the audit's 15 MB.
    const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
      headers: { cookie: file.cookie, origin: host.base },
    });
    let serverId: string | undefined;
    let bytes = 0;
    let frames = 0;
    let answered = false;
    socket.on('message', (data) => {
      const text = String(data);
      const frame = JSON.parse(text) as { type: string; id?: string; serverId?: string };
      if (frame.type === 'hello') serverId = frame.serverId;
      else if (frame.id === 'resume') answered = true;
      else if (!answered) {
        bytes += text.length;
        frames++;
      }
    });
    await new Promise((resolve) => socket.once('open', resolve));
    for (let tries = 0; tries < 200 && serverId === undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(serverId).toEqual(expect.any(String));
    socket.send(
      JSON.stringify({ id: 'resume', type: 'subscribe', sessionId: session.id, resume: { serverId, seq: 0 } }),
    );
    const deadline = Date.now() + 5000;
    while (!answered && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered).toBe(true);
    expect(bytes).toBeLessThan(1024 * 1024);
    expect(frames).toBeLessThan(600);
    socket.close();
  });
});
