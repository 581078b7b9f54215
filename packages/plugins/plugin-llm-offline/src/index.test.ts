// The offline plugin in an App: labelled offline in both locales, ranked below real providers, tool loop.
import { type ChatStreamEvent, llm, resolveModelFor } from '@aalis/api-llm';
import { bootApp } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

describe('@aalis/plugin-llm-offline', () => {
  it('announces itself as offline in its model name, in the app locale', async () => {
    for (const [locale, name] of [
      ['zh-CN', '离线演示模型（offline）'],
      ['en', 'Offline demo model (offline)'],
    ] as const) {
      const { app, stop } = await bootApp({ plugins: [[plugin, {}, { id: 'offline' }]], locale });
      try {
        expect(app.services.providers(llm)[0]!.impl.models()).toEqual([
          {
            id: 'offline/demo',
            provider: 'offline',
            model: 'demo',
            name,
            contextWindow: 32_768,
            maxOutputTokens: 4_096,
            capabilities: { tools: true, vision: false },
            thinking: 'not-adjustable',
            offline: true,
          },
        ]);
      } finally {
        await stop();
      }
    }
  });

  it('is the fallback model when no real provider is there, and loses to any that is', async () => {
    const { app, stop } = await bootApp({ plugins: [plugin] });
    try {
      expect(resolveModelFor({ services: app.services })?.model.id).toBe('@aalis/plugin-llm-offline/demo');
      expect(app.services.providers(llm)[0]!.priority).toBe(-100);
    } finally {
      await stop();
    }
  });

  it('runs a whole tool loop: call, result, summary — streaming fragments and emitting usage', async () => {
    const { app, capture, stop } = await bootApp({ plugins: [[plugin, { chunkSize: 5 }, { id: 'offline' }]] });
    const usage = capture('llm:usage');
    try {
      const provider = app.services.providers(llm)[0]!.impl;
      const tools = [{ name: 'lookup', parameters: { type: 'object' } }];
      const request = { sessionId: 'demo', purpose: 'conversation' as const, tools };
      const events: ChatStreamEvent[] = [];
      const messages = [{ role: 'user' as const, content: '/call lookup {"id": 42}' }];
      for await (const event of provider.chatStream({ ...request, messages })) events.push(event);
      expect(events.filter((event) => event.type === 'tool-call-delta').map((event) => event.argumentsDelta)).toEqual([
        '{"id"',
        ':42}',
      ]);
      const first = events.at(-1);
      if (first?.type !== 'response') throw new Error('no response');
      expect(first.response).toMatchObject({ finishReason: 'tool-calls', model: 'offline/demo' });

      const second = await provider.chat({
        ...request,
        messages: [
          ...messages,
          { role: 'assistant', content: '', toolCalls: first.response.toolCalls },
          { role: 'tool', content: 'Answer: forty-two', toolCallId: first.response.toolCalls[0]!.id },
        ],
      });
      expect(second).toMatchObject({ finishReason: 'stop', toolCalls: [] });
      expect(second.content).toBe('（离线演示模型）工具返回了结果：\n- lookup:Answer: forty-two');
      expect(usage.map((event) => [event.provider, event.model, event.sessionId, event.purpose])).toEqual([
        ['offline', 'offline/demo', 'demo', 'conversation'],
        ['offline', 'offline/demo', 'demo', 'conversation'],
      ]);
      expect(usage[1]!.promptTokens).toBeGreaterThan(usage[0]!.promptTokens);
      expect(usage[0]!.estimatedCost).toBeUndefined();
    } finally {
      await stop();
    }
  });

  it('stops between pieces when aborted mid-stream', async () => {
    const { app, stop } = await bootApp({ plugins: [[plugin, { chunkSize: 1 }, { id: 'offline' }]] });
    try {
      const provider = app.services.providers(llm)[0]!.impl;
      const controller = new AbortController();
      const seen: string[] = [];
      const run = async () => {
        for await (const event of provider.chatStream(
          { sessionId: 's', purpose: 'conversation', messages: [{ role: 'user', content: 'hello' }] },
          { signal: controller.signal },
        )) {
          if (event.type === 'text-delta') seen.push(event.text);
          if (seen.length === 3) controller.abort();
        }
      };
      await expect(run()).rejects.toMatchObject({ code: 'AALIS_LLM_ABORTED', details: { outputStarted: true } });
      expect(seen).toHaveLength(3);
    } finally {
      await stop();
    }
  });
});
