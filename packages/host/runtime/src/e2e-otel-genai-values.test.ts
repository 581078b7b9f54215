// GenAI trace values through the real `aalis chat`, traces read by an OTLP/HTTP (JSON) receiver written here from the
// OTLP specification: the GenAI attributes carry the values the semantic conventions describe — gen_ai.request.model is
// the model's own name ("demo", as "gpt-4o-mini" would be), the provider in gen_ai.provider.name, and the span is named
// `chat <model>`; Aalis's `<provider>/<model>` ref goes in aalis.llm.model_ref.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

interface JsonSpan {
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

const spans: JsonSpan[] = [];
let receiver: Server;
let url: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.headers['content-type']?.startsWith('application/json')) {
        const parsed = JSON.parse(body) as {
          resourceSpans?: { scopeSpans?: { spans?: JsonSpan[] }[] }[];
        };
        for (const resource of parsed.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

const attribute = (span: JsonSpan, key: string) => {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('GenAI attribute values in exported traces', () => {
  it('chat spans name the model as its provider knows it, with the provider beside it', async () => {
    const workspace = temporaryWorkspace('locale: en\nplugins: { memory-summary: false }\n');
    try {
      const result = await runAalis({
        cwd: workspace.dir,
        args: ['chat', '--session', 'otel'],
        input: 'call: calculator {"expression":"6*7"}\n',
        env: {
          AALIS_WEBUI_PORT: '0',
          OTEL_EXPORTER_OTLP_ENDPOINT: url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
      });
      expect(result.code).toBe(0);
      const chats = await waitFor(
        () => {
          const found = spans.filter((span) => attribute(span, 'gen_ai.operation.name') === 'chat');
          return found.length >= 2 ? found : undefined;
        },
        { what: 'two chat spans' },
      );
      for (const chat of chats) {
        expect(chat.name).toBe('chat demo');
        expect(attribute(chat, 'gen_ai.request.model')).toBe('demo');
        expect(attribute(chat, 'gen_ai.response.model')).toBe('demo');
        expect(attribute(chat, 'gen_ai.provider.name')).toBe('offline');
        expect(attribute(chat, 'aalis.llm.model_ref')).toBe('offline/demo');
      }
      const tool = spans.find((span) => attribute(span, 'gen_ai.operation.name') === 'execute_tool');
      expect(tool?.name).toBe('execute_tool calculator');
    } finally {
      workspace.remove();
    }
  }, 90_000);
});
