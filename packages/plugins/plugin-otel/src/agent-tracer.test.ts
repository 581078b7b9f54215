// The spans of a real agent turn (the agent harness: real services, the OpenAI provider over HTTP to the scripted
// server), recorded with the SDK's in-memory exporter.
import type { Tool } from '@aalis/api-tools';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { errorReply, textReply, toolCallReply } from '@aalis/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createOtelPlugin } from './index.js';

let harness: Harness | undefined;
let exporter: InMemorySpanExporter;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const weather: Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  handler: (args) => `Sunny in ${String((args as { city?: string }).city)} (secret-forecast-token)`,
};
const broken: Tool = {
  name: 'broken_tool',
  description: 'Always fails',
  parameters: { type: 'object', properties: {} },
  handler: () => {
    throw new Error('disk on fire');
  },
};

async function start(config: Record<string, unknown> = {}) {
  exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const plugin = createOtelPlugin({ tracer: provider.getTracer('test') });
  harness = await startHarness({ tools: [weather, broken], extra: [[plugin, config]] });
  return harness;
}

const spans = () => exporter.getFinishedSpans();
const named = (prefix: string) => spans().filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('@aalis/plugin-otel spans', () => {
  it('traces a turn as invoke_agent with chat and execute_tool children, no content by default', async () => {
    const h = await start();
    h.server.enqueue(
      toolCallReply([{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }], {
        usage: { promptTokens: 120, completionTokens: 9, cachedTokens: 64 },
      }),
    );
    h.server.enqueue(textReply('It is sunny in Paris.', { usage: { promptTokens: 150, completionTokens: 7 } }));
    const executed = h.booted.capture('tool:execute');
    await h.say('weather in Paris, my password is hunter2');

    const [turn] = named('invoke_agent');
    expect(turn).toBeDefined();
    expect(turn!.name).toBe('invoke_agent aalis');
    expect(parentOf(turn!)).toBeUndefined();
    expect(turn!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'aalis',
      'gen_ai.conversation.id': 'cli:owner',
      'aalis.turn.outcome': 'replied',
    });
    expect(typeof turn!.attributes['aalis.turn.id']).toBe('string');
    expect(turn!.status.code).toBe(SpanStatusCode.UNSET);

    const chats = named('chat ');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(chat)).toBe(turn!.spanContext().spanId);
      expect(chat.spanContext().traceId).toBe(turn!.spanContext().traceId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'test-model',
        'gen_ai.response.model': 'test-model',
        'aalis.llm.model_ref': 'test/test-model',
        'gen_ai.provider.name': 'test',
        'aalis.turn.id': turn!.attributes['aalis.turn.id'],
        'aalis.context.trimmed': false,
      });
      expect(chat.attributes['aalis.context.token_budget']).toBeGreaterThan(0);
    }
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 9,
      'gen_ai.usage.cache_read.input_tokens': 64,
      'gen_ai.response.finish_reasons': ['tool_call'],
      'aalis.llm.iteration': 0,
    });
    expect(chats[1]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 150,
      'gen_ai.response.finish_reasons': ['stop'],
      'aalis.llm.iteration': 1,
    });

    const [tool] = named('execute_tool');
    expect(tool!.name).toBe('execute_tool get_weather');
    expect(parentOf(tool!)).toBe(turn!.spanContext().spanId);
    expect(tool!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
    });
    // The id the agent gave the call (the one tool:execute, the streamed progress and the history carry).
    expect(tool!.attributes['gen_ai.tool.call.id']).toBe(executed[0]!.callId);
    expect(tool!.status.code).toBe(SpanStatusCode.UNSET);
    // Ordered in time: the first chat ends before the tool starts, which ends before the second chat starts.
    const toNs = ([s, ns]: [number, number]) => s * 1e9 + ns;
    expect(toNs(chats[0]!.endTime)).toBeLessThanOrEqual(toNs(tool!.startTime));
    expect(toNs(tool!.endTime)).toBeLessThanOrEqual(toNs(chats[1]!.startTime));

    // Nothing of the conversation is in any span.
    const everything = JSON.stringify(spans().map((span) => span.attributes));
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('Paris');
    expect(everything).not.toContain('secret-forecast-token');
    expect(everything).not.toContain('gen_ai.input.messages');
  });

  it('records content only with captureContent', async () => {
    const h = await start({ captureContent: true });
    h.server.enqueue(toolCallReply([{ id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' } }]));
    h.server.enqueue(textReply('Sunny in Oslo.'));
    await h.say('weather in Oslo');
    const chats = named('chat ');
    const input = JSON.parse(String(chats[0]!.attributes['gen_ai.input.messages']));
    expect(input.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(input)).toContain('weather in Oslo');
    const output = JSON.parse(String(chats[1]!.attributes['gen_ai.output.messages']));
    expect(output).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Sunny in Oslo.' }], finish_reason: 'stop' },
    ]);
    const [tool] = named('execute_tool');
    expect(JSON.parse(String(tool!.attributes['gen_ai.tool.call.arguments']))).toEqual({ city: 'Oslo' });
    expect(tool!.attributes['gen_ai.tool.call.result']).toContain('Sunny in Oslo');
  });

  it('marks a failing tool and a failed model call as errors', async () => {
    const h = await start();
    h.server.enqueue(toolCallReply([{ id: 'call_b', name: 'broken_tool', arguments: {} }]));
    h.server.enqueue(errorReply(400, 'the request is not acceptable'));
    await h.say('break things');
    const [tool] = named('execute_tool');
    expect(tool!.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool!.attributes['error.type']).toBeTypeOf('string');
    expect(JSON.stringify(tool!.attributes)).not.toContain('disk on fire');
    const chats = named('chat ');
    expect(chats).toHaveLength(2);
    expect(chats[1]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(chats[1]!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    const [turn] = named('invoke_agent');
    expect(turn!.attributes['aalis.turn.outcome']).toBe('error');
    expect(turn!.status.code).toBe(SpanStatusCode.ERROR);
    expect(parentOf(chats[1]!)).toBe(turn!.spanContext().spanId);
  });
});
