// A handler error that carries its own code (TOOL_ERROR_CODE, as the page layer's PageError does for a rejected
// confirmation) keeps that code in the call's result and its tool-result event; any other error is TOOL_FAILED.
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from './runtime.js';
import { manualClock, scriptedLlm, toolCall } from './test-helpers.case.js';
import { type AgentTool, TOOL_ERROR_CODE } from './tool.js';

function coded(code: string, message: string): Error {
  return Object.defineProperty(new Error(message), TOOL_ERROR_CODE, { value: code });
}

function run(execute: AgentTool['execute']) {
  const llm = scriptedLlm([{ toolCalls: [toolCall('a', 'send')] }, { content: 'ok' }]);
  const tools: AgentTool[] = [{ name: 'send', description: 'send', parameters: { type: 'object' }, execute }];
  const session = createAgentRuntime({ config: { model: 'm' }, llm, tools, clock: manualClock() }).session();
  return { llm, session };
}

describe('coded tool errors', () => {
  it('a thrown error with TOOL_ERROR_CODE keeps its code for the model and in the tool-result event', async () => {
    const { llm, session } = run(() => {
      throw coded('CONFIRMATION_REJECTED', 'CONFIRMATION_REJECTED: The user did not approve send.');
    });
    await expect(session.send('go')).resolves.toMatchObject({ outcome: 'completed' });
    const toolMessage = llm.requests[1]!.messages.find((message) => message.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({
      error: { code: 'CONFIRMATION_REJECTED', message: 'The user did not approve send.' },
    });
    expect(session.events().find((event) => event.type === 'tool-result')).toMatchObject({
      ok: false,
      code: 'CONFIRMATION_REJECTED',
    });
  });

  it('an error without one, or with a code that is not UPPER_SNAKE, is TOOL_FAILED', async () => {
    for (const error of [new Error('SMTP refused'), coded('not a code', 'SMTP refused')]) {
      const { llm, session } = run(() => {
        throw error;
      });
      await session.send('go');
      const toolMessage = llm.requests[1]!.messages.find((message) => message.role === 'tool')!;
      expect(JSON.parse(toolMessage.content)).toEqual({ error: { code: 'TOOL_FAILED', message: 'SMTP refused' } });
    }
  });
});
