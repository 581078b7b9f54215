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

export interface FetchLlmClientOptions {
  /** OpenAI-compatible root, absolute or a same-origin path ('/api/llm'); `/chat/completions` is appended. */
  baseUrl: string;
  /** Bearer token; omitted from the request when empty. */
  apiKey?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export function createFetchLlmClient({ baseUrl, apiKey = '', fetch: fetchImpl }: FetchLlmClientOptions): LlmClient {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
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
          message: `Could not reach the model endpoint ${url}: ${describe(error)}. Check baseUrl and the network (or the proxy).`,
          retryable: true,
          cause: error,
        });
      }
      if (!response.ok) throw await httpError(url, response);
      const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      const assembled = isSse ? await readStream(response, request) : await readJson(url, response, request);
      return toModelResponse(assembled);
    },
  };
}

async function httpError(url: string, response: Response): Promise<PlingError> {
  const error = parseWireError({ body: await response.text().catch(() => ''), fallback: response.statusText });
  const kind = classifyWireError({ status: response.status, error });
  const hint =
    kind === 'auth'
      ? 'check apiKey'
      : kind === 'model-not-found'
        ? 'check model'
        : kind === 'endpoint-not-found'
          ? 'check baseUrl (it should end before /chat/completions)'
          : kind === 'context-too-long'
            ? 'lower limits.contextTokens or maxTokens'
            : kind === 'bad-request'
              ? 'check the request settings'
              : 'retry later';
  return new PlingError({
    code: 'MODEL_REQUEST_FAILED',
    message: `The model endpoint ${url} answered ${response.status} (${kind}): ${error.message}. Fix: ${hint}.`,
    retryable: isRetryableStatus(response.status),
    status: response.status,
  });
}

async function readStream(response: Response, request: ModelRequest): Promise<AssembledResponse> {
  const decoder = new ChatStreamDecoder();
  const deliver = (events: ReturnType<ChatStreamDecoder['push']>) => {
    for (const event of events) if (event.type === 'text-delta') request.onTextDelta?.(event.text);
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
    if (error instanceof WireStreamError) {
      throw new PlingError({
        code: 'MODEL_STREAM_ERROR',
        message: `The model stream could not be read (${error.message}). If the gateway does not support SSE, set stream: false.`,
        cause: error,
      });
    }
    throw error;
  }
}

async function readJson(url: string, response: Response, request: ModelRequest): Promise<AssembledResponse> {
  const text = await response.text();
  let completion: ChatCompletion;
  try {
    completion = JSON.parse(text) as ChatCompletion;
  } catch (error) {
    throw new PlingError({
      code: 'MODEL_REQUEST_FAILED',
      message: `The model endpoint ${url} did not answer JSON. Check that baseUrl points at an OpenAI-compatible API.`,
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
    result.usage = { promptTokens: assembled.usage.promptTokens, completionTokens: assembled.usage.completionTokens };
  }
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
