// Reads a 2xx chat completion response into events and the assembled response: SSE decoded as it arrives, or a
// whole JSON body (non-streaming calls, and servers that ignore `stream: true`).
import {
  type AssembledResponse,
  assembleCompletion,
  type ChatCompletion,
  ChatStreamDecoder,
  WireStreamError,
  type WireStreamEvent,
} from '@aalis/wire-openai';
import type { HttpExchange } from './http-exchange.js';

/** Whether any event has been handed out: from then on the call must never be retried. */
export interface ReadProgress {
  outputStarted: boolean;
}

const JSON_BODY_LIMIT = 64 * 1_048_576;

export async function* readResponse({
  exchange,
  progress,
  onUnknownLine,
}: {
  exchange: HttpExchange;
  progress: ReadProgress;
  onUnknownLine: (line: string) => void;
}): AsyncGenerator<WireStreamEvent, AssembledResponse> {
  if (exchange.header('content-type')?.includes('application/json')) {
    const result = assembleCompletion(parseCompletion(await exchange.text(JSON_BODY_LIMIT)));
    if (result.events.length > 0) progress.outputStarted = true;
    yield* result.events;
    return result.response;
  }
  const decoder = new ChatStreamDecoder({ onUnknownLine });
  for await (const chunk of exchange.chunks()) {
    const events = decoder.push(chunk);
    if (events.length === 0) continue;
    progress.outputStarted = true;
    for (const event of events) yield event;
    decoder.throwIfFailed();
  }
  const tail = decoder.end();
  if (tail.length > 0) progress.outputStarted = true;
  yield* tail;
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
