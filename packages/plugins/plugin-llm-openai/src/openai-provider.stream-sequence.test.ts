// The events a recorded stream yields through chatStream are the ones a from-scratch decode of the same bytes gives, in
// the same order, each handed out before the server writes its next chunk (the reader's batches must not move a delta
// boundary), and a caller that stops reading mid-stream ends the response.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatStreamEvent } from '@aalis/api-llm';
import type { OpenAiTestServer } from '@aalis/testing';
import { ChatStreamDecoder } from '@aalis/wire-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRequest, bootProvider, type ProviderFixture, userMessage } from './fixture.case.js';

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse({ id: 'r1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });

/** A recorded stream as the server wrote it: several events in one write, events split across writes. */
const RECORDED: string[] = [
  chunk({ role: 'assistant', reasoning_content: 'Let me ' }),
  chunk({ reasoning_content: 'look.' }) + chunk({ content: 'Checking' }) + chunk({ content: ' now.' }),
  chunk({
    tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }],
  }).slice(0, 40),
  chunk({
    tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }],
  }).slice(40) +
    chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'clock', arguments: '{}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"fox"}' } }] }),
  chunk({}, 'tool_calls') +
    sse({
      id: 'r1',
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    }) +
    'data: [DONE]\n\n',
];

let http: Server;
let fixture: ProviderFixture;
/** How many of RECORDED the server has written in the current response. */
let written = 0;
/** Set by a test that paces the server: a write carrying deltas waits for go() (the client saw them all). */
let stepped = false;
let go: (() => void) | undefined;
let closed: Promise<void> = Promise.resolve();

function writeStep(res: ServerResponse, index: number, deltasPerWrite: number[]): void {
  if (res.destroyed) return;
  if (index === RECORDED.length) {
    res.end();
    return;
  }
  res.write(RECORDED[index]);
  written = index + 1;
  const step = () => writeStep(res, index + 1, deltasPerWrite);
  if (stepped && deltasPerWrite[index]! > 0) go = step;
  else setTimeout(step, 10);
}

beforeAll(async () => {
  http = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      written = 0;
      closed = new Promise((resolveClosed) => res.on('close', resolveClosed));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeStep(res, 0, deltasPerWrite());
    });
  });
  await new Promise<void>((resolveListen) => http.listen(0, '127.0.0.1', resolveListen));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  fixture = await bootProvider({ server: { url } as OpenAiTestServer });
});
afterAll(async () => {
  await fixture.stop();
  http.closeAllConnections();
  await new Promise((resolveClose) => http.close(resolveClose));
});

/** The reference: the same bytes through the decoder alone, one event per entry, plus the response event. */
function reference(): ChatStreamEvent[] {
  const decoder = new ChatStreamDecoder({ onUnknownLine: () => {} });
  const events: ChatStreamEvent[] = [];
  for (const piece of RECORDED) events.push(...decoder.push(Buffer.from(piece)));
  events.push(...decoder.end());
  const assembled = decoder.response();
  const response: Extract<ChatStreamEvent, { type: 'response' }>['response'] = {
    content: assembled.content,
    toolCalls: assembled.toolCalls,
    usage: assembled.usage,
    finishReason: assembled.finishReason,
    model: fixture.model,
  };
  if (assembled.reasoningContent !== undefined) response.reasoningContent = assembled.reasoningContent;
  events.push({ type: 'response', response });
  return events;
}

/** How many deltas each write completes, from decoding the writes one at a time. */
function deltasPerWrite(): number[] {
  const decoder = new ChatStreamDecoder({ onUnknownLine: () => {} });
  return RECORDED.map((piece) => decoder.push(Buffer.from(piece)).length);
}

describe('chatStream over a recorded stream', () => {
  it('yields the same events, payloads and order as a from-scratch decode of the same bytes', async () => {
    const events: ChatStreamEvent[] = [];
    for await (const event of fixture.provider.chatStream({
      ...baseRequest,
      model: fixture.model,
      messages: userMessage('hi'),
    }))
      events.push(event);
    const expected = reference();
    expect(expected.map((event) => event.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'response',
    ]);
    expect(events).toEqual(expected);
  });

  it('hands out each delta before the server writes its next chunk (delta boundaries stay the chunks)', async () => {
    const perWrite = deltasPerWrite();
    // Which write completes each delta, by position: 1, 2, 2, 2, 4, 4, 5 for RECORDED.
    const expected = perWrite.flatMap((count, index) => Array.from({ length: count }, () => index + 1));
    const seenAt: number[] = [];
    stepped = true;
    try {
      for await (const event of fixture.provider.chatStream({
        ...baseRequest,
        model: fixture.model,
        messages: userMessage('hi'),
      })) {
        if (event.type === 'response') continue;
        seenAt.push(written);
        // Every delta of what was written so far is seen: only now may the server write its next chunk, so a
        // delta held back for a later read, or two reads merged, shows as a wrong write number.
        const due = perWrite.slice(0, written).reduce((sum, count) => sum + count, 0);
        if (seenAt.length === due) go?.();
      }
    } finally {
      stepped = false;
    }
    expect(seenAt).toEqual(expected);
  });

  it('a caller that stops reading mid-stream ends the response', async () => {
    let seen = 0;
    for await (const event of fixture.provider.chatStream({
      ...baseRequest,
      model: fixture.model,
      messages: userMessage('hi'),
    })) {
      if (event.type === 'text-delta') break;
      seen++;
    }
    expect(seen).toBe(2);
    await closed;
    expect(written).toBeLessThan(RECORDED.length);
  });
});
