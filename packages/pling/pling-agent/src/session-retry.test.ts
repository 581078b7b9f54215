// session.retry(): after a run that ended with an error, the person's last message is answered again from the
// history as it stands — not added a second time — and with no user message there is nothing to retry.
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from './runtime.js';
import { manualClock, scriptedLlm, toolCall } from './test-helpers.case.js';
import type { AgentTool } from './tool.js';

const failing = () => {
  throw Object.assign(new Error('upstream exploded'), { code: 'MODEL_REQUEST_FAILED' });
};

describe('session.retry()', () => {
  it('answers the last message again without adding it twice, after an error', async () => {
    const llm = scriptedLlm([failing, { content: 'Here you are.' }]);
    const session = createAgentRuntime({
      config: { model: 'm', retry: { maxRetries: 0 } },
      llm,
      clock: manualClock(),
    }).session();
    expect(await session.send('show order 7')).toMatchObject({ outcome: 'error' });
    await expect(session.retry()).resolves.toMatchObject({ outcome: 'completed', text: 'Here you are.', turns: 1 });
    const users = llm.requests.at(-1)!.messages.filter((message) => message.role === 'user');
    expect(users.map((message) => message.content)).toEqual(['show order 7']);
    const userEvents = session.events().filter((event) => event.type === 'message' && event.role === 'user');
    expect(userEvents).toHaveLength(1);
  });

  it('carries on after the tool results of the failed run (every call answered, nothing run twice)', async () => {
    let ran = 0;
    const tools: AgentTool[] = [
      { name: 'look', description: 'look', parameters: { type: 'object' }, execute: () => ({ seen: ++ran }) },
    ];
    const llm = scriptedLlm([{ toolCalls: [toolCall('a', 'look')] }, failing, { content: 'Done.' }]);
    const session = createAgentRuntime({
      config: { model: 'm', retry: { maxRetries: 0 } },
      llm,
      tools,
      clock: manualClock(),
    }).session();
    expect(await session.send('look around')).toMatchObject({ outcome: 'error' });
    expect(await session.retry()).toMatchObject({ outcome: 'completed', text: 'Done.' });
    expect(ran).toBe(1);
    expect(llm.requests.at(-1)!.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('with no user message in the history nothing runs: NOTHING_TO_RETRY', async () => {
    const llm = scriptedLlm([]);
    const session = createAgentRuntime({ config: { model: 'm', locale: 'en' }, llm, clock: manualClock() }).session();
    const result = await session.retry();
    expect(result).toMatchObject({ outcome: 'error', turns: 0, error: { code: 'NOTHING_TO_RETRY' } });
    expect(result.error?.message).toContain('send()');
    expect(llm.requests).toHaveLength(0);
  });
});
