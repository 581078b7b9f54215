// Rooms that behave, through the product (startAalis with the default plugin set; mute, flow control and budgets
// configured by their sections)
// against our OneBot v11 implementation over a real WebSocket and the scripted model server: the chat kind the
// model is told, cooldown, rate limit, the fair queue, a mute with a running turn, a budget running out in the
// middle of a conversation, and a friend request approved by the owner.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { memory } from '@aalis/api-memory';
import { type RunningAalis, startAalis } from '@aalis/runtime';
import {
  type OneBotImplementation,
  type OpenAiTestServer,
  onebotFriendRequest,
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

async function boot({
  flow = {},
  budget,
  mute = {},
}: {
  flow?: Record<string, unknown>;
  budget?: Record<string, unknown>;
  mute?: Record<string, unknown>;
} = {}) {
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
  mute: ${JSON.stringify(mute)}
  flow-control: ${JSON.stringify(flow)}
${budget ? `  budget: ${JSON.stringify(budget)}\n` : ''}`,
  );
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk: Buffer) => {
    logText += chunk.toString('utf8');
  });
  const start = async () => {
    const started: RunningAalis = await startAalis({
      cwd: dir,
      env: {},
      mode: 'none',
      output: logs,
      errorOutput: logs,
    });
    cleanups.push(() => started.stop());
    return started;
  };
  const aalis = await start();
  /** Stops this process and starts another on the same data directory, connected to the same implementation. */
  const restart = async () => {
    await aalis.stop();
    const before = implementation.connections();
    const again = await start();
    await until(() => implementation.connections() > before, 'the reconnection after the restart');
    return again;
  };
  const ours = aalis.app.states().filter((state) => /mute|flow|budget/.test(state.id) && state.state !== 'active');
  expect(ours).toEqual([]);
  await implementation.connected();
  await implementation.waitForCalls((calls) => calls.some((call) => call.action === 'get_login_info'));
  const history = async (sessionId: string) =>
    (await aalis.app.services.selected(memory)!.impl.readAll(sessionId)).map((message) => message.content);
  return { aalis, implementation, logs: () => logText, history, restart };
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

/** A held model reply: the call waits until `release()`. */
function held(text: string) {
  let release!: () => void;
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reply: {
      type: 'stream' as const,
      steps: [
        { role: 'assistant' as const },
        { until },
        { text },
        { finish: 'stop' },
        { usage: { promptTokens: 10, completionTokens: 3 } },
        { done: true as const },
      ],
    },
    release,
  };
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

  it('serves a waiting quiet group before a busy group’s next turn when calls are capped', async () => {
    const { implementation } = await boot({ flow: { maxConcurrentCalls: 1 } });
    const busy = held('Busy 1.');
    model.enqueueWhen((body) => {
      const text = JSON.stringify(body.messages);
      return text.includes('busy 1') && !text.includes('busy 2');
    }, busy.reply);
    model.enqueueWhen((body) => {
      const text = JSON.stringify(body.messages);
      return text.includes('quiet 1');
    }, textReply('Quiet 1.'));
    model.enqueueWhen((body) => {
      const text = JSON.stringify(body.messages);
      return text.includes('busy 2');
    }, textReply('Busy 2.'));
    implementation.push(onebotGroupMessage({ groupId: 505, userId: 7, message: at('busy 1') }));
    await until(() => model.chatBodies().length === 1, 'the busy call');
    implementation.push(onebotGroupMessage({ groupId: 506, userId: 8, message: at('quiet 1') }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    implementation.push(onebotGroupMessage({ groupId: 505, userId: 9, message: at('busy 2') }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The cap holds: nothing else reached the model while the busy group's call runs.
    expect(model.chatBodies()).toHaveLength(1);
    busy.release();
    await until(() => sends(implementation).length === 3, 'three answers');
    expect(
      model.chatBodies().map((body) => (JSON.stringify(body.messages).includes('quiet 1') ? 'quiet' : 'busy')),
    ).toEqual(['busy', 'quiet', 'busy']);
  });

  it('a mute stops the running turn, she keeps reading but does not speak, /unmute lets her answer', async () => {
    const { implementation, history, logs } = await boot();
    const running = held('This must not be sent.');
    model.enqueue(running.reply);
    implementation.push(onebotGroupMessage({ groupId: 507, userId: 11, message: at('tell me a long story') }));
    await until(() => model.chatBodies().length === 1, 'the running call');
    implementation.push(onebotGroupMessage({ groupId: 507, userId: OWNER, message: '/mute 30m' }));
    await until(
      () => sends(implementation).some((call) => textOf(call).startsWith("All right, I'll keep quiet until")),
      'the mute reply',
    );
    // The mute stopped the running turn (reason mute, no person named), not merely its delivery.
    await until(
      () => /回合结束 [^\n]*session=onebot:group:507[^\n]*结局=aborted[^\n]*原因=mute/.test(logs()),
      'the stop',
    );
    running.release();
    implementation.push(onebotGroupMessage({ groupId: 507, userId: 12, message: at('are you there?') }));
    await until(
      async () => (await history('onebot:group:507')).some((c) => c.includes('are you there?')),
      'kept as context',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sends(implementation).map(textOf).join('\n')).not.toContain('This must not be sent.');
    expect(model.chatBodies()).toHaveLength(1);
    implementation.push(onebotGroupMessage({ groupId: 507, userId: OWNER, message: '/unmute' }));
    await until(
      () => sends(implementation).some((call) => textOf(call) === 'The mute is lifted; I can speak again.'),
      'unmuted',
    );
    model.enqueue(textReply('I am back.'));
    implementation.push(onebotGroupMessage({ groupId: 507, userId: 12, message: at('now?') }));
    await until(() => sends(implementation).some((call) => textOf(call) === 'I am back.'), 'her answer');
    // What she read while muted reached the next turn as context.
    expect(JSON.stringify(model.chatBodies().at(-1))).toContain('are you there?');
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

  it('a friend request is put to the owner, and her answer after a restart settles it', async () => {
    const { implementation, restart } = await boot();
    model.enqueue(textReply('QQ 99 wants to be friends. Accept?'));
    implementation.push(onebotFriendRequest({ userId: 99, comment: 'hi, I am Ada', flag: 'f-99' }));
    await until(() => sends(implementation).length === 1, 'the question to the owner');
    expect(sends(implementation)[0]).toMatchObject({ action: 'send_private_msg', params: { user_id: OWNER } });
    const notice = JSON.stringify(model.chatBodies()[0]);
    const id = /request id (r[0-9a-f]+)/.exec(notice)?.[1];
    expect(id).toBeDefined();
    expect(notice).toContain('hi, I am Ada');
    // The request waits in the database: a restart before the owner answers does not forget it.
    await restart();
    model.enqueue(
      toolCallReply([{ id: 'c1', name: 'onebot_request_answer', arguments: JSON.stringify({ id, approve: true }) }]),
      textReply('Accepted.'),
    );
    implementation.push(onebotPrivateMessage({ userId: OWNER, message: 'yes, accept' }));
    await until(() => implementation.calls.some((call) => call.action === 'set_friend_add_request'), 'the approval');
    expect(implementation.calls.find((call) => call.action === 'set_friend_add_request')?.params).toEqual({
      flag: 'f-99',
      approve: true,
    });
  });

  it('a poke at her in a group addresses her', async () => {
    const { implementation } = await boot();
    model.enqueue(textReply('Yes?'));
    implementation.push(onebotPoke({ userId: 15, groupId: 509 }));
    await until(() => sends(implementation).length === 1, 'her answer to the poke');
    expect(JSON.stringify(model.chatBodies()[0])).toContain('(poked you)');
  });
});
