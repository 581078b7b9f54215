// Follow-ups to #14 found by the platforms audit, through the real `aalis serve` against a Bot API server over HTTP
// and a OneBot v11 universal WebSocket of our own: Telegram's /start, forum topics, a rejected token, OneBot
// temporary (group) private chats.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBotApiServer } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AalisProcess, spawnAalis, waitFor } from './spawn-aalis.case.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serveIn(config: string): AalisProcess {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-rooms-followups-'));
  writeFileSync(join(dir, 'aalis.config.yaml'), config);
  const serve = spawnAalis({ cwd: dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
  serve.child.stdin!.end();
  cleanups.push(async () => {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
    rmSync(dir, { recursive: true, force: true });
  });
  return serve;
}

async function botApi(token: string) {
  const api = await startBotApiServer({ token, me: { id: 7101, username: 'aalis_test_bot', first_name: 'Aalis' } });
  cleanups.push(() => api.close());
  return api;
}

function telegramConfig(token: string, url: string, extra = ''): string {
  return `locale: en
plugins:
  memory-summary: false
  platform-telegram: { token: "${token}", apiRoot: ${url}, pollTimeoutSeconds: 1${extra} }
`;
}

const ann = { id: 51, is_bot: false, first_name: 'Ann' };

describe('Telegram /start through aalis serve', () => {
  it('/start, /start <deep-link payload> and /start@her_bot in a group reach her as a greeting, never AALIS_COMMAND_UNKNOWN', async () => {
    const api = await botApi('81:start');
    serveIn(telegramConfig('81:start', api.url));
    await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'), 30_000);
    const privateChat = { id: 51, type: 'private', first_name: 'Ann' };
    api.push({
      message: {
        message_id: 1,
        date: 1,
        chat: privateChat,
        from: ann,
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    const first = await waitFor(() => api.sent[0], { timeoutMs: 30_000, what: 'the answer to /start' });
    expect(first.text).not.toContain('AALIS_COMMAND_UNKNOWN');
    // The offline demo model repeats what it was given: an ordinary input.
    expect(first.text).toContain('You said: "[started the conversation]"');
    api.push({
      message: {
        message_id: 2,
        date: 2,
        chat: privateChat,
        from: ann,
        text: '/start ref_42-x',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    const second = await waitFor(() => api.sent[1], { timeoutMs: 30_000, what: 'the answer to /start ref_42-x' });
    expect(second.text).toContain('You said: "[started the conversation] ref_42-x"');
    const group = { id: -1005, type: 'supergroup', title: 'Friends' };
    api.push({
      message: {
        message_id: 3,
        date: 3,
        chat: group,
        from: ann,
        text: '/start@aalis_test_bot',
        entities: [{ type: 'bot_command', offset: 0, length: 21 }],
      },
    });
    const third = await waitFor(() => api.sent[2], { timeoutMs: 30_000, what: 'the answer to /start@aalis_test_bot' });
    expect(third.chat_id).toBe(-1005);
    expect(third.reply_to).toBe(3);
    expect(third.text).toContain('You said: "[started the conversation]"');
    // Her other commands are still commands.
    api.push({
      message: {
        message_id: 4,
        date: 4,
        chat: group,
        from: ann,
        text: '/stop@aalis_test_bot',
        entities: [{ type: 'bot_command', offset: 0, length: 20 }],
      },
    });
    const stop = await waitFor(() => api.sent[3], { timeoutMs: 30_000, what: 'the answer to /stop' });
    expect(stop.text).toBe('No turn is running');
  }, 120_000);
});
