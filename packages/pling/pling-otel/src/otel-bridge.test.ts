// The bridge on a real Pling runtime (a scripted model client stands in for the model service), spans recorded by
// the OpenTelemetry SDK's in-memory exporter.

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ModelRequest, ModelResponse } from '@plingjs/agent';
import { createAgentRuntime } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { createPlingOtelBridge } from './otel-bridge.js';

function setup(replies: Array<Partial<ModelResponse>>, captureContent = false) {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
    'pling-test',
  );
  const bridge = createPlingOtelBridge({ tracer, captureContent });
  const queue = [...replies];
  const llm = bridge.llm({
    async complete(_request: ModelRequest) {
      return { content: '', toolCalls: [], ...(queue.shift() ?? { content: 'done' }) };
    },
  });
  const runtime = createAgentRuntime({
    config: { model: 'page-model' },
    llm,
    onEvent: bridge.onEvent,
    tools: [
      { name: 'add_todo', description: 'Adds a todo', parameters: { type: 'object' }, execute: () => ({ id: 1 }) },
      {
        name: 'delete_all',
        description: 'Fails',
        parameters: { type: 'object' },
        execute: () => {
          throw new Error('nope: secret-row-7');
        },
      },
    ],
  });
  return { exporter, runtime };
}

const call = (id: string, name: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: '{"title":"milk"}' },
});

describe('@plingjs/otel bridge', () => {
  it('traces a run as invoke_agent with chat and execute_tool children, without content by default', async () => {
    const { exporter, runtime } = setup([
      {
        toolCalls: [call('c1', 'add_todo'), call('c2', 'delete_all')],
        usage: { promptTokens: 50, completionTokens: 5 },
      },
      { content: 'Added milk.', usage: { promptTokens: 70, completionTokens: 3, cachedPromptTokens: 40 } },
    ]);
    const result = await runtime.session('tab-1').send('add milk, my card is 4111');
    expect(result.outcome).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'invoke_agent pling')!;
    expect(run.attributes).toMatchObject({ 'gen_ai.conversation.id': 'tab-1', 'pling.run.outcome': 'completed' });
    expect(run.parentSpanContext).toBeUndefined();
    const chats = spans.filter((span) => span.name === 'chat page-model');
    expect(chats).toHaveLength(2);
    expect(chats[0]!.kind).toBe(SpanKind.CLIENT);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.response.finish_reasons': ['tool_call'],
    });
    expect(chats[1]!.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 40,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    const tools = spans.filter((span) => span.name.startsWith('execute_tool'));
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['c1', 'c2']);
    expect(tools[0]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(tools[1]!.status.code).toBe(SpanStatusCode.ERROR);
    for (const child of [...chats, ...tools]) expect(child.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.events]));
    expect(everything).not.toContain('4111');
    expect(everything).not.toContain('milk');
    expect(everything).not.toContain('secret-row-7');
  });

  it('records the (already redacted) messages only with captureContent', async () => {
    const { exporter, runtime } = setup([{ content: 'Hello there.' }], true);
    await runtime.session().send('hi');
    const chat = exporter.getFinishedSpans().find((span) => span.name.startsWith('chat'))!;
    expect(String(chat.attributes['gen_ai.input.messages'])).toContain('hi');
    expect(String(chat.attributes['gen_ai.output.messages'])).toContain('Hello there.');
  });

  it('marks a failed run and its model call as errors', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
    const bridge = createPlingOtelBridge({ tracer });
    const failing = Object.assign(new Error('refused'), { code: 'MODEL_HTTP_ERROR', retryable: false });
    const runtime = createAgentRuntime({
      config: { model: 'm' },
      onEvent: bridge.onEvent,
      llm: bridge.llm({
        complete: async () => {
          throw failing;
        },
      }),
    });
    const result = await runtime.session().send('hi');
    expect(result.outcome).toBe('error');
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((span) => span.name === 'chat m')!;
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    const run = spans.find((span) => span.name.startsWith('invoke_agent'))!;
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['pling.run.outcome']).toBe('error');
    expect(typeof run.attributes['error.type']).toBe('string');
  });
});
