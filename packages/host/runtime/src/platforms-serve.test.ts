// `aalis serve` (the real command, as a child process) runs the room platforms: one OneBot v11 implementation and
// one Bot API server of our own, the scripted model server behind both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BotApiServer,
  type OneBotImplementation,
  type OpenAiTestServer,
  onebotPrivateMessage,
  startBotApiServer,
  startOneBotImplementation,
  startOpenAiTestServer,
  telegramMessage,
  textReply,
} from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AalisProcess, spawnAalis, waitFor } from './spawn-aalis.case.js';

let model: OpenAiTestServer;
let onebot: OneBotImplementation;
let telegram: BotApiServer;
let dir: string;
let serve: AalisProcess;

beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
  onebot = await startOneBotImplementation({ selfId: 10_000, accessToken: 'qq-token' });
  telegram = await startBotApiServer({ token: '42:tg-token', me: { id: 4242, username: 'aalis_bot' } });
  dir = mkdtempSync(join(tmpdir(), 'aalis-serve-platforms-'));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
llm: { baseUrl: ${model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot: { url: ${onebot.url}, accessToken: qq-token }
  platform-telegram: { token: "42:tg-token", apiRoot: ${telegram.url}, pollTimeoutSeconds: 1 }
`,
  );
  serve = spawnAalis({ cwd: dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
  serve.child.stdin!.end();
  await onebot.connected();
  await telegram.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'), 20_000);
}, 60_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await Promise.all([model?.close(), onebot?.close(), telegram?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('aalis serve runs the room platforms', () => {
  it('answers a QQ private message through OneBot and a Telegram private message through the Bot API', async () => {
    model.enqueue(textReply('Hi from QQ.'));
    onebot.push(onebotPrivateMessage({ userId: 77, message: 'hello' }));
    await waitFor(() => onebot.sent.length === 1, { timeoutMs: 15_000 });
    expect(JSON.stringify(onebot.sent[0]?.message)).toContain('Hi from QQ.');
    model.enqueue(textReply('Hi from Telegram.'));
    telegram.push({ message: telegramMessage({ chatId: 55, from: { id: 55, first_name: 'Ann' }, text: 'hello' }) });
    await waitFor(() => telegram.sent.length === 1, { timeoutMs: 15_000 });
    expect(telegram.sent[0]?.text).toBe('Hi from Telegram.');
  });

  it('drains on SIGTERM with exit status 0', async () => {
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).not.toContain('qq-token');
    expect(serve.stderr()).not.toContain('tg-token');
  });
});
