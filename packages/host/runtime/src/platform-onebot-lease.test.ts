import { createServer as createNetServer } from 'node:net';
import { gateway } from '@aalis/api-gateway';
import { memory } from '@aalis/api-memory';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import {
  connectOneBotImplementation,
  type OneBotImplementation,
  onebotPrivateMessage,
  startOneBotImplementation,
  textReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { startLeaseHost, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = 'onebot-lease-secret';
const fixture = useProductFixture();
const { cleanups } = fixture;

async function host(database: string, onebot: string, apiKey = 'test-key') {
  return startLeaseHost(fixture, {
    database,
    platforms: `  platform-onebot:
    accessToken: ${TOKEN}
    reconnect: { initialMs: 50, maxMs: 200 }
${onebot}`,
    prefix: 'aalis-onebot-lease-',
    consoleLogLevel: 'info',
    apiKey,
  });
}

const sends = (implementation: OneBotImplementation) =>
  implementation.calls.filter((call) => call.action === 'send_private_msg');
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(check, { what, timeoutMs });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a OneBot instance across two hosts on one PostgreSQL', () => {
  it('forward mode: one host dials at a time, an event is answered once, the other takes over', async () => {
    const database = await throwawayDatabase();
    const implementation = await startOneBotImplementation({ selfId: 10_000, accessToken: TOKEN });
    cleanups.push(() => implementation.close());
    const first = await host(database, `    url: ${implementation.url}`);
    await implementation.connected(1);
    const second = await host(database, `    url: ${implementation.url}`);
    await until(() => second.logs().includes('standing by'), 'the second host standing by');
    // Long enough for the second host to dial too, if it were allowed to.
    await pause(1500);
    expect(implementation.authorizations).toHaveLength(1);
    fixture.model.enqueue(textReply('one'), textReply('two'));
    implementation.push(onebotPrivateMessage({ userId: 77, message: [{ type: 'text', data: { text: 'hi' } }] }));
    await until(() => sends(implementation).length >= 1, 'the first reply');
    await pause(1000);
    expect(sends(implementation)).toHaveLength(1);
    await first.stop();
    await implementation.connected(2);
    await until(() => second.logs().includes('this process runs the connection'), 'the takeover');
    implementation.push(onebotPrivateMessage({ userId: 77, message: [{ type: 'text', data: { text: 'still?' } }] }));
    await until(() => sends(implementation).length >= 2, 'the reply after the takeover');
    await pause(500);
    expect(sends(implementation).map((call) => JSON.stringify(call.params.message))).toEqual([
      JSON.stringify([{ type: 'text', data: { text: 'one' } }]),
      JSON.stringify([{ type: 'text', data: { text: 'two' } }]),
    ]);
    expect(implementation.authorizations).toHaveLength(2);
  }, 60_000);

  it('a reply of a turn run on the standby is sent by the holder; a failed send is recorded by that turn', async () => {
    const database = await throwawayDatabase();
    const implementation = await startOneBotImplementation({ selfId: 10_000, accessToken: TOKEN });
    cleanups.push(() => implementation.close());
    await host(database, `    url: ${implementation.url}`, 'key-holder');
    await implementation.connected(1);
    const standby = await host(database, `    url: ${implementation.url}`, 'key-standby');
    await until(() => standby.logs().includes('standing by'), 'the second host standing by');
    // An input of the private chat reaching the standby (as any input may reach any process): its turn runs there.
    const receive = (content: string) =>
      standby.aalis.app.services.selected(gateway)!.impl.receive({
        sessionId: 'onebot:private:77',
        platform: 'onebot',
        venue: '77',
        sender: { userId: '77' },
        actor: { platform: 'onebot', userId: '77' },
        content,
        triggerType: 'direct',
        timestamp: Date.now(),
      });
    fixture.model.enqueue(textReply('handed to the holder'));
    await receive('hello');
    await until(() => sends(implementation).length === 1, 'the reply sent by the holder');
    expect(
      fixture.model.requests.filter((request) => request.path.endsWith('/chat/completions'))[0]?.headers.authorization,
    ).toBe('Bearer key-standby');
    expect(sends(implementation)[0]?.params).toEqual({
      user_id: 77,
      message: [{ type: 'text', data: { text: 'handed to the holder' } }],
    });
    expect(implementation.authorizations).toHaveLength(1);

    // The holder's send fails: the turn's process records it in the history with the turn's id.
    implementation.failNext('send_private_msg', { status: 'failed', retcode: 1200, msg: 'blocked', data: null });
    fixture.model.enqueue(textReply('you will not see this'));
    await receive('again');
    const history = standby.aalis.app.services.selected(memory)!.impl;
    let stored: Awaited<ReturnType<typeof history.readAll>> = [];
    await until(async () => {
      stored = await history.readAll('onebot:private:77');
      return stored.some((message) => message.metadata?.deliveryFailure !== undefined);
    }, 'the failure record');
    const replies = stored.filter((message) => message.role === 'assistant');
    const record = stored.find((message) => message.metadata?.deliveryFailure !== undefined);
    expect(record).toMatchObject({ role: 'system', metadata: { turnId: replies.at(-1)?.metadata?.turnId } });
    expect(record?.content).toContain('retcode 1200');
    expect(sends(implementation)).toHaveLength(2);
  }, 60_000);

  it('reverse mode: only the holder listens; the standby refuses until the holder stops', async () => {
    const database = await throwawayDatabase();
    const [portA, portB] = [await freePort(), await freePort()];
    const reverse = (port: number) =>
      `    mode: reverse\n    instanceId: qq-main\n    reverse: { host: 127.0.0.1, port: ${port} }`;
    const first = await host(database, reverse(portA));
    await until(() => first.logs().includes('this process runs the connection'), 'the first host listening');
    const second = await host(database, reverse(portB));
    await until(() => second.logs().includes('standing by'), 'the second host standing by');
    // The standby does not listen: an implementation pointed at it cannot connect.
    await expect(connectOneBotImplementation(`ws://127.0.0.1:${portB}/`, { accessToken: TOKEN })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    const atFirst = await connectOneBotImplementation(`ws://127.0.0.1:${portA}/`, { accessToken: TOKEN });
    cleanups.push(() => atFirst.close());
    fixture.model.enqueue(textReply('from the first'), textReply('from the second'));
    atFirst.push(onebotPrivateMessage({ userId: 78, message: [{ type: 'text', data: { text: 'hi' } }] }));
    await until(() => sends(atFirst).length === 1, 'the reply from the first host');
    await first.stop();
    await until(() => second.logs().includes('this process runs the connection'), 'the takeover');
    const atSecond = await connectOneBotImplementation(`ws://127.0.0.1:${portB}/`, { accessToken: TOKEN });
    cleanups.push(() => atSecond.close());
    atSecond.push(onebotPrivateMessage({ userId: 78, message: [{ type: 'text', data: { text: 'again' } }] }));
    await until(() => sends(atSecond).length === 1, 'the reply from the second host');
    expect(sends(atSecond)[0]?.params.message).toEqual([{ type: 'text', data: { text: 'from the second' } }]);
  }, 60_000);

  it('reverse mode, one port for both processes (the default instance id): the next holder listens on it', async () => {
    const database = await throwawayDatabase();
    const port = await freePort();
    const reverse = `    mode: reverse\n    reverse: { host: 127.0.0.1, port: ${port} }`;
    const first = await host(database, reverse);
    await until(() => first.logs().includes('this process runs the connection'), 'the first host listening');
    // The same configuration: the second process would fail to bind the port if it tried; it stands by instead.
    const second = await host(database, reverse);
    await until(() => second.logs().includes('standing by'), 'the second host standing by');
    expect(second.logs()).not.toContain('could not start the connection');
    const url = `ws://127.0.0.1:${port}/onebot/v11/ws`;
    const before = await connectOneBotImplementation(url, { accessToken: TOKEN });
    cleanups.push(() => before.close());
    fixture.model.enqueue(textReply('first'), textReply('second'));
    before.push(onebotPrivateMessage({ userId: 79, message: [{ type: 'text', data: { text: 'hi' } }] }));
    await until(() => sends(before).length === 1, 'the first host answering');
    await first.stop();
    await until(() => second.logs().includes('this process runs the connection'), 'the takeover');
    // The implementation redials the same address and reaches the new holder.
    const after = await connectOneBotImplementation(url, { accessToken: TOKEN });
    cleanups.push(() => after.close());
    after.push(onebotPrivateMessage({ userId: 79, message: [{ type: 'text', data: { text: 'again' } }] }));
    await until(() => sends(after).length === 1, 'the second host answering');
    expect(sends(after)[0]?.params.message).toEqual([{ type: 'text', data: { text: 'second' } }]);
  }, 60_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
