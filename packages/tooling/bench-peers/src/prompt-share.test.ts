import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { PromptTokenizer, promptSegments } from './prompt-share.js';

const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
const system = { role: 'system', content: 'You are helpful.' };
const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

describe('promptSegments', () => {
  it('renders the tools, then each message with what the model reads, whatever the JSON spelling', () => {
    const call = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"key":"k"}' } }],
    };
    const segments = promptSegments({
      tools,
      messages: [system, { content: [{ type: 'text', text: 'hi' }], role: 'user' }, call],
    });
    expect(segments).toEqual([
      JSON.stringify(tools),
      '<|system|>You are helpful.',
      '<|user|>hi',
      '<|assistant|><|call c1|>lookup({"key":"k"})',
    ]);
    expect(promptSegments({ messages: [{ role: 'tool', content: 'v', tool_call_id: 'c1' }] })).toEqual([
      '',
      '<|tool|>v<|result of c1|>',
    ]);
  });
});

describe('PromptTokenizer.share', () => {
  const tokenizer = new PromptTokenizer();
  const tokensOf = (body: { tools?: unknown; messages: unknown[] }) =>
    promptSegments(body).reduce((sum, segment) => sum + encode(segment).length, 0);

  it('counts an append-only conversation as all cached but what was added', () => {
    const first = { tools, messages: [system, user('one')] };
    const second = { tools, messages: [system, user('one'), assistant('two'), user('three')] };
    const result = tokenizer.share([first, second]);
    expect(result.requests).toBe(1);
    expect(result.promptTokens).toBe(tokensOf(second));
    expect(result.prefixTokens).toBe(tokensOf(first));
    expect(result.share).toBeCloseTo(tokensOf(first) / tokensOf(second));
  });

  it('stops the shared prefix where a message was dropped from the front, and within a changed message', () => {
    const first = { tools, messages: [system, user('one'), assistant('two'), user('three')] };
    const cut = { tools, messages: [system, user('three'), assistant('four')] };
    expect(tokenizer.share([first, cut]).prefixTokens).toBe(
      encode(JSON.stringify(tools)).length + encode('<|system|>You are helpful.').length + encode('<|user|>').length,
    );
    const noTools = { messages: [system, user('one')] };
    expect(tokenizer.share([first, noTools]).prefixTokens).toBe(0);
  });

  it('has nothing to share with fewer than two requests', () => {
    expect(tokenizer.share([{ messages: [user('x')] }])).toEqual({
      requests: 0,
      promptTokens: 0,
      prefixTokens: 0,
      share: 0,
    });
  });
});
