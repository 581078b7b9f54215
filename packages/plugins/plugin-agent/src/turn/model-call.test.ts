// callModel builds an outbound:stream fragment only while someone listens: a listener that subscribes mid-stream gets
// every fragment from then on, and without one the tool calls still run with the ids of the turn.

import type { OutboundStreamFragment } from '@aalis/api-gateway';
import type { Tool, ToolCallContext } from '@aalis/api-tools';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 'ab' at once, then after a pause 'cd' and 'ef' as two more deltas. */
const pausedText: ScriptedReply = {
  type: 'stream',
  steps: [
    { role: 'assistant' },
    { text: 'ab' },
    { flush: true },
    { delayMs: 400 },
    { text: 'cd' },
    { text: 'ef' },
    { finish: 'stop' },
    { usage: { promptTokens: 10, completionTokens: 3 } },
    { done: true },
  ],
};

describe('outbound:stream fragments (built only while someone listens)', () => {
  it('a listener that subscribes mid-stream gets the fragments from then on, and the end', async () => {
    harness = await startHarness();
    harness.server.enqueue(pausedText);
    const heard: OutboundStreamFragment[] = [];
    const turn = harness.say('hello');
    const until = Date.now() + 10_000;
    while (harness.requests().length === 0 && Date.now() < until) await sleep(10);
    // Inside the server's pause: 'ab' is out, 'cd' and 'ef' are not.
    await sleep(150);
    harness.booted.app.events.on('outbound:stream', (fragment) => {
      heard.push(fragment);
    });
    await turn;
    const text = heard.map((fragment) => fragment.delta ?? '').join('');
    expect(text.endsWith('cdef')).toBe(true);
    expect('abcdef'.endsWith(text)).toBe(true);
    expect(heard.at(-1)).toMatchObject({ sessionId: 'cli:owner', done: true });
  });

  it('with nobody listening, a tool call runs with the call id stored with its result', async () => {
    const contexts: ToolCallContext[] = [];
    const tool: Tool = {
      name: 'probe',
      description: 'records its context',
      parameters: { type: 'object', properties: {} },
      async handler(_args, context) {
        contexts.push(context);
        return 'probed';
      },
    };
    harness = await startHarness({ tools: [tool] });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'probe', arguments: {} }]), textReply('done'));
    expect(harness.booted.app.events.listens('outbound:stream')).toBe(false);
    await harness.say('go');
    expect(contexts).toHaveLength(1);
    const callId = contexts[0]!.callId;
    expect(callId).toMatch(/^call_/);
    const stored = (await harness.history()).find((message) => message.role === 'tool');
    expect(stored?.metadata?.[WellKnownMetadataKeys.CallId]).toBe(callId);
    expect(stored?.content).toBe('probed');
  });
});
