// Structured-output personas: envelope stored, visible text sent, format retries never dispatched.
import { type Persona, persona } from '@aalis/api-persona';
import { definePlugin, provide } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const structured: Persona = {
  id: 'json',
  name: 'JSON persona',
  prompt: 'You answer in JSON.',
  structuredOutput: {
    type: 'object',
    properties: { reply: { type: 'string' }, mood: { type: 'string' } },
    required: ['reply', 'mood'],
  },
};

const personaPlugin = definePlugin({
  name: '@test/persona',
  provides: [persona],
  uses: { provide },
  apply({ provide }) {
    provide.use.service(persona, {
      list: () => [structured],
      get: (id) => (id === 'json' ? structured : undefined),
      search: () => [structured],
      forSession: async () => structured,
      reload: async () => ({ personas: [structured], problems: [] }),
      problems: () => [],
    });
  },
});

describe('结构化输出', () => {
  it('stores the envelope, records the visible text, and dispatches only the visible text', async () => {
    harness = await startHarness({ extra: [personaPlugin] });
    const replies = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('{"reply":"你好","mood":"happy"}'));
    await harness.say('hi');
    expect(replies.map((r) => r.content)).toEqual(['你好']);
    const stored = (await harness.history()).find((m) => m.role === 'assistant')!;
    expect(stored.content).toBe('{"reply":"你好","mood":"happy"}');
    expect(stored.metadata?.[WellKnownMetadataKeys.VisibleContent]).toBe('你好');
    expect(String(harness.requests()[0]!.messages[0]!.content)).toContain('[输出格式]');
  });

  it('retries a reply that fails the schema with feedback as the last message; the failed version is never sent', async () => {
    harness = await startHarness({ extra: [personaPlugin] });
    const replies = harness.booted.capture('outbound:message');
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(textReply('just text'), textReply('{"reply":"ok now","mood":"calm"}'));
    await harness.say('hi');
    expect(replies.map((r) => r.content)).toEqual(['ok now']);
    const retry = harness.requests()[1]!.messages;
    expect(String(retry.at(-1)!.content)).toContain('[格式校验]');
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: 'just text' });
    expect(usage).toHaveLength(2);
    const stored = await harness.history();
    expect(stored.some((m) => m.content === 'just text')).toBe(false);
  });

  it('the next turn sees her earlier replies in their visible form', async () => {
    harness = await startHarness({ extra: [personaPlugin] });
    harness.server.enqueue(textReply('{"reply":"first","mood":"x"}'), textReply('{"reply":"second","mood":"y"}'));
    await harness.say('one');
    await harness.say('two');
    const second = harness.requests()[1]!.messages;
    expect(second.some((m) => m.role === 'assistant' && m.content === 'first')).toBe(true);
  });
});
