import { describe, expect, it } from 'vitest';
import { checkChatRequest } from './check-chat-request.js';

const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });
const check = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  checkChatRequest({ model: 'm', messages, ...extra })?.message;

describe('checkChatRequest', () => {
  it('accepts a complete tool loop, parallel results in any order', () => {
    expect(
      check([
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', content: 'rb', tool_call_id: 'b' },
        { role: 'tool', content: 'ra', tool_call_id: 'a' },
        { role: 'assistant', content: 'done' },
      ]),
    ).toBeUndefined();
  });

  it('rejects a tool result that answers no preceding tool_calls', () => {
    expect(
      check([
        { role: 'user', content: 'u' },
        { role: 'tool', content: 'r', tool_call_id: 'x' },
      ]),
    ).toContain("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'");
    expect(
      check([
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'tool', content: 'r', tool_call_id: 'a' },
        { role: 'tool', content: 'again', tool_call_id: 'a' },
      ]),
    ).toContain("must be a response to a preceeding message with 'tool_calls'");
  });

  it('rejects tool_calls left unanswered, before another message or at the end', () => {
    const unanswered = [
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: 'r', tool_call_id: 'a' },
    ];
    expect(check([...unanswered, { role: 'user', content: 'next' }])).toContain(
      'The following tool_call_ids did not have response messages: b',
    );
    expect(check(unanswered)).toContain('did not have response messages: b');
  });

  it('rejects malformed requests the way strict servers do', () => {
    expect(checkChatRequest('nope')?.message).toContain('could not parse');
    expect(checkChatRequest({ messages: [] })?.param).toBe('model');
    expect(check([])).toContain('empty array');
    expect(check([{ role: 'user', content: 'u' }], { stream_options: { include_usage: true } })).toContain(
      "'stream_options' parameter is only allowed when 'stream' is enabled",
    );
    expect(check([{ role: 'robot', content: 'u' }])).toContain("Invalid value: 'robot'");
    expect(check([{ role: 'assistant', content: null }])).toContain('needs content or tool_calls');
    expect(check([{ role: 'assistant', content: null, tool_calls: [{ id: 'a' }] }])).toContain('tool_calls[0]');
    expect(check([{ role: 'tool', content: 'r' }])).toContain('tool_call_id');
    expect(
      check([{ role: 'user', content: 'u' }], { tools: [{ type: 'function', function: { name: 'bad name!' } }] }),
    ).toContain('does not match pattern');
  });
});
