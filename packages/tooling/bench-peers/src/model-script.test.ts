import { describe, expect, it } from 'vitest';
import { lookupValue, replyText, scriptedAnswer, summaryText, TOOL_NAME, userMessage } from './model-script.js';

const tools = [{ type: 'function', function: { name: TOOL_NAME, parameters: { type: 'object' } } }];
const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'm',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content },
  ],
  tools,
  ...extra,
});

describe('scriptedAnswer', () => {
  it('asks for one lookup when the user asks for a value, streamed or as JSON as the request says', () => {
    const json = scriptedAnswer(ask(`[05-01 10:00] alice: ${userMessage(7, true)}`));
    expect(json).toMatchObject({
      type: 'json',
      toolCalls: [{ id: 'call_7', name: TOOL_NAME, arguments: '{"key":"k7"}' }],
    });
    const streamed = scriptedAnswer(ask(userMessage(7, true), { stream: true }));
    expect(streamed.type).toBe('stream');
    expect(JSON.stringify(streamed)).toContain('"finish":"tool_calls"');
  });

  it('gives the turn’s reply after the tool result and to a plain message, with usage counting the prompt', () => {
    const afterTool = scriptedAnswer({
      model: 'm',
      tools,
      messages: [
        { role: 'user', content: userMessage(7, true) },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_7', function: { name: TOOL_NAME } }] },
        { role: 'tool', content: lookupValue('k7'), tool_call_id: 'call_7' },
      ],
    });
    expect(afterTool).toMatchObject({ type: 'json', content: replyText(7) });
    const plain = scriptedAnswer(ask(userMessage(8, false)));
    expect(plain).toMatchObject({ type: 'json', content: replyText(8) });
    if (plain.type !== 'json') throw new Error('expected JSON');
    expect(plain.usage!.promptTokens).toBeGreaterThan(10);
    expect(replyText(8)).not.toBe(replyText(9));
  });

  it('answers a request that offers no tool to call with a summary, never a tool call', () => {
    const transcript = `Summarise:\nuser: ${userMessage(12, true)}`;
    expect(scriptedAnswer(ask(transcript, { tool_choice: 'none' }))).toMatchObject({ content: summaryText(12) });
    expect(scriptedAnswer(ask(transcript, { tools: undefined }))).toMatchObject({ content: summaryText(12) });
  });
});
