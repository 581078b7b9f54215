import { describe, expect, it } from 'vitest';
import { StreamAssembler } from './stream-assembler.js';
import type { WireStreamEvent } from './stream-events.js';
import type { ChatCompletionChunk } from './wire-types.js';

function run(chunks: ChatCompletionChunk[]) {
  const assembler = new StreamAssembler();
  const events: WireStreamEvent[] = [];
  for (const chunk of chunks) assembler.push(chunk, events);
  return { events, response: assembler.finish() };
}

const delta = (value: NonNullable<NonNullable<ChatCompletionChunk['choices']>[number]['delta']>, finish?: string) => ({
  choices: [{ index: 0, delta: value, finish_reason: finish ?? null }],
});

describe('StreamAssembler', () => {
  it('streams text and reasoning and concatenates them', () => {
    const { events, response } = run([
      { model: 'm-1', ...delta({ role: 'assistant', reasoning_content: 'think ' }) },
      delta({ reasoning: 'more' }),
      delta({ content: 'Hel' }),
      delta({ content: 'lo' }, 'stop'),
    ]);
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'think ' },
      { type: 'reasoning-delta', text: 'more' },
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
    expect(response).toMatchObject({
      content: 'Hello',
      reasoningContent: 'think more',
      finishReason: 'stop',
      serverModel: 'm-1',
      usageReported: false,
      usage: { promptTokens: 0, completionTokens: 0 },
    });
  });

  it('assembles parallel tool calls from fragments across chunks', () => {
    const { events, response } = run([
      delta({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'search', arguments: '' } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'clock', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"cats"}' } }] }, 'tool_calls'),
    ]);
    expect(response.toolCalls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q":"cats"}' } },
      { id: 'call_b', type: 'function', function: { name: 'clock', arguments: '{}' } },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(events[1]).toEqual({
      type: 'tool-call-delta',
      index: 0,
      id: 'call_a',
      name: 'search',
      argumentsDelta: '{"q":',
    });
  });

  it('matches fragments without an index by id, and names calls without an id', () => {
    const { response } = run([
      delta({ tool_calls: [{ id: 'x', function: { name: 'a', arguments: '{"n"' } }] }),
      delta({ tool_calls: [{ id: 'x', function: { arguments: ':1}' } }] }),
      delta({ tool_calls: [{ id: 'y', function: { name: 'b', arguments: '{}' } }] }, 'stop'),
      delta({ tool_calls: [{ index: 2, function: { name: 'c', arguments: '{}' } }] }),
    ]);
    expect(response.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ['x', 'a', '{"n":1}'],
      ['y', 'b', '{}'],
      ['call_2', 'c', '{}'],
    ]);
    expect(response.finishReason).toBe('tool-calls');
  });

  it('reads usage with OpenAI and DeepSeek cached-token fields', () => {
    const openai = run([
      delta({ content: 'a' }, 'stop'),
      {
        choices: [],
        usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 64 } },
      },
    ]);
    expect(openai.response.usage).toEqual({ promptTokens: 100, completionTokens: 5, cachedPromptTokens: 64 });
    expect(openai.response.usageReported).toBe(true);
    const deepseek = run([
      {
        ...delta({ content: 'a' }, 'stop'),
        usage: { prompt_tokens: 9, completion_tokens: 1, prompt_cache_hit_tokens: 8 },
      },
    ]);
    expect(deepseek.response.usage).toEqual({ promptTokens: 9, completionTokens: 1, cachedPromptTokens: 8 });
  });

  it('maps finish reasons', () => {
    const reason = (raw: string | undefined) => run(raw ? [delta({ content: 'x' }, raw)] : []).response.finishReason;
    expect([reason('stop'), reason('length'), reason('content_filter'), reason('weird'), reason(undefined)]).toEqual([
      'stop',
      'length',
      'content-filter',
      'other',
      'other',
    ]);
  });
});
