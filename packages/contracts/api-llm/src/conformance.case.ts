// The llm contract's conformance suite: every provider runs it (`describeLlmConformance` in its own tests), so
// each behaves the same toward the agent. Providers supply a harness that can make their next call answer a
// given way (a scripted test server, the offline model's `/call` syntax…).
import { AalisError } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from './chat-request.js';
import type { ChatResponse, ChatStreamEvent } from './chat-stream-event.js';
import type { LlmService } from './llm-service.js';
import type { LlmUsageEvent } from './llm-usage-event.js';

export type ConformanceScenario =
  | { kind: 'text' }
  | { kind: 'tool-calls'; calls: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { kind: 'after-tool'; toolName: string; result: string };

export interface LlmConformanceHarness {
  service: LlmService;
  /** A model of this provider that supports tools. */
  model: string;
  /** Prepares the provider's next call to answer as the scenario says; returns the messages to send. */
  prepare(scenario: ConformanceScenario): Message[];
  /** The `llm:usage` events emitted so far. */
  usage(): readonly LlmUsageEvent[];
  close(): Promise<void>;
}

const tools = [
  { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: {} } },
  { name: 'get_time', description: 'Time in a city', parameters: { type: 'object', properties: {} } },
];

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function finalOf(events: ChatStreamEvent[]): ChatResponse {
  const last = events.at(-1);
  if (last?.type !== 'response') throw new Error('the last event is not the response');
  return last.response;
}

async function failure(run: () => Promise<unknown>): Promise<AalisError> {
  try {
    await run();
  } catch (error) {
    if (AalisError.isInstance(error)) return error;
    throw new Error(`expected an AalisError, got ${String(error)}`);
  }
  throw new Error('expected the call to fail');
}

export function describeLlmConformance({
  name,
  setup,
}: {
  name: string;
  setup: () => Promise<LlmConformanceHarness>;
}): void {
  describe(`llm contract: ${name}`, () => {
    let harness: LlmConformanceHarness;
    const request = (messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest => ({
      model: harness.model,
      messages,
      sessionId: 'conformance-session',
      purpose: 'conversation',
      ...extra,
    });

    beforeAll(async () => {
      harness = await setup();
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('offers models named <provider instance id>/<model id> with sane limits', () => {
      const models = harness.service.models();
      expect(models.length).toBeGreaterThan(0);
      expect(models.map((model) => model.id)).toContain(harness.model);
      for (const model of models) {
        expect(model.id).toBe(`${model.provider}/${model.model}`);
        expect(model.name.length).toBeGreaterThan(0);
        expect(model.contextWindow).toBeGreaterThan(0);
        expect(model.maxOutputTokens).toBeGreaterThan(0);
        expect(typeof model.capabilities.tools).toBe('boolean');
        expect(typeof model.capabilities.vision).toBe('boolean');
        if (model.thinking !== 'not-adjustable') {
          const { levels, default: fallback } = model.thinking;
          expect(levels.map((level) => level.id)).toContain(fallback);
        }
      }
    });

    it('streams text deltas that add up to the content, and ends with one response', async () => {
      const events = await collect(harness.service.chatStream(request(harness.prepare({ kind: 'text' }))));
      const response = finalOf(events);
      expect(events.filter((event) => event.type === 'response')).toHaveLength(1);
      const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
      expect(response.content.length).toBeGreaterThan(0);
      expect(text).toBe(response.content);
      expect(response.toolCalls).toEqual([]);
      expect(response.finishReason).toBe('stop');
      expect(response.model).toBe(harness.model);
      expect(Number.isFinite(response.usage.promptTokens)).toBe(true);
      expect(Number.isFinite(response.usage.completionTokens)).toBe(true);
    });

    it('answers chat() with the same kind of response', async () => {
      const response = await harness.service.chat(request(harness.prepare({ kind: 'text' })));
      expect(response.content.length).toBeGreaterThan(0);
      expect(response.model).toBe(harness.model);
      expect(response.finishReason).toBe('stop');
    });

    it('streams parallel tool calls whose deltas add up to the final calls', async () => {
      const calls = [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_time', arguments: { city: 'Tokyo', format: '24h' } },
      ];
      const events = await collect(
        harness.service.chatStream(request(harness.prepare({ kind: 'tool-calls', calls }), { tools })),
      );
      const response = finalOf(events);
      expect(response.finishReason).toBe('tool-calls');
      expect(response.toolCalls.map((call) => call.function.name)).toEqual(['get_weather', 'get_time']);
      expect(response.toolCalls.map((call) => JSON.parse(call.function.arguments))).toEqual(
        calls.map((call) => call.arguments),
      );
      expect(new Set(response.toolCalls.map((call) => call.id)).size).toBe(2);
      const fromDeltas = new Map<number, { id?: string; name?: string; args: string }>();
      for (const event of events) {
        if (event.type !== 'tool-call-delta') continue;
        const entry = fromDeltas.get(event.index) ?? { args: '' };
        entry.id = event.id ?? entry.id;
        entry.name = event.name ?? entry.name;
        entry.args += event.argumentsDelta;
        fromDeltas.set(event.index, entry);
      }
      expect([...fromDeltas.values()]).toEqual(
        response.toolCalls.map((call) => ({ id: call.id, name: call.function.name, args: call.function.arguments })),
      );
    });

    it('answers with text after a tool result', async () => {
      const messages = harness.prepare({ kind: 'after-tool', toolName: 'get_weather', result: 'Sunny, 21 °C' });
      const response = await harness.service.chat(request(messages, { tools }));
      expect(response.toolCalls).toEqual([]);
      expect(response.content.length).toBeGreaterThan(0);
    });

    it('emits llm:usage once per completed call, with session, purpose, provider and model', async () => {
      const before = harness.usage().length;
      const response = await harness.service.chat(
        request(harness.prepare({ kind: 'text' }), { sessionId: 'usage-session', purpose: 'subtask' }),
      );
      const after = harness.usage();
      expect(after.length).toBe(before + 1);
      const event = after.at(-1)!;
      const model = harness.service.models().find((candidate) => candidate.id === harness.model)!;
      expect(event).toMatchObject({
        sessionId: 'usage-session',
        purpose: 'subtask',
        provider: model.provider,
        model: harness.model,
        promptTokens: response.usage.promptTokens,
        completionTokens: response.usage.completionTokens,
      });
      expect(event.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('fails with AALIS_LLM_ABORTED, and emits no usage, when the signal is aborted', async () => {
      const before = harness.usage().length;
      const controller = new AbortController();
      controller.abort();
      const error = await failure(() =>
        collect(harness.service.chatStream(request([{ role: 'user', content: 'hi' }]), { signal: controller.signal })),
      );
      expect(error.code).toBe('AALIS_LLM_ABORTED');
      expect(error.isRetryable).toBe(false);
      expect(harness.usage().length).toBe(before);
    });

    it('fails with AALIS_LLM_MODEL_NOT_FOUND for a model it does not offer', async () => {
      const error = await failure(() =>
        harness.service.chat(request([{ role: 'user', content: 'hi' }], { model: `${harness.model}-missing` })),
      );
      expect(error.code).toBe('AALIS_LLM_MODEL_NOT_FOUND');
      expect(error.isRetryable).toBe(false);
      expect(error.details.model).toBe(`${harness.model}-missing`);
    });

    it('ignores a thinking level the model does not declare', async () => {
      const response = await harness.service.chat(
        request(harness.prepare({ kind: 'text' }), { thinkingLevel: 'no-such-level' }),
      );
      expect(response.content.length).toBeGreaterThan(0);
    });
  });
}
