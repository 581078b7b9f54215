// Telegram's counterpart of a group invitation (my_chat_member: she was added to a group), through the product
// against our Bot API server over real HTTP and the scripted model server: refused at once by policy, and put to
// the owner, whose "no" makes her leave the group.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startAalis } from '@aalis/runtime';
import { startBotApiServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';

const TOKEN = '123456:telegram-test-token';
const BOT = { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
const OWNER = { id: 11, first_name: 'Owner', username: 'owner' };
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function boot(policy: string) {
  const model = await startOpenAiTestServer({ models: ['test-model'] });
  cleanups.push(() => model.close());
  const api = await startBotApiServer({ token: TOKEN, me: BOT });
  cleanups.push(() => api.close());
  const dir = mkdtempSync(join(tmpdir(), 'aalis-tg-invite-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
owners: [{ platform: telegram, userId: "${OWNER.id}" }]
llm: { baseUrl: ${model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-telegram:
    token: "${TOKEN}"
    apiRoot: ${api.url}
    pollTimeoutSeconds: 1
    retryDelayMs: 50
    invitations: { policy: ${policy} }
`,
  );
  const logs = new PassThrough();
  logs.resume();
  const aalis = await startAalis({ cwd: dir, env: {}, mode: 'none', output: logs, errorOutput: logs });
  cleanups.push(() => aalis.stop());
  await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'));
  return { api, model };
}

const added = (by: { id: number; first_name: string }) => ({
  my_chat_member: {
    chat: { id: -100777, type: 'supergroup', title: 'Strangers' },
    from: by,
    date: Math.floor(Date.now() / 1000),
    old_chat_member: { status: 'left', user: BOT },
    new_chat_member: { status: 'member', user: BOT },
  },
});

describe('Telegram group invitations', () => {
  it('leaves at once when the policy refuses, and stays when an owner added her', async () => {
    const { api } = await boot('refuse');
    api.push(added(OWNER));
    api.push(added({ id: 99, first_name: 'Stranger' }));
    await until(() => api.calls.some((call) => call.method === 'leaveChat'), 'leaveChat');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.calls.filter((call) => call.method === 'leaveChat').map((call) => call.params)).toEqual([
      { chat_id: -100777 },
    ]);
  });

  it('asks the owner, and leaves on their no', async () => {
    const { api, model } = await boot('ask');
    model.enqueue(textReply('Stranger added me to "Strangers". Stay?'));
    api.push(added({ id: 99, first_name: 'Stranger' }));
    await until(() => api.sent.length === 1, 'the question to the owner');
    expect(api.sent[0]?.chat_id).toBe(OWNER.id);
    const id = /request id (r[0-9a-f]+)/.exec(JSON.stringify(model.chatBodies()[0]))?.[1];
    expect(id).toBeDefined();
    model.enqueue(
      toolCallReply([
        { id: 'c1', name: 'telegram_invitation_answer', arguments: JSON.stringify({ id, approve: false }) },
      ]),
      textReply('Left.'),
    );
    api.push({
      message: {
        message_id: 5,
        date: Math.floor(Date.now() / 1000),
        chat: { id: OWNER.id, type: 'private', first_name: OWNER.first_name },
        from: OWNER,
        text: 'no, leave',
      },
    });
    await until(() => api.calls.some((call) => call.method === 'leaveChat'), 'leaveChat');
    expect(api.calls.find((call) => call.method === 'leaveChat')?.params).toEqual({ chat_id: -100777 });
  });
});
