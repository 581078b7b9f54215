// A lost answer to a reply's COMMIT does not double the reply (docs/decisions/held-replies.md): the write landed but
// the agent saw a storage failure, so it held the reply and tried again; before the new try it finds the reply stored
// and neither stores nor sends it twice. On PostgreSQL, a proxy in front of the real server forwards the reply's
// INSERT, lets the server commit it and cuts the connection before its answer reaches the agent; on SQLite (where a
// commit cannot be cut from outside) the test's memory service stores the reply and then throws SQLite's I/O error.
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { memory } from '@aalis/api-memory';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import type { Message } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  proxy = undefined;
});

/** Whether the server's answer ends with ReadyForQuery ('Z', length 5, status): the transaction is over. */
function ready(answer: Buffer): boolean {
  const at = answer.length - 6;
  return (
    at >= 0 &&
    answer[at] === 0x5a &&
    answer.readUInt32BE(at + 1) === 5 &&
    'ITE'.includes(String.fromCharCode(answer[at + 5]!))
  );
}

/**
 * A proxy to the real server that, once, forwards the client's message holding `marker`, waits until the server has
 * finished it (committed), swallows the answer and cuts the connection: COMMIT done, the client sees a lost connection.
 */
async function cutAfterCommit(target: URL, marker: string): Promise<{ url: string; cuts(): number }> {
  let armed = true;
  let cuts = 0;
  proxy = createServer((client: Socket) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    let swallowing = false;
    let answer = Buffer.alloc(0);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(marker)) {
        armed = false;
        swallowing = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!swallowing) {
        client.write(chunk);
        return;
      }
      answer = Buffer.concat([answer, chunk]);
      if (ready(answer)) {
        cuts++;
        end();
      }
    });
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  const server = proxy;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target.href);
  url.port = String((server.address() as { port: number }).port);
  return { url: url.href, cuts: () => cuts };
}

async function replyOnce(current: Harness, text: string): Promise<void> {
  const sent = current.booted.capture('outbound:message');
  current.server.enqueue(textReply(text));
  await current.say('answer me once');
  const history = await current.history();
  const replies = history.filter((message: Message) => message.role === 'assistant' && message.content === text);
  expect(replies).toHaveLength(1);
  expect(sent.filter((message) => message.content === text)).toHaveLength(1);
  // The reply carries the turn's record, and no event marker stands in for a reply it thought lost.
  expect(replies[0]?.metadata?.turnRecord).toMatchObject({ outcome: 'replied' });
  expect(history.filter((message) => message.kind === 'event-marker')).toHaveLength(0);
}

describe('a lost answer to the reply’s COMMIT', () => {
  it('on PostgreSQL: the reply committed while the connection was cut is stored and sent once', async () => {
    const text = 'The answer whose commit was not answered.';
    const cut = await cutAfterCommit(new URL(await throwawayDatabase()), text);
    harness = await startHarness({ storage: { database: cut.url } });
    await replyOnce(harness, text);
    expect(cut.cuts()).toBe(1);
  });

  it('on SQLite: a reply stored before the driver reported an I/O error is stored and sent once', async () => {
    const text = 'The answer stored before the disk complained.';
    harness = await startHarness();
    const service = harness.booted.app.services.selected(memory)!.impl;
    const append = service.append.bind(service);
    let faults = 0;
    service.append = async (sessionId, messages) => {
      const stored = await append(sessionId, messages);
      if (faults === 0 && messages.some((message) => message.content === text)) {
        faults++;
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_FSYNC' });
      }
      return stored;
    };
    await replyOnce(harness, text);
    expect(faults).toBe(1);
  });
});
