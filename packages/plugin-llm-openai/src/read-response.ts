// Reads a 2xx chat completion response into events and the assembled response: SSE decoded as it arrives, or a
// whole JSON body (non-streaming calls, and servers that ignore `stream: true`). A response that runs far past the
// request's max_tokens is cut (OutputBudget).
import {
  type AssembledResponse,
  assembleCompletion,
  type ChatCompletion,
  ChatStreamDecoder,
  WireStreamError,
  type WireStreamEvent,
} from '@aalis/wire-openai';
import type { HttpExchange } from './http-exchange.js';
import type { OutputBudget } from './output-budget.js';

/** Whether any event has been handed out: from then on the call must never be retried. */
export interface ReadProgress {
  outputStarted: boolean;
}

const JSON_BODY_LIMIT = 64 * 1_048_576;

export async function* readResponse({
  exchange,
  progress,
  budget,
  onUnknownLine,
}: {
  exchange: HttpExchange;
  progress: ReadProgress;
  budget: OutputBudget;
  onUnknownLine: (line: string) => void;
}): AsyncGenerator<WireStreamEvent, AssembledResponse> {
  if (exchange.header('content-type')?.includes('application/json')) {
    const parts: Buffer[] = [];
    for await (const chunk of exchange.chunks()) {
      budget.received(chunk.length);
      parts.push(chunk);
    }
    const text = Buffer.concat(parts).toString('utf8').slice(0, JSON_BODY_LIMIT);
    const result = assembleCompletion(parseCompletion(text));
    for (const event of result.events) budget.deliver(event);
    if (result.events.length > 0) progress.outputStarted = true;
    yield* result.events;
    return result.response;
  }
  const decoder = new ChatStreamDecoder({ onUnknownLine });
  for await (const chunk of exchange.chunks()) {
    budget.received(chunk.length);
    const events = decoder.push(chunk);
    if (events.length === 0) continue;
    progress.outputStarted = true;
    for (const event of events) {
      budget.deliver(event);
      yield event;
    }
    decoder.throwIfFailed();
  }
  const tail = decoder.end();
  if (tail.length > 0) progress.outputStarted = true;
  for (const event of tail) {
    budget.deliver(event);
    yield event;
  }
  return decoder.response();
}

function parseCompletion(text: string): ChatCompletion {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WireStreamError({ kind: 'malformed-data', line: text.slice(0, 200) });
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new WireStreamError({ kind: 'malformed-data', line: text.slice(0, 200) });
  }
  const error = (parsed as { error?: { message?: string; code?: string | number | null; type?: string } }).error;
  if (error && typeof error === 'object') {
    throw new WireStreamError({
      kind: 'error-event',
      error: {
        message: typeof error.message === 'string' ? error.message : '',
        ...(error.code != null ? { code: String(error.code) } : {}),
      },
    });
  }
  return parsed as ChatCompletion;
}
