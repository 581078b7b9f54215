import { estimateMessagesTokens, estimateTextTokens } from '@aalis/context-budget';
import { type Message, validateProviderSequence } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_CONFIG } from './config.js';
import {
  buildSummaryRequest,
  compactHistory,
  compactionBudget,
  composeSystemPrompt,
  estimateHistoryTokens,
  splitForCompaction,
} from './history.js';
import { toolCall } from './test-helpers.case.js';
import { TEXTS } from './texts.js';

const texts = TEXTS['zh-CN'];
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const group = (id: string): Message[] => [
  { role: 'assistant', content: '', toolCalls: [toolCall(`${id}a`, 'click'), toolCall(`${id}b`, 'type')] },
  { role: 'tool', toolCallId: `${id}a`, name: 'click', content: '{"result":1}' },
  { role: 'tool', toolCallId: `${id}b`, name: 'type', content: '{"result":2}' },
];

describe('压缩历史时发生什么', () => {
  it('可用预算 = contextTokens - reserveForOutput; 压缩水位 = floor(可用预算 × compactRatio): 7168 and 5734 by default', () => {
    expect(compactionBudget(DEFAULT_AGENT_CONFIG.limits)).toEqual({ available: 7168, watermark: 5734 });
    expect(compactionBudget({ contextTokens: 1000, reserveForOutput: 100, compactRatio: 0.5 })).toEqual({
      available: 900,
      watermark: 450,
    });
  });

  it('用于压缩判断的上下文: base system prompt, summary and recent messages', () => {
    const messages = [user('hello there'), assistant('hi')];
    expect(estimateHistoryTokens({ basePrompt: 'rules', summary: 'earlier', messages })).toBe(
      estimateTextTokens('rules') + estimateTextTokens('earlier') + estimateMessagesTokens(messages),
    );
  });

  it('上下文一直不压缩: history at or below the watermark is left alone and no summary is requested', async () => {
    const messages = [user('a'), assistant('b')];
    let summarised = false;
    const result = await compactHistory({
      basePrompt: '',
      summary: '',
      messages,
      limits: DEFAULT_AGENT_CONFIG.limits,
      texts,
      summarize: async () => {
        summarised = true;
        return 'x';
      },
    });
    expect(result.compacted).toBe(false);
    expect(result.messages).toEqual(messages);
    expect(summarised).toBe(false);
  });

  it('估算历史超过水位后摘要较早的消息, 保留最近 keepRecent 条原文', async () => {
    const messages = Array.from({ length: 20 }, (_, index) =>
      (index % 2 ? assistant : user)(`message ${index} `.repeat(40)),
    );
    const seen: Message[][] = [];
    const result = await compactHistory({
      basePrompt: 'rules',
      summary: 'old summary',
      messages,
      limits: { ...DEFAULT_AGENT_CONFIG.limits, contextTokens: 1200, reserveForOutput: 200, keepRecent: 4 },
      texts,
      summarize: async (request) => {
        seen.push(request);
        return '  new summary  ';
      },
    });
    expect(result.compacted).toBe(true);
    expect(result.summary).toBe('new summary');
    expect(result.messages).toEqual(messages.slice(-4));
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    const [system, transcript] = seen[0]!;
    expect(system!.content).toBe(texts.summaryPrompt);
    expect(transcript!.content).toContain('old summary');
    expect(transcript!.content).toContain('message 15');
    expect(transcript!.content).not.toContain('message 16');
  });

  it('压缩会保留任务目标、已确认的决定、约束与未完成工作: the summary prompt says so in both languages', () => {
    for (const keyword of ['任务目标', '已确认的决定', '约束', '未完成的工作']) {
      expect(TEXTS['zh-CN'].summaryPrompt).toContain(keyword);
    }
    for (const keyword of ['goals', 'confirmed decisions', 'constraints', 'unfinished work']) {
      expect(TEXTS.en.summaryPrompt).toContain(keyword);
    }
    const request = buildSummaryRequest({ texts: TEXTS.en, summary: '', older: [user('x')] });
    expect(request.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('不会把 assistant 的工具调用消息与对应的 tool 结果拆开: kept part starts at a group boundary', () => {
    const messages = [user('start'), ...group('g1'), user('next'), ...group('g2'), assistant('ok')];
    // keepRecent 3 would start inside g2 (its second result); the kept part moves back to g2's assistant.
    const split = splitForCompaction(messages, 3)!;
    expect(split.kept[0]!.toolCalls).toHaveLength(2);
    expect(split.kept).toHaveLength(4);
    expect(split.older).toEqual(messages.slice(0, 5));
    expect(splitForCompaction(messages, messages.length)).toBeUndefined();
  });

  it('property: any split of a valid sequence keeps a valid provider sequence and at least keepRecent messages', () => {
    const unit = fc.oneof(
      fc.constant('user'),
      fc.constant('assistant'),
      fc.integer({ min: 1, max: 3 }).map((calls) => `group:${calls}`),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.integer({ min: 0, max: 8 }), (units, keepRecent) => {
        const messages: Message[] = [];
        units.forEach((kind, index) => {
          if (kind === 'user') messages.push(user(`u${index}`));
          else if (kind === 'assistant') messages.push(assistant(`a${index}`));
          else {
            const calls = Array.from({ length: Number(kind.split(':')[1]) }, (_, call) =>
              toolCall(`c${index}-${call}`, 't'),
            );
            messages.push({ role: 'assistant', content: '', toolCalls: calls });
            for (const call of calls) messages.push({ role: 'tool', toolCallId: call.id, content: 'r' });
          }
        });
        const split = splitForCompaction(messages, keepRecent);
        if (!split) return;
        expect(split.kept.length).toBeGreaterThanOrEqual(Math.min(keepRecent, messages.length));
        expect(split.kept[0]?.role).not.toBe('tool');
        expect([...split.older, ...split.kept]).toEqual(messages);
        expect(validateProviderSequence(split.kept)).toEqual([]);
      }),
    );
  });

  it('系统提示每轮都会按当前页面重建: the page part comes after rules and summary', () => {
    expect(composeSystemPrompt({ basePrompt: 'R', summary: 'S', pagePrompt: 'P', texts })).toBe(
      `R\n\n${texts.summaryHeading}\nS\n\nP`,
    );
    expect(composeSystemPrompt({ basePrompt: 'R', summary: '', pagePrompt: '', texts })).toBe('R');
  });
});
