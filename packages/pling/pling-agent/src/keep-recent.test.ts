// `keepRecent: 0` never drops the user's new message, and retries count from 1.
import { describe, expect, it } from 'vitest';
import { PlingError } from './errors.js';
import { splitForCompaction } from './history.js';
import type { ModelRequest } from './llm-client.js';
import { createAgentRuntime } from './runtime.js';
import { manualClock, scriptedLlm, toolCall } from './test-helpers.case.js';
import { TEXTS } from './texts.js';

const long = 'x'.repeat(2_000);

describe('keepRecent: 0 and the retry count', () => {
  it("keepRecent: 0 never drops the user's new message from the request", async () => {
    // Summary requests answer 'summary'; conversation requests answer a long text, then 'answer'.
    const answers = [long, 'answer'];
    const llm = scriptedLlm(
      Array.from({ length: 6 }, () => (request: ModelRequest) => ({
        content: request.messages[0]!.content === TEXTS['zh-CN'].summaryPrompt ? 'summary' : answers.shift()!,
        toolCalls: [],
      })),
    );
    const runtime = createAgentRuntime({
      config: { model: 'm', limits: { contextTokens: 1_200, reserveForOutput: 200, keepRecent: 0 } },
      llm,
      clock: manualClock(),
    });
    const session = runtime.session();
    await session.send(long);
    // The history is now well above the watermark, so the next turn compacts everything but the new message.
    expect(await session.send('the new question')).toMatchObject({ outcome: 'completed', text: 'answer' });
    const sent = llm.requests.at(-1)!.messages;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user']);
    expect(sent[1]!.content).toBe('the new question');
    expect(session.events().some((event) => event.type === 'compacted')).toBe(true);
  });

  it('the protected message stays verbatim even when later tool groups of its run are summarised', () => {
    const user = { role: 'user' as const, content: 'do it' };
    const messages = [
      { role: 'user' as const, content: 'old' },
      user,
      { role: 'assistant' as const, content: '', toolCalls: [toolCall('a', 't')] },
      { role: 'tool' as const, toolCallId: 'a', name: 't', content: '1' },
      { role: 'assistant' as const, content: '', toolCalls: [toolCall('b', 't')] },
      { role: 'tool' as const, toolCallId: 'b', name: 't', content: '2' },
    ];
    const split = splitForCompaction(messages, 2, user)!;
    expect(split.kept[0]).toBe(user);
    expect(split.kept.map((message) => message.content)).toEqual(['do it', '', '2']);
    expect(split.older.map((message) => message.content)).toEqual(['old', '', '1']);
    expect(splitForCompaction([user], 0, user)).toBeUndefined();
  });

  it('the first retry is retry 1', async () => {
    const failure = () => new PlingError({ code: 'NETWORK_ERROR', message: 'offline', retryable: true });
    const llm = scriptedLlm([failure(), failure(), { content: 'ok' }]);
    const runtime = createAgentRuntime({ config: { model: 'm' }, llm, clock: manualClock() });
    const session = runtime.session();
    await session.send('hi');
    const retries = session.events().filter((event) => event.type === 'retry');
    expect(retries.map((event) => event.type === 'retry' && event.retry)).toEqual([1, 2]);
  });
});
