import { translate } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import './catalogue.js';
import { planOfflineReply } from './offline-reply.js';

const zh = (text: Parameters<typeof translate>[0]) => translate(text, 'zh-CN');
const en = (text: Parameters<typeof translate>[0]) => translate(text, 'en');
const tools = [
  { name: 'get_weather', parameters: { type: 'object' } },
  { name: 'get_time', parameters: { type: 'object' } },
];

describe('planOfflineReply', () => {
  it('turns /call lines into tool calls with normalised JSON arguments', () => {
    const messages: Message[] = [
      { role: 'user', content: 'please\n/call get_weather {"city": "Paris"}\n  /call get_time  \nthanks' },
    ];
    expect(planOfflineReply({ messages, tools, t: en })).toEqual({
      kind: 'tool-calls',
      calls: [
        { id: 'call_offline_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_offline_1_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    });
  });

  it("with toolChoice 'none' it never calls a tool, whatever the message asks: it answers in text", () => {
    const messages: Message[] = [{ role: 'user', content: '/call get_time' }];
    expect(planOfflineReply({ messages, tools, toolChoice: 'none', t: en })).toMatchObject({ kind: 'text' });
    expect(planOfflineReply({ messages, tools, toolChoice: 'auto', t: en })).toMatchObject({ kind: 'tool-calls' });
  });

  it('summarises the tool results that end the conversation, naming each tool', () => {
    const messages: Message[] = [
      { role: 'user', content: '/call get_weather {"city":"Paris"}' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', content: 'Sunny,\n  21 °C', toolCallId: 'c1' },
    ];
    expect(planOfflineReply({ messages, tools, t: zh })).toEqual({
      kind: 'text',
      text: '（离线演示模型）工具返回了结果：\n- get_weather:Sunny, 21 °C',
    });
  });

  it('otherwise echoes the input, says it is the offline model and how to configure a real one', () => {
    const reply = planOfflineReply({ messages: [{ role: 'user', content: '你好,\n世界' }], t: zh });
    expect(reply).toEqual({ kind: 'text', text: expect.stringContaining('「你好, 世界」（共 6 个字）') });
    const text = (reply as { text: string }).text;
    expect(text).toContain('离线演示模型');
    expect(text).toContain('@aalis/plugin-llm-openai');
    expect(text).toContain('/call');
    const english = planOfflineReply({ messages: [{ role: 'user', content: 'x'.repeat(300) }], t: en });
    expect((english as { text: string }).text).toContain(`"${'x'.repeat(120)}…" (300 characters)`);
  });

  it('echoes what the person said, without the archive’s time and sender prefix', () => {
    const reply = planOfflineReply({
      messages: [{ role: 'user', content: '[2026-11-29 23:19] alice (42): 你好' }],
      t: zh,
    });
    expect((reply as { text: string }).text).toContain('「你好」（共 2 个字）');
  });

  it('is deterministic', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'same input' },
    ];
    expect(planOfflineReply({ messages, t: en })).toEqual(planOfflineReply({ messages, t: en }));
  });

  it('explains instead of calling a tool that is not offered, or with arguments that are not an object', () => {
    const unknown = planOfflineReply({ messages: [{ role: 'user', content: '/call launch {}' }], tools, t: en });
    expect(unknown).toEqual({
      kind: 'text',
      text: '(Offline demo model) Did not call launch: no such tool is offered this turn. Tools offered: get_weather, get_time.',
    });
    const none = planOfflineReply({ messages: [{ role: 'user', content: '/call launch' }], t: en });
    expect((none as { text: string }).text).toContain('Tools offered: (none).');
    const array = planOfflineReply({ messages: [{ role: 'user', content: '/call get_time [1]' }], tools, t: en });
    expect((array as { text: string }).text).toContain('(it is not an object)');
    const broken = planOfflineReply({ messages: [{ role: 'user', content: '/call get_time {oops' }], tools, t: en });
    expect((broken as { text: string }).text).toContain('Did not call get_time: the arguments are not a JSON object');
  });

  it('ignores control messages and answers an empty conversation', () => {
    const messages: Message[] = [{ role: 'assistant', content: '', kind: 'event-marker' }];
    expect(planOfflineReply({ messages, t: en })).toEqual({
      kind: 'text',
      text: expect.stringContaining('received no message'),
    });
  });
});

describe('call syntax in archived messages', () => {
  it.each(['[2026-11-29 10:00] call: get_time {}', '[2026-11-29 10:00] owner: /call get_time', 'call: get_time'])(
    'calls the tool for %s',
    (content) => {
      const plan = planOfflineReply({ messages: [{ role: 'user', content }], tools, t: en });
      expect(plan).toMatchObject({ kind: 'tool-calls', calls: [{ function: { name: 'get_time', arguments: '{}' } }] });
    },
  );
});
