import { sessionFields } from '@aalis/api-session-settings';
import openaiPlugin from '@aalis/plugin-llm-openai';
import { startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

describe('会话设置项', () => {
  it('registers llm, think, maxToolIterations and historyLimit with their visibility and level', async () => {
    harness = await startHarness();
    const settings = harness.booted.app.services.selected(sessionFields)!.impl;
    const fields = Object.fromEntries(
      ['llm', 'think', 'maxToolIterations', 'historyLimit'].map((key) => [key, settings.field(key)?.field]),
    );
    expect(fields.llm).toMatchObject({ type: 'llm-ref', visibility: 'composer', level: 1 });
    expect(fields.think).toMatchObject({
      type: 'select',
      visibility: 'common',
      level: 1,
      dynamicOptions: { source: 'llm-thinking', dependsOn: ['llm'] },
    });
    expect(fields.maxToolIterations).toMatchObject({ type: 'number', visibility: 'advanced', level: 'owner' });
    expect(fields.historyLimit).toMatchObject({ type: 'number', visibility: 'advanced', level: 'owner', default: 0 });
    const unset = await settings.describeUnset({ sessionId: 'x' }, 'llm');
    expect(harness.booted.app.services && typeof unset === 'object' ? unset : undefined).toMatchObject({
      key: 'agent.field.llm.unset',
      params: { model: 'test-model' },
    });
  });

  it('a value its validation refuses reads 应为 <what the field expects>, once', async () => {
    harness = await startHarness();
    expect(await harness.command('/session.set maxToolIterations 0')).toEqual([
      '会话设置项「maxToolIterations」应为 不小于 1 的整数，实际为 0。没有做任何改动。（AALIS_SETTINGS_INVALID_VALUE）',
    ]);
    expect((await harness.command('/session.set historyLimit 1.5'))[0]).toContain('应为 不小于 0 的整数，实际为 1.5');
  });

  it('maxToolIterations limits tool batches: past it, the calls are not run and the model answers with tool_choice none', async () => {
    let runs = 0;
    harness = await startHarness({
      agentConfig: { maxToolIterations: 1 },
      tools: [
        {
          name: 'ping',
          description: 'pings',
          parameters: { type: 'object', properties: {} },
          handler: () => `pong ${++runs}`,
        },
      ],
    });
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'ping', arguments: {} }]),
      toolCallReply([{ id: 'c2', name: 'ping', arguments: {} }]),
      textReply('answer'),
    );
    await harness.say('ping a lot');
    expect(runs).toBe(1);
    const last = harness.requests()[2]! as { tools?: unknown[]; tool_choice?: unknown; messages: never[] };
    // The tools stay defined (a provider may refuse tool calls in the history of a request without tools).
    expect(last.tools).toEqual(harness.requests()[0]!.tools);
    expect(last.tool_choice).toBe('none');
    expect(contents(last.messages).at(-1)).toContain('上限');
  });

  it('maxToolIterations: a server that ignores tool_choice none and answers with calls only ends the turn visibly, the calls not run', async () => {
    let runs = 0;
    harness = await startHarness({
      agentConfig: { maxToolIterations: 1 },
      tools: [
        {
          name: 'ping',
          description: 'pings',
          parameters: { type: 'object', properties: {} },
          handler: () => `pong ${++runs}`,
        },
      ],
    });
    const outbound = harness.booted.capture('outbound:message');
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'ping', arguments: {} }]),
      toolCallReply([{ id: 'c2', name: 'ping', arguments: {} }]),
      // The answering call (tool_choice none) comes back with a tool call and no text all the same.
      toolCallReply([{ id: 'c3', name: 'ping', arguments: {} }]),
    );
    await harness.say('ping a lot');
    expect(runs).toBe(1);
    expect((harness.requests()[2] as { tool_choice?: unknown }).tool_choice).toBe('none');
    expect(harness.requests()).toHaveLength(3);
    const said = outbound.filter((message) => message.sessionId === 'cli:owner').map((m) => m.content);
    expect(said).toEqual([
      '[错误] 本轮工具调用次数已达上限（1 次），模型仍只回了工具调用（ping），没有给出回答；这些调用没有执行。已有的工具结果留在对话里：发一句「继续」让它接着做，或调高会话设置「最大工具迭代」（maxToolIterations）。',
    ]);
    // Nothing lost: the batch that ran is in the history; the calls not run are not.
    const history = await harness.history();
    expect(history.some((message) => message.role === 'tool' && message.content === 'pong 1')).toBe(true);
    expect(history.some((message) => message.toolCalls?.some((call) => call.id === 'c3'))).toBe(false);
  });

  it('values from the plugin config are what /session shows when no layer sets the field, as turns use them', async () => {
    harness = await startHarness({ agentConfig: { maxToolIterations: 2, historyLimit: 6, think: 'high' } });
    const shown = (await harness.command('/session')).join('\n');
    expect(shown).toContain('最大工具迭代（maxToolIterations）：2〔默认值〕');
    expect(shown).toContain('历史条数上限（historyLimit）：6〔默认值〕');
    expect(shown).toMatch(/深度思考（think）：high/);
    expect(shown).not.toContain('不限');
  });

  it('historyLimit sends the window: above the limit the earliest half is dropped in one go', async () => {
    harness = await startHarness({ agentConfig: { historyLimit: 4 } });
    for (let turn = 1; turn <= 3; turn++) {
      harness.server.enqueue(textReply(`reply ${turn}`));
      await harness.say(`message ${turn}`);
    }
    // Turn 3 starts with 5 active messages (2 exchanges + the new input) > 4: skip ⌈4/2⌉ = 2.
    const third = contents(harness.requests()[2]!.messages);
    expect(third.some((c) => c.endsWith('message 1'))).toBe(false);
    expect(third.some((c) => c.endsWith('message 2'))).toBe(true);
  });

  it('assignModel writes the session-layer model', async () => {
    harness = await startHarness();
    await harness.agent.assignModel('child-1', { provider: 'test', model: 'test-model' });
    const settings = harness.booted.app.services.selected(sessionFields)!.impl;
    expect(await settings.get({ sessionId: 'child-1' }, 'llm')).toEqual({
      value: { provider: 'test', model: 'test-model' },
      layer: 'session',
    });
  });

  it('a missing preferred model falls back and warns once per (preference, actual) pair', async () => {
    harness = await startHarness();
    harness.booted.app.services.setPluginPreference('@aalis/plugin-agent', 'llm', 'test/gone-model');
    harness.server.enqueue(textReply('a'), textReply('b'));
    await harness.say('one');
    await harness.say('two');
    const warnings = harness.booted.logs.filter(
      (record) => record.level === 'warn' && record.message.includes('gone-model'),
    );
    expect(warnings).toHaveLength(1);
    expect(harness.requests()).toHaveLength(2);
  });

  it('a hand-written llm key in the config is ignored with one warning', async () => {
    harness = await startHarness({ agentConfig: { llm: 'test/test-model' } });
    const warnings = harness.booted.logs.filter(
      (record) => record.level === 'warn' && record.message.includes('`llm`'),
    );
    expect(warnings).toHaveLength(1);
  });
});

describe('指令 /model /persona', () => {
  it('/model lists models with ids usable by /session.set llm, marks the current one, and pages with -p', async () => {
    harness = await startHarness();
    const listed = await harness.command('/model');
    expect(listed[0]).toContain('test/test-model');
    expect(listed[0]).toContain('（当前）');
    const set = await harness.command('/session.set llm test/test-model');
    expect(set[0]).not.toMatch(/错误|AALIS_/);
    const bad = await harness.command('/model -p x');
    expect(bad[0]).toBeDefined();
  });

  it('/session notes a set model that is not available now with the model turns use instead', async () => {
    harness = await startHarness();
    await harness.command('/session.set llm test/gone-model');
    const shown = (await harness.command('/session')).join('\n');
    expect(shown).toContain('模型（llm）：test/gone-model（这个模型此刻不可用，改用 test-model）〔本会话〕');
    await harness.command('/session.set llm test/test-model');
    expect((await harness.command('/session')).join('\n')).toContain('模型（llm）：test/test-model〔本会话〕');
  });

  it('/session notes a thinking level the current model cannot use', async () => {
    harness = await startHarness();
    await harness.command('/session.set think high');
    const shown = (await harness.command('/session')).join('\n');
    expect(shown).toMatch(/high（当前模型不能调）/);
  });

  it('/session names a thinking level the current model lacks, as the model that has it calls it, with 「当前模型没有这一档，按默认（…）」', async () => {
    const other = await startOpenAiTestServer({ models: ['deep-model'] });
    try {
      harness = await startHarness({
        thinking: {
          levels: [
            { id: 'low', name: '低' },
            { id: 'medium', name: '中' },
          ],
          default: 'medium',
        },
        extra: [
          [
            openaiPlugin,
            {
              baseUrl: other.url,
              fetchModels: false,
              models: [{ id: 'deep-model', thinking: { levels: [{ id: 'max', name: '最深' }], default: 'max' } }],
            },
            { id: 'other' },
          ],
        ],
      });
      await harness.command('/session.set think max');
      expect((await harness.command('/session')).join('\n')).toContain('max（最深：当前模型没有这一档，按默认（中））');
      // A level no model declares: the value is its id, the note the spec's words alone.
      await harness.command('/session.set think turbo');
      expect((await harness.command('/session')).join('\n')).toContain('turbo（当前模型没有这一档，按默认（中））');
    } finally {
      await other.close();
    }
  });

  it('/help describes /model, /persona and /stop in the words of the 指令 table', async () => {
    harness = await startHarness();
    const help = (await harness.command('/help -p 1')).join('\n') + (await harness.command('/help -p 2')).join('\n');
    expect(help).toContain('列出 / 搜索可用对话模型（分页，-p <n> 翻页）；列出的条目 id 就是 /session.set llm 的写法');
    expect(help).toContain('列出 / 搜索可用人设（分页，-p <n> 翻页）');
    expect(help).toContain('停下本会话在跑的一轮，同停止键：排着的照常开下一轮');
  });

  it('/persona reports when the persona service is absent', async () => {
    harness = await startHarness();
    expect(await harness.command('/persona')).toEqual(['人设服务没有启用']);
  });
});

describe('message-archive 缺席', () => {
  it('the agent builds the content itself the archive’s way and warns once per activation; nothing is stored', async () => {
    harness = await startHarness({ without: ['@aalis/plugin-message-archive'] });
    harness.server.enqueue(textReply('a'), textReply('b'));
    await harness.say('hello');
    await harness.say('again');
    expect(contents(harness.requests()[0]!.messages).at(-1)).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d\] hello$/);
    const warnings = harness.booted.logs.filter((record) => record.message.includes('message-archive is absent'));
    expect(warnings).toHaveLength(1);
    expect(await harness.history()).toEqual([]);
  });
});

describe('关停', () => {
  it('stop() aborts the in-flight turn through onDrain and lets it settle', async () => {
    let entered!: () => void;
    const started = new Promise<void>((resolve) => {
      entered = resolve;
    });
    harness = await startHarness({
      tools: [
        {
          name: 'wait',
          description: 'waits for its signal',
          parameters: { type: 'object', properties: {} },
          handler: (_args, context) =>
            new Promise((resolve) => {
              entered();
              context.signal.addEventListener('abort', () => resolve('aborted'));
            }),
        },
      ],
    });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'wait', arguments: {} }]));
    const turn = harness.say('wait');
    await started;
    await harness.booted.stop();
    await turn;
    const end = harness.booted.logs.find((record) => record.message.startsWith('回合结束'));
    expect(end?.message).toContain('结局=aborted');
    expect(end?.message).toContain('原因=shutdown');
  });
});
