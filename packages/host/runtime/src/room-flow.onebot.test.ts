// Rooms that behave, through the product (startAalis with the default plugin set; flow control and budgets configured
// by their sections) against our OneBot v11 implementation over a real WebSocket and the scripted model server: the
// chat kind the model is told, a cooldown from the configuration with one notice per person, a rate limit with its
// notices turned off, a budget running out in the middle of a conversation (the owner warned at 80 %), a poke. The
// fair queue, a mute with a running turn and a friend request settled after a restart run through every platform's
// driver, OneBot's among them, in room-flow-platforms.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { memory } from '@aalis/api-memory';
import { type RunningAalis, startAalis } from '@aalis/runtime';
import {
  type OneBotImplementation,
  type OpenAiTestServer,
  onebotGroupMessage,
  onebotPoke,
  onebotPrivateMessage,
  startOneBotImplementation,
  startOpenAiTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const SELF = 10_000;
const OWNER = 42;
let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  model.reset();
});

async function boot({ flow = {}, budget }: { flow?: Record<string, unknown>; budget?: Record<string, unknown> } = {}) {
  const implementation = await startOneBotImplementation({ selfId: SELF });
  cleanups.push(() => implementation.close());
  const dir = mkdtempSync(join(tmpdir(), 'aalis-room-flow-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
logLevel: debug
consoleLogLevel: info
owners: [{ platform: onebot, userId: "${OWNER}" }]
llm: { baseUrl: ${model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  platform-onebot:
    url: ${implementation.url}
    reconnect: { initialMs: 50, maxMs: 200 }
  mute: {}
  flow-control: ${JSON.stringify(flow)}
${budget ? `  budget: ${JSON.stringify(budget)}\n` : ''}`,
  );
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });
  const aalis: RunningAalis = await startAalis({ cwd: dir, env: {}, mode: 'none', output: logs, errorOutput: logs });
  cleanups.push(() => aalis.stop());
  const ours = aalis.app.states().filter((state) => /mute|flow|budget/.test(state.id) && state.state !== 'active');
  expect(ours).toEqual([]);
  await implementation.connected();
  await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
  const history = async (sessionId: string) =>
    (await aalis.app.services.selected(memory)!.impl.readAll(sessionId)).map((message) => message.content);
  return { aalis, implementation, logs: () => logText, history };
}

const sends = (implementation: OneBotImplementation) =>
  implementation.calls.filter((call) => call.action === 'send_group_msg' || call.action === 'send_private_msg');
const textOf = (call: { params: Record<string, unknown> }) =>
  (call.params.message as { type: string; data: { text?: string } }[])
    .filter((segment) => segment.type === 'text')
    .map((segment) => segment.data.text)
    .join('');
const at = (text: string) => [
  { type: 'at', data: { qq: String(SELF) } },
  { type: 'text', data: { text: ` ${text}` } },
];

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const environment = (body: Record<string, unknown>) =>
  JSON.stringify((body.messages as { content?: unknown }[]).map((message) => message.content)).match(
    /\[Current environment\][^"]*/,
  )?.[0];

describe('rooms through OneBot', () => {
  it('tells the model a private chat is a private chat and a group a group chat', async () => {
    const { implementation } = await boot();
    model.enqueue(textReply('Hi.'), textReply('Hello group.'));
    implementation.push(onebotPrivateMessage({ userId: 77, message: 'hi' }));
    await until(() => sends(implementation).length === 1, 'the private reply');
    implementation.push(onebotGroupMessage({ groupId: 501, userId: 77, message: at('hi all') }));
    await until(() => sends(implementation).length === 2, 'the group reply');
    const [direct, group] = model.chatBodies();
    expect(environment(direct!)).toContain('session: private chat');
    expect(environment(group!)).toContain('session: group chat');
  });

  it('cools a flooded group down: one answer, one notice per person, every message kept as context', async () => {
    const { implementation, history, logs } = await boot({ flow: { cooldown: { roomSeconds: 60 } } });
    model.enqueue(textReply('Answer one.'));
    implementation.push(onebotGroupMessage({ groupId: 502, userId: 1, message: at('question 1') }));
    await until(() => sends(implementation).length === 1, 'the first answer');
    for (const [userId, text] of [
      [2, 'question 2'],
      [2, 'question 3'],
      [3, 'question 4'],
      [2, 'question 5'],
    ] as const) {
      implementation.push(onebotGroupMessage({ groupId: 502, userId, message: at(text) }));
    }
    await until(
      async () => (await history('onebot:group:502')).filter((c) => /question [2-5]/.test(c)).length === 4,
      'all kept',
    );
    await until(() => sends(implementation).length === 3, 'two notices');
    expect(model.chatBodies()).toHaveLength(1);
    const texts = sends(implementation).map(textOf);
    expect(texts[0]).toBe('Answer one.');
    expect(texts.slice(1)).toEqual([
      expect.stringMatching(/^I just answered; ask me again in \d+ s\. I saw this one and kept it\.$/),
      expect.stringMatching(/^I just answered; ask me again in \d+ s\./),
    ]);
    expect(logs().match(/flow: held #\d+ session=onebot:group:502 rule=cooldown\.room/g)).toHaveLength(4);
  });

  it('rate-limits a person across groups while others are answered', async () => {
    const { implementation } = await boot({
      flow: { rateLimit: { person: { perMinute: 1, burst: 1 } }, notices: false },
    });
    model.enqueue(textReply('For 5 in A.'), textReply('For 6 in B.'));
    implementation.push(onebotGroupMessage({ groupId: 503, userId: 5, message: at('first') }));
    await until(() => sends(implementation).length === 1, 'the first answer');
    implementation.push(onebotGroupMessage({ groupId: 504, userId: 5, message: at('second, elsewhere') }));
    implementation.push(onebotGroupMessage({ groupId: 504, userId: 6, message: at('mine') }));
    await until(() => sends(implementation).length === 2, 'the answer to 6');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sends(implementation).map(textOf)).toEqual(['For 5 in A.', 'For 6 in B.']);
    expect(model.chatBodies()).toHaveLength(2);
  });

  it('a budget running out mid-conversation replaces the next model call with a notice', async () => {
    const { implementation } = await boot({ budget: { roomPerDay: 100 } });
    model.enqueue(textReply('Sure.', { usage: { promptTokens: 60, completionTokens: 10 } }));
    implementation.push(onebotGroupMessage({ groupId: 508, userId: 13, message: at('hello') }));
    await until(() => sends(implementation).length === 1, 'the first answer');
    model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], {
        usage: { promptTokens: 30, completionTokens: 5 },
      }),
    );
    implementation.push(onebotGroupMessage({ groupId: 508, userId: 14, message: at('what is 6*7?') }));
    const inGroup = () => sends(implementation).filter((call) => call.action === 'send_group_msg');
    await until(() => inGroup().length === 2, 'the notice');
    expect(textOf(inGroup()[1]!)).toBe(
      "This chat's daily budget is used up (105 tokens of 100 tokens), so I am not answering this time. Try again once it resets.",
    );
    expect(model.chatBodies()).toHaveLength(2);
    // The owner was told at 80 %, in their private chat.
    expect(
      sends(implementation).some(
        (call) =>
          call.action === 'send_private_msg' && call.params.user_id === OWNER && textOf(call).startsWith('[Budget]'),
      ),
    ).toBe(true);
  });

  it('a poke at her in a group addresses her', async () => {
    const { implementation } = await boot();
    model.enqueue(textReply('Yes?'));
    implementation.push(onebotPoke({ userId: 15, groupId: 509 }));
    await until(() => sends(implementation).length === 1, 'her answer to the poke');
    expect(JSON.stringify(model.chatBodies()[0])).toContain('(poked you)');
  });
});
