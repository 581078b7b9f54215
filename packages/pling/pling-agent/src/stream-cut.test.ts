// A stream cut mid-way is retried when nothing was shown yet (or only tool-call arguments streamed), and otherwise ends
// with a localised MODEL_STREAM_ERROR that keeps the partial reply, marked as interrupted. The server is node:http in
// this test file; the client is the runtime's default one.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateProviderSequence } from '@aalis/schema-message';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentRuntime } from './runtime.js';
import type { RuntimeEvent } from './session-events.js';
import { manualClock } from './test-helpers.case.js';
import type { Locale } from './texts.js';
import type { AgentTool } from './tool.js';

type Reply = (response: ServerResponse) => void;
let replies: Reply[] = [];
let requests = 0;
let baseUrl = '';
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    requests++;
    const reply = replies.shift();
    if (reply) reply(response);
    else response.writeHead(500).end();
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** Writes the pieces, then destroys the connection: the body read fails in the client. */
function cutAfter(...pieces: string[]): Reply {
  return (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of pieces) response.write(piece);
    setTimeout(() => response.socket?.destroy(), 20);
  };
}

function text(content: string): Reply {
  return (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(chunk({ role: 'assistant', content }));
    response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
  };
}

function setup(locale: Locale = 'zh-CN', tools: AgentTool[] = []) {
  requests = 0;
  const events: RuntimeEvent[] = [];
  const runtime = createAgentRuntime({
    config: { baseUrl, apiKey: 'k', model: 'm', locale },
    tools,
    clock: manualClock(),
    onEvent: (event) => events.push(event),
  });
  return { runtime, session: runtime.session(), events };
}

describe('a stream cut mid-way', () => {
  it('is retried when nothing was shown yet', async () => {
    replies = [cutAfter(chunk({ role: 'assistant', content: '' })), text('whole answer')];
    const { session, runtime } = setup();
    expect(await session.send('hi')).toMatchObject({ outcome: 'completed', text: 'whole answer' });
    expect(requests).toBe(2);
    expect(session.events().find((event) => event.type === 'retry')).toMatchObject({
      retry: 1,
      code: 'MODEL_STREAM_ERROR',
    });
    expect(runtime.telemetry.snapshot()).toMatchObject({ retries: 1, modelCalls: 2 });
  });

  it('is retried when only tool-call arguments had streamed', async () => {
    const partialCall = chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'add', arguments: '{"ti' } }] });
    replies = [cutAfter(chunk({ role: 'assistant' }), partialCall), text('fine')];
    const { session } = setup();
    expect(await session.send('add')).toMatchObject({ outcome: 'completed', text: 'fine' });
    expect(requests).toBe(2);
    expect(session.history().messages.some((message) => message.role === 'tool')).toBe(false);
  });

  it('a JSON answer cut before its end is retried (nothing of it was shown)', async () => {
    const cutJson: Reply = (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"choices":[{"index":0,"message":{"role":"assistant","content":"par');
      setTimeout(() => response.socket?.destroy(), 20);
    };
    replies = [cutJson, text('after the cut')];
    const { session } = setup();
    expect(await session.send('hi')).toMatchObject({ outcome: 'completed', text: 'after the cut' });
    expect(requests).toBe(2);
  });

  for (const locale of ['zh-CN', 'en'] as const) {
    it(`after visible text ends with MODEL_STREAM_ERROR (${locale}), keeping the partial reply marked`, async () => {
      replies = [
        cutAfter(chunk({ role: 'assistant', content: '第一句已经' }), chunk({ content: '显示' })),
        text('next'),
      ];
      const { session, events } = setup(locale);
      const result = await session.send('hi');
      expect(result.outcome).toBe('error');
      expect(result.error?.code).toBe('MODEL_STREAM_ERROR');
      expect(result.error?.message).toContain(locale === 'zh-CN' ? '中途断开' : 'broke off mid-way');
      expect(requests).toBe(1);
      const stored = session.events();
      const partial = stored.find((event) => event.type === 'message' && event.role === 'assistant');
      expect(partial).toMatchObject({ text: '第一句已经显示', interrupted: true });
      expect(stored.at(-1)).toMatchObject({ type: 'error', code: 'MODEL_STREAM_ERROR' });
      expect(
        events.filter((event) => event.type === 'text-delta').map((event) => event.type === 'text-delta' && event.text),
      ).toEqual(['第一句已经', '显示']);
      expect(session.history().messages.at(-1)).toMatchObject({ role: 'assistant', content: '第一句已经显示' });
      expect(validateProviderSequence(session.history().messages)).toEqual([]);
      expect(await session.send('again')).toMatchObject({ outcome: 'completed', text: 'next' });
    });
  }
});
