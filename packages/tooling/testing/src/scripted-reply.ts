// What the test server answers to one chat completion call, and helpers that build common replies.

/** One step of a streamed reply; consecutive steps are written together until a delay, a flush or the end. */
export type StreamStep =
  /** The opening chunk real servers send: `delta: { role, content: '' }` (the helpers below start with it). */
  | { role: 'assistant' }
  | { text: string }
  | { reasoning: string; field?: 'reasoning_content' | 'reasoning' }
  | { toolCall: { index?: number; id?: string; name?: string; arguments?: string } }
  | { finish: string }
  | {
      usage: {
        promptTokens: number;
        completionTokens: number;
        cachedTokens?: number;
        /** Where cached tokens are reported: OpenAI's prompt_tokens_details or DeepSeek's prompt_cache_hit_tokens. */
        cacheField?: 'openai' | 'deepseek';
      };
    }
  | { delayMs: number }
  /** Sends what is buffered, then holds the stream until the promise settles (or the client goes away). */
  | { until: Promise<unknown> }
  /** Sends what is buffered now, so the next steps arrive in a separate network read. */
  | { flush: true }
  /** Written verbatim (include the line ends). */
  | { raw: string }
  /** An error object inside the stream, as some servers send after the status line went out. */
  | { streamError: { message: string; code?: string } }
  /** Destroys the connection here, mid-stream. */
  | { cut: true }
  | { done: true };

export type ScriptedReply =
  | { type: 'stream'; steps: StreamStep[]; headersDelayMs?: number; headers?: Record<string, string> }
  | {
      type: 'json';
      content?: string;
      reasoning?: string;
      toolCalls?: Array<{ id: string; name: string; arguments: string }>;
      finishReason?: string;
      usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
      delayMs?: number;
    }
  | {
      type: 'error';
      status: number;
      message: string;
      code?: string;
      errorType?: string;
      headers?: Record<string, string>;
      /** Sent instead of the OpenAI error JSON (an HTML page from a proxy, say). */
      rawBody?: string;
    }
  /** Accepts the request and never answers (until the client gives up or the server closes). */
  | { type: 'hang' }
  /** Closes the connection without any response (the client sees a connection reset). */
  | { type: 'drop' };

export interface ReplyOptions {
  /** Characters per text chunk (default 4). */
  chunkSize?: number;
  reasoning?: string;
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let at = 0; at < text.length; at += size) result.push(text.slice(at, at + size));
  return result;
}

/** A streamed text answer in small chunks, then finish 'stop', usage and [DONE]. */
export function textReply(text: string, { chunkSize = 4, reasoning, usage }: ReplyOptions = {}): ScriptedReply {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  if (reasoning) for (const piece of pieces(reasoning, chunkSize)) steps.push({ reasoning: piece });
  for (const piece of pieces(text, chunkSize)) steps.push({ text: piece });
  steps.push({ finish: 'stop' });
  steps.push({ usage: usage ?? { promptTokens: 10, completionTokens: Math.ceil(text.length / 4) } });
  steps.push({ done: true });
  return { type: 'stream', steps };
}

/** Streamed tool calls: each call's id and name first, then its arguments in `argumentPieces` fragments. */
export function toolCallReply(
  calls: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>,
  { argumentPieces = 3, text, usage }: { argumentPieces?: number; text?: string; usage?: ReplyOptions['usage'] } = {},
): ScriptedReply {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  if (text) steps.push({ text });
  calls.forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    steps.push({ toolCall: { index, id: call.id ?? `call_${index + 1}`, name: call.name, arguments: '' } });
    const size = Math.max(1, Math.ceil(args.length / argumentPieces));
    for (const piece of pieces(args, size)) steps.push({ toolCall: { index, arguments: piece } });
  });
  steps.push({ finish: 'tool_calls' });
  steps.push({ usage: usage ?? { promptTokens: 20, completionTokens: 8 } });
  steps.push({ done: true });
  return { type: 'stream', steps };
}

export type ErrorReply = Extract<ScriptedReply, { type: 'error' }>;

/** An OpenAI-style error response. */
export function errorReply(
  status: number,
  message: string,
  extra: Omit<ErrorReply, 'type' | 'status' | 'message'> = {},
): ErrorReply {
  return { type: 'error', status, message, ...extra };
}
