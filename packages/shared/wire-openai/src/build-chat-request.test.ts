import { describe, expect, it } from 'vitest';
import { buildChatRequest, thinkingFields } from './build-chat-request.js';

describe('buildChatRequest', () => {
  it('asks for usage when streaming and maps tools and limits', () => {
    expect(
      buildChatRequest({
        model: 'gpt-x',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        tools: [{ name: 'clock', description: 'time', parameters: { type: 'object' } }],
        toolChoice: { name: 'clock' },
        temperature: 0.2,
        maxTokens: 100,
        maxTokensField: 'max_completion_tokens',
        extra: { reasoning_effort: 'low' },
      }),
    ).toEqual({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'clock', description: 'time', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'clock' } },
      temperature: 0.2,
      max_completion_tokens: 100,
      reasoning_effort: 'low',
    });
  });

  it('sends no stream_options without streaming, and no tools field for an empty list', () => {
    const body = buildChatRequest({ model: 'm', messages: [], stream: false, tools: [], toolChoice: 'auto' });
    expect(body).toEqual({ model: 'm', messages: [], stream: false });
  });

  it('lets extra fields not override the essentials', () => {
    const body = buildChatRequest({ model: 'm', messages: [], stream: false, extra: { model: 'other', top_k: 3 } });
    expect(body).toMatchObject({ model: 'm', top_k: 3 });
  });
});

describe('thinkingFields', () => {
  it('uses reasoning_effort with the level id by default', () => {
    expect(thinkingFields({ level: 'high' })).toEqual({ reasoning_effort: 'high' });
  });

  it('maps levels to values at a nested field', () => {
    const param = { field: 'chat_template_kwargs.enable_thinking', values: { off: false, on: true } };
    expect(thinkingFields({ level: 'off', param })).toEqual({ chat_template_kwargs: { enable_thinking: false } });
    expect(
      thinkingFields({ level: 'deep', param: { field: 'thinking', values: { deep: { type: 'enabled' } } } }),
    ).toEqual({
      thinking: { type: 'enabled' },
    });
  });
});
