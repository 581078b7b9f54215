// The default model client: global fetch + @aalis/wire-openai. Streams SSE when asked and the gateway answers
// with text/event-stream; a JSON answer (stream: false, or a gateway without SSE) is read with assembleCompletion.
import {
  type AssembledResponse,
  assembleCompletion,
  buildChatRequest,
  type ChatCompletion,
  ChatStreamDecoder,
  classifyWireError,
  isRetryableStatus,
  parseWireError,
  toWireMessages,
  WireStreamError,
} from '@aalis/wire-openai';
import { isAbortError, PlingError } from './errors.js';
import type { LlmClient, ModelRequest, ModelResponse } from './llm-client.js';
import { type ErrorTexts, type Locale, textsFor } from './texts.js';

export interface FetchLlmClientOptions {
  /** OpenAI-compatible root, absolute or a same-origin path ('/api/llm'); `/chat/completions` is appended. */
  baseUrl: string;
  /** Bearer token; omitted from the request when empty. */
  apiKey?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Language of error messages; default 'zh-CN'. */
  locale?: Locale;
}

export function createFetchLlmClient({
  baseUrl,
  apiKey = '',
  fetch: fetchImpl,
  locale,
}: FetchLlmClientOptions): LlmClient {
  const errors = textsFor(locale).errors;
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  // Some gateways echo the key they refused ("Incorrect API key provided: sk-…"); errors reach events, the dock's
  // details and the host's logs, so the key never appears in one.
  const hideKey = (text: string) => (apiKey.length >= 4 ? text.split(apiKey).join('[apiKey]') : text);
  return {
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const body = buildChatRequest({
        model: request.model,
        messages: toWireMessages({ messages: request.messages }),
        stream: request.stream,
        tools: request.tools,
        temperature: request.temperature,
        maxTokens: request.maxTokens,
      });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (apiKey !== '') headers.authorization = `Bearer ${apiKey}`;
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: request.signal,
        });
      } catch (error) {
        if (isAbortError(error)) throw error;
        throw new PlingError({
          code: 'NETWORK_ERROR',
          message: errors.networkError(url, hideKey(describe(error))),
          retryable: true,
          cause: error,
        });
      }
      if (!response.ok) throw await httpError(url, response, errors, hideKey);
      const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      const assembled = isSse
        ? await readStream(response, request, errors)
        : await readJson(url, response, request, errors);
      return toModelResponse(assembled);
    },
  };
}

async function httpError(
  url: string,
  response: Response,
  errors: ErrorTexts,
  hideKey: (text: string) => string,
): Promise<PlingError> {
  const error = parseWireError({ body: await response.text().catch(() => ''), fallback: response.statusText });
  // The provider's own sentence goes inside ours, which ends it: no "….。" from its final full stop.
  const detail = hideKey(error.message).replace(/[\s.。]+$/u, '');
  const kind = classifyWireError({ status: response.status, error });
  const hint =
    kind === 'auth'
      ? errors.hintAuth
      : kind === 'model-not-found'
        ? errors.hintModel
        : kind === 'endpoint-not-found'
          ? errors.hintEndpoint
          : kind === 'context-too-long'
            ? errors.hintContext
            : kind === 'bad-request'
              ? errors.hintBadRequest
              : errors.hintRetry;
  return new PlingError({
    code: 'MODEL_REQUEST_FAILED',
    message: errors.httpError(url, response.status, kind, detail, hint),
    retryable: isRetryableStatus(response.status),
    status: response.status,
  });
}

/**
 * Reads an SSE answer. A stream that breaks off (the connection cut, an early end, an error event) is retryable
 * while nothing was shown — no text delta delivered; tool-call arguments and reasoning are not shown — and
 * otherwise a MODEL_STREAM_ERROR carrying the text shown so far (`partialContent`), which the session keeps
 * visible and marked. Malformed data is never retried: a gateway that sends it will send it again.
 */
async function readStream(response: Response, request: ModelRequest, errors: ErrorTexts): Promise<AssembledResponse> {
  const decoder = new ChatStreamDecoder();
  let shown = '';
  const deliver = (events: ReturnType<ChatStreamDecoder['push']>) => {
    for (const event of events) {
      if (event.type !== 'text-delta' || !request.onTextDelta) continue;
      shown += event.text;
      request.onTextDelta(event.text);
    }
  };
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        deliver(decoder.push(value));
        decoder.throwIfFailed();
      }
    }
    deliver(decoder.end());
    return decoder.response();
  } catch (error) {
    if (isAbortError(error) || request.signal.aborted) throw error;
    if (error instanceof WireStreamError && error.kind === 'malformed-data') {
      throw new PlingError({ code: 'MODEL_STREAM_ERROR', message: errors.streamError(error.message), cause: error });
    }
    // A cut connection (fetch's body read rejects), an early end or an error event from the server.
    const detail = describe(error);
    const visible = shown !== '';
    throw new PlingError({
      code: 'MODEL_STREAM_ERROR',
      message: visible ? errors.streamCut(detail) : errors.streamError(detail),
      retryable: !visible,
      cause: error,
      ...(visible && { partialContent: shown }),
    });
  }
}

async function readJson(
  url: string,
  response: Response,
  request: ModelRequest,
  errors: ErrorTexts,
): Promise<AssembledResponse> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (isAbortError(error) || request.signal.aborted) throw error;
    // The body broke off before any of it was shown (a JSON answer is shown only once whole): safe to retry.
    throw new PlingError({
      code: 'NETWORK_ERROR',
      message: errors.networkError(url, describe(error)),
      retryable: true,
      cause: error,
    });
  }
  let completion: ChatCompletion;
  try {
    completion = JSON.parse(text) as ChatCompletion;
  } catch (error) {
    throw new PlingError({
      code: 'MODEL_REQUEST_FAILED',
      message: errors.notJson(url),
      cause: error,
    });
  }
  const { events, response: assembled } = assembleCompletion(completion);
  for (const event of events) if (event.type === 'text-delta') request.onTextDelta?.(event.text);
  return assembled;
}

function toModelResponse(assembled: AssembledResponse): ModelResponse {
  const result: ModelResponse = { content: assembled.content, toolCalls: assembled.toolCalls };
  if (assembled.reasoningContent) result.reasoningContent = assembled.reasoningContent;
  if (assembled.usageReported) {
    result.usage = { ...assembled.usage };
  }
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
