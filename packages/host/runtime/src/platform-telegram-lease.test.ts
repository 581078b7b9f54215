import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { type BotApiServer, startBotApiServer, telegramMessage, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { startLeaseHost, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = '123456:telegram-secret-token';
const BOT = { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
const alice = { id: 11, first_name: 'Alice', username: 'alice' };

const fixture = useProductFixture();
const { cleanups } = fixture;

async function host(api: BotApiServer, database: string) {
  const { stop } = await startLeaseHost(fixture, {
    database,
    platforms: `  platform-telegram:
    token: "${TOKEN}"
    apiRoot: ${api.url}
    pollTimeoutSeconds: 1
    retryDelayMs: 50`,
    prefix: 'aalis-telegram-lease-',
  });
  return { stop };
}

/** Polls with the runtime tests' one helper (spawn-aalis.case.ts). */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(check, { what, timeoutMs });

describe('a Telegram bot across two hosts on one PostgreSQL', () => {
  it('is polled by one host at a time and taken over when that host stops', async () => {
    const database = await throwawayDatabase();
    const api = await startBotApiServer({ token: TOKEN, me: BOT });
    cleanups.push(() => api.close());
    const first = await host(api, database);
    await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'));
    const second = await host(api, database);
    await api.waitForCalls((calls) => calls.filter((call) => call.method === 'getMe').length >= 2);
    // Long enough for the second host to be polling too, if it were allowed to.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    fixture.model.enqueue(textReply('one'), textReply('two'));
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'hi' }) });
    await until(() => api.sent.length >= 1, 'the first reply');
    // Both hosts run; a second poller would have answered the same update again.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(api.sent.map((sent) => sent.text)).toEqual(['one']);
    await first.stop();
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: 'still there?' }) });
    await until(() => api.sent.length >= 2, 'the reply after the takeover');
    expect(api.sent.map((sent) => sent.text)).toEqual(['one', 'two']);
    await second.stop();
  }, 60_000);
});
