// End to end: the real `aalis chat` process talking to Claude (the emulated Messages API, enabled by
// ANTHROPIC_API_KEY alone) and exporting its traces to a local OTLP receiver named by OTEL_* variables only.
import {
  type AnthropicTestServer,
  type OtlpReceiver,
  startAnthropicTestServer,
  startOtlpReceiver,
  textReply,
} from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, temporaryWorkspace } from './spawn-aalis.case.js';

const KEY = 'sk-ant-e2e-secret-31337';
let server: AnthropicTestServer;
let receiver: OtlpReceiver;
beforeAll(async () => {
  server = await startAnthropicTestServer({ apiKey: KEY });
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('aalis chat with Claude and OTLP traces', () => {
  it(
    'answers through the Messages API and exports invoke_agent and chat spans over http/json',
    async () => {
      const workspace = temporaryWorkspace(
        `locale: en\nplugins:\n  llm-anthropic:\n    baseUrl: ${server.url}\n    models: [{ id: claude-e2e }]\n    proxy: ""\n`,
      );
      try {
        server.enqueue(textReply('Hello from Claude.'));
        const result = await runAalis({
          cwd: workspace.dir,
          args: ['chat'],
          input: 'Hi!\n',
          env: {
            ANTHROPIC_API_KEY: KEY,
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_SERVICE_NAME: 'aalis-e2e',
          },
        });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('Hello from Claude.');
        expect(result.stdout + result.stderr).not.toContain(KEY);
        expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
        // Exported before the process exited (the batch is flushed when the plugin stops).
        const spans = await receiver.waitForSpans(2, 5_000);
        const turn = spans.find((span) => span.name === 'invoke_agent aalis')!;
        const chat = spans.find((span) => span.name === 'chat claude-e2e')!;
        expect(chat.parentSpanId).toBe(turn.spanId);
        expect(chat.attributes['gen_ai.provider.name']).toBe('anthropic');
        expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
        expect(receiver.exports[0]!.resource['service.name']).toBe('aalis-e2e');
        expect(JSON.stringify(spans)).not.toContain(KEY);
      } finally {
        workspace.remove();
      }
    },
    E2E_TIMEOUT_MS,
  );
});
