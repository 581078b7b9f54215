// Reads a 2xx chat completion response into events and the assembled response: SSE decoded as it arrives, or a whole
// JSON body (non-streaming calls, and servers that ignore `stream: true`). A response that runs far past the request's
// max_tokens is cut (OutputBudget). Events come out in batches, one per network read, so the caller's own generator is
// the only layer each event passes through (two async-generator hops per delta were a large part of a turn's
// allocation).

import type { HttpExchange, OutputBudget } from '@aalis/http-transport';
import {
  type AssembledResponse,
  assembleCompletion,
  type ChatCompletion,
  ChatStreamDecoder,
  WireStreamError,
  type WireStreamEvent,
} from '@aalis/wire-openai';

/** Whether any event has been handed out: from then on the call must never be retried. */
export interface ReadProgress {
  outputStarted: boolean;
}

const JSON_BODY_LIMIT = 64 * 1_048_576;

/**
 * Yields the events of each network read as one batch (never an empty one), each already counted by the budget;
 * returns the assembled response. A batch is handed out before the next read, so the caller sees each event as
 * soon as the server's chunk carrying it arrived — the same boundaries as one event per yield.
 */
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
}): AsyncGenerator<readonly WireStreamEvent[], AssembledResponse> {
  const contentType = exchange.header('content-type') ?? '';
  if (contentType.includes('text/html')) {
    // A web page (a login portal, a web UI at a wrong baseUrl) is never a completion: say what came instead of
    // skipping its lines and reporting a stream that broke off.
    const parts: Buffer[] = [];
    for await (const chunk of exchange.chunks()) {
      budget.received(chunk.length);
      parts.push(chunk);
    }
    const page = Buffer.concat(parts).toString('utf8').replace(/\s+/g, ' ').trim();
    throw new WireStreamError({ kind: 'malformed-data', line: page.slice(0, 200) });
  }
  if (contentType.includes('application/json')) {
    const parts: Buffer[] = [];
    for await (const chunk of exchange.chunks()) {
      budget.received(chunk.length);
      parts.push(chunk);
    }
    const text = Buffer.concat(parts).toString('utf8').slice(0, JSON_BODY_LIMIT);
    const result = assembleCompletion(parseCompletion(text));
    for (const event of result.events) budget.deliver(event);
    if (result.events.length > 0) {
      progress.outputStarted = true;
      yield result.events;
    }
    return result.response;
  }
  const decoder = new ChatStreamDecoder({ onUnknownLine });
  for await (const chunk of exchange.chunks()) {
    budget.received(chunk.length);
    const events = decoder.push(chunk);
    if (events.length === 0) continue;
    progress.outputStarted = true;
    const cut = countAll(events, budget);
    if (cut === undefined) yield events;
    else {
      if (cut.counted > 0) yield events.slice(0, cut.counted);
      throw cut.error;
    }
    decoder.throwIfFailed();
  }
  const tail = decoder.end();
  if (tail.length > 0) {
    progress.outputStarted = true;
    const cut = countAll(tail, budget);
    if (cut === undefined) yield tail;
    else {
      if (cut.counted > 0) yield tail.slice(0, cut.counted);
      throw cut.error;
    }
  }
  return decoder.response();
}

/**
 * Counts a batch against the budget; where the budget cuts, how many events came before the cut and the cut itself.
 * Those events still reach the caller first and the cut is thrown after them (as when each event was counted just
 * before its own yield). Not a generator of its own: a sync yield* inside an async generator costs a promise more.
 */
function countAll(
  events: readonly WireStreamEvent[],
  budget: OutputBudget,
): { counted: number; error: unknown } | undefined {
  let counted = 0;
  try {
    for (const event of events) {
      budget.deliver(event);
      counted++;
    }
  } catch (error) {
    return { counted, error };
  }
  return undefined;
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
