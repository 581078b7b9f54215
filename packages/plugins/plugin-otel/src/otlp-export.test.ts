// The plugin as an operator runs it: configured only by OTEL_* environment variables, exporting with the standard
// OTLP/HTTP exporters to a local receiver that decodes the JSON and protobuf bodies.
import { hooks } from '@aalis/api-hooks';
import type { Tool } from '@aalis/api-tools';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { type OtlpReceiver, startOtlpReceiver, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import otelPlugin from './index.js';

let harness: Harness | undefined;
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  harness = undefined;
  receiver = undefined;
  vi.unstubAllEnvs();
});

const clock: Tool = {
  name: 'clock',
  description: 'The time',
  parameters: { type: 'object', properties: {} },
  handler: () => '12:00',
};

async function turnExported(protocol: 'http/json' | 'http/protobuf') {
  receiver = await startOtlpReceiver();
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', protocol);
  vi.stubEnv('OTEL_SERVICE_NAME', 'aalis-under-test');
  vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-tenant=acme');
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '50');
  harness = await startHarness({ tools: [clock], extra: [otelPlugin] });
  harness.server.enqueue(toolCallReply([{ id: 'call_1', name: 'clock', arguments: {} }]));
  harness.server.enqueue(textReply('It is noon.'));
  await harness.say('what time is it?');
  const spans = await receiver.waitForSpans(4);
  return { spans, received: receiver.exports };
}

describe('OTLP export configured by OTEL_* variables', () => {
  for (const protocol of ['http/json', 'http/protobuf'] as const) {
    it(`sends invoke_agent, chat and execute_tool spans over ${protocol}`, async () => {
      const { spans, received } = await turnExported(protocol);
      expect(received[0]!.contentType).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
      expect(received[0]!.headers['x-tenant']).toBe('acme');
      expect(received[0]!.resource['service.name']).toBe('aalis-under-test');
      const turn = spans.find((span) => span.name === 'invoke_agent aalis')!;
      expect(turn.parentSpanId).toBe('');
      expect(turn.attributes).toMatchObject({ 'gen_ai.conversation.id': 'cli:owner', 'aalis.turn.outcome': 'replied' });
      const chats = spans.filter((span) => span.name === 'chat test-model');
      expect(chats).toHaveLength(2);
      const tool = spans.find((span) => span.name === 'execute_tool clock')!;
      for (const child of [...chats, tool]) {
        expect(child.traceId).toBe(turn.traceId);
        expect(child.parentSpanId).toBe(turn.spanId);
      }
      expect(chats[0]!.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(chats[0]!.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 20,
        'gen_ai.usage.output_tokens': 8,
        'gen_ai.response.finish_reasons': ['tool_call'],
        'aalis.context.trimmed': false,
      });
      expect(tool.attributes['gen_ai.tool.name']).toBe('clock');
      expect(tool.attributes['gen_ai.tool.call.id']).toMatch(/^call_/);
    });
  }

  it('says in one log line when the backend refuses the traces, and the turns go on', async () => {
    receiver = await startOtlpReceiver();
    receiver.refuse(400);
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '20');
    harness = await startHarness({ extra: [otelPlugin] });
    for (const text of ['one', 'two']) {
      harness.server.enqueue(textReply(`reply ${text}`));
      await harness.say(text);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const warnings = harness.booted.logs.filter((record) => record.message.includes('traces could not be exported'));
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0]!.fields)).toContain(receiver.url);
    expect(receiver.spans()).toHaveLength(0);
  });

  it('registers nothing and starts no SDK when no OTEL_* variable asks for traces', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '');
    vi.stubEnv('OTEL_TRACES_EXPORTER', '');
    harness = await startHarness({ extra: [otelPlugin] });
    const service = harness.booted.app.services.selected(hooks)!.impl;
    const without = await startHarness();
    try {
      const keys = ['agent:turn:before', 'agent:llm:before', 'agent:llm:after', 'agent:turn:after'] as const;
      const counts = keys.map((key) => service.count(key));
      const baseline = keys.map((key) => without.booted.app.services.selected(hooks)!.impl.count(key));
      expect(counts).toEqual(baseline);
    } finally {
      await without.close();
    }
    expect(harness.booted.logs.some((record) => record.message.includes('OTLP'))).toBe(false);
  });

  it('says in one coded log line that grpc is not supported, and stays off', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:4317');
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc');
    harness = await startHarness({ extra: [otelPlugin] });
    const errors = harness.booted.logs.filter((record) => record.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc');
    expect(errors[0]!.message).toContain('http/protobuf');
    expect(harness.booted.app.states().find((state) => state.name === '@aalis/plugin-otel')?.state).toBe('active');
  });
});
