import { describe, expect, it } from 'vitest';
import { assembleCompletion } from './assemble-completion.js';

describe('assembleCompletion', () => {
  it('reads a non-streaming response into events and a response', () => {
    const { events, response } = assembleCompletion({
      model: 'm',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'done',
            reasoning_content: 'why',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{"a":1}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } },
    });
    expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'text-delta', 'tool-call-delta']);
    expect(response).toEqual({
      content: 'done',
      reasoningContent: 'why',
      toolCalls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{"a":1}' } }],
      usage: { promptTokens: 3, completionTokens: 2, cachedPromptTokens: 1 },
      usageReported: true,
      finishReason: 'tool-calls',
      serverModel: 'm',
    });
  });
});
