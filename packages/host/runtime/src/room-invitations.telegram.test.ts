// Telegram's counterpart of a group invitation (my_chat_member: she was added to a group), through the product
// against our Bot API server over real HTTP and the scripted model server: refused at once by policy, and put to
// the owner, whose "no" makes her leave the group; and put to the owner before a restart, whose answers after it are
// honoured (the invitations wait in the product's database).
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
  const start = () => startAalis({ cwd: dir, env: {}, mode: 'none', output: logs, errorOutput: logs });
  let aalis = await start();
  cleanups.push(() => aalis.stop());
  await api.waitForCalls((calls) => calls.some((call) => call.method === 'getUpdates'));
  /** Stops the product and starts it again on the same data directory, polling again. */
  const restart = async () => {
    await aalis.stop();
    const polls = api.calls.filter((call) => call.method === 'getUpdates').length;
    aalis = await start();
    await api.waitForCalls((calls) => calls.filter((call) => call.method === 'getUpdates').length > polls);
  };
  return { api, model, restart };
}

const added = (by: { id: number; first_name: string }, chat = { id: -100777, title: 'Strangers' }) => ({
  my_chat_member: {
    chat: { ...chat, type: 'supergroup' },
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

  it("keeps the owner's question across a restart: the answers after it are honoured (leave one group, stay in the other)", async () => {
    const { api, model, restart } = await boot('ask');
    const idOf = (title: string) =>
      new RegExp(`${title}\\W+\\(chat -?\\d+\\) by Stranger \\(account 99, request id (r[0-9a-f]+)`).exec(
        JSON.stringify(model.chatBodies()),
      )?.[1];
    model.enqueue(textReply('Added to "Strangers". Stay?'), textReply('Added to "Friends". Stay?'));
    api.push(added({ id: 99, first_name: 'Stranger' }));
    await until(() => api.sent.length === 1, 'the first question to the owner');
    api.push(added({ id: 99, first_name: 'Stranger' }, { id: -100888, title: 'Friends' }));
    await until(() => api.sent.length === 2, 'the second question to the owner');
    const [leave, stay] = [idOf('Strangers'), idOf('Friends')];
    expect(leave).toBeDefined();
    expect(stay).toBeDefined();

    // The product restarts before the owner answers; the invitations wait in its database.
    await restart();
    model.enqueue(
      toolCallReply([
        { id: 'c1', name: 'telegram_invitation_answer', arguments: JSON.stringify({ id: leave, approve: false }) },
        { id: 'c2', name: 'telegram_invitation_answer', arguments: JSON.stringify({ id: stay, approve: true }) },
      ]),
      textReply('Left "Strangers", staying in "Friends".'),
    );
    api.push({
      message: {
        message_id: 6,
        date: Math.floor(Date.now() / 1000),
        chat: { id: OWNER.id, type: 'private', first_name: OWNER.first_name },
        from: OWNER,
        text: 'leave Strangers, stay in Friends',
      },
    });
    await until(() => api.sent.length === 3, "her reply to the owner's answers");
    expect(api.calls.filter((call) => call.method === 'leaveChat').map((call) => call.params)).toEqual([
      { chat_id: -100777 },
    ]);
    const results = ((model.chatBodies().at(-1)?.messages ?? []) as { role: string; content: unknown }[])
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(results).toEqual(['Left chat -100777.', 'Staying in chat -100888.']);
    // Neither question was asked again after the restart (the updates were not read twice).
    expect(api.sent.filter((sent) => sent.chat_id === OWNER.id)).toHaveLength(3);
    expect(model.chatBodies()).toHaveLength(4);
  });
});
