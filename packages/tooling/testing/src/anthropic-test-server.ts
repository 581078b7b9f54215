// Test-only: a local server emulating the Anthropic Messages API (POST /v1/messages, SSE only): x-api-key and
// anthropic-version checked, requests checked as the API checks them, prompt caching counted by the documented rules
// (usage.cache_read_input_tokens / cache_creation_input_tokens), and scripted replies (the same ScriptedReply steps as
// the OpenAI test server) streamed as message_start / content_block_* / message_delta / message_stop events.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PromptCache } from './anthropic-prompt-cache.js';
import { checkMessagesRequest } from './check-messages-request.js';
import type { RecordedRequest } from './openai-test-server.js';
import type { ErrorReply, ScriptedReply } from './scripted-reply.js';

export interface AnthropicTestServerOptions {
  /** When set, requests must carry `x-api-key: <apiKey>`, else 401. */
  apiKey?: string;
  /** Models the server knows; others get 404. Default: any model. */
  models?: string[];
  /** Smallest cacheable prefix in tokens (default 1024, the API's for Sonnet and Opus). */
  minimumCacheTokens?: number;
}

export interface AnthropicTestServer {
  /** The API root, e.g. http://127.0.0.1:54321 (requests go to /v1/messages). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The usage reported for each answered call, in order. */
  readonly usages: Array<Record<string, number>>;
  enqueue(...replies: ScriptedReply[]): void;
  /** Bodies of the POST /v1/messages calls received. */
  messageBodies(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const STOP_REASONS: Record<string, string> = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function sendError(response: ServerResponse, reply: ErrorReply): void {
  const type = reply.errorType ?? ERROR_TYPES[reply.status] ?? 'api_error';
  response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  response.end(reply.rawBody ?? JSON.stringify({ type: 'error', error: { type, message: reply.message } }));
}

export async function startAnthropicTestServer({
  apiKey,
  models,
  minimumCacheTokens = 1024,
}: AnthropicTestServerOptions = {}): Promise<AnthropicTestServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const usages: Array<Record<string, number>> = [];
  const cache = new PromptCache();
  let sequence = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let finished!: () => void;
    const record: RecordedRequest = {
      method: request.method ?? '',
      path: (request.url ?? '').split('?')[0]!,
      headers: request.headers,
      body: undefined,
      abortedByClient: false,
      closed: new Promise<void>((resolve) => {
        finished = resolve;
      }),
    };
    response.on('close', () => {
      if (!response.writableFinished) record.abortedByClient = true;
      finished();
    });
    const text = await readBody(request);
    try {
      record.body = text ? JSON.parse(text) : undefined;
    } catch {
      record.body = text;
    }
    requests.push(record);
    if (apiKey !== undefined && request.headers['x-api-key'] !== apiKey)
      return sendError(response, { type: 'error', status: 401, message: 'invalid x-api-key' });
    if (request.method !== 'POST' || record.path !== '/v1/messages')
      return sendError(response, {
        type: 'error',
        status: 404,
        message: `Not found: ${request.method} ${record.path}`,
      });
    if (request.headers['anthropic-version'] === undefined) {
      record.rejected = 'anthropic-version: header is required';
      return sendError(response, { type: 'error', status: 400, message: record.rejected });
    }
    const problem = checkMessagesRequest(record.body);
    if (problem) {
      record.rejected = problem;
      return sendError(response, { type: 'error', status: 400, message: problem });
    }
    const body = record.body as Record<string, unknown> & { model: string; stream?: boolean };
    if (models && !models.includes(body.model))
      return sendError(response, { type: 'error', status: 404, message: `model: ${body.model}` });
    if (body.stream !== true) {
      record.rejected = 'this emulator answers streamed calls only (stream: true)';
      return sendError(response, { type: 'error', status: 400, message: record.rejected });
    }
    const reply = queue.shift();
    if (!reply)
      return sendError(response, { type: 'error', status: 500, message: 'the test server has no reply queued' });
    if (reply.type === 'error') return sendError(response, reply);
    if (reply.type === 'hang') return;
    if (reply.type === 'drop') {
      request.socket.destroy();
      return;
    }
    if (reply.type === 'json') {
      record.rejected = 'json replies are not scripted for the Messages API emulator';
      return sendError(response, { type: 'error', status: 500, message: record.rejected });
    }
    await stream(response, body, reply);
  }

  async function stream(
    response: ServerResponse,
    body: Record<string, unknown> & { model: string },
    reply: Extract<ScriptedReply, { type: 'stream' }>,
  ): Promise<void> {
    if (reply.headersDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.headersDelayMs));
    const usage = cache.use({ body, minimumTokens: minimumCacheTokens });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
    let buffered = '';
    const event = (name: string, data: Record<string, unknown>) => {
      buffered += `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    };
    const flush = () => {
      if (buffered) response.write(buffered);
      buffered = '';
    };
    event('message_start', {
      message: {
        id: `msg_${++sequence}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    event('ping', {});
    let block = -1;
    let open: 'thinking' | 'text' | 'tool_use' | undefined;
    let toolIndex: number | undefined;
    let stopReason = 'end_turn';
    let outputTokens = 0;
    const close = () => {
      if (open === 'thinking')
        event('content_block_delta', { index: block, delta: { type: 'signature_delta', signature: `sig-${block}` } });
      if (open) event('content_block_stop', { index: block });
      open = undefined;
    };
    const start = (kind: 'thinking' | 'text' | 'tool_use', contentBlock: Record<string, unknown>) => {
      close();
      block++;
      open = kind;
      event('content_block_start', { index: block, content_block: contentBlock });
    };
    for (const step of reply.steps) {
      if ('reasoning' in step) {
        if (open !== 'thinking') start('thinking', { type: 'thinking', thinking: '' });
        event('content_block_delta', { index: block, delta: { type: 'thinking_delta', thinking: step.reasoning } });
      } else if ('text' in step) {
        if (open !== 'text') start('text', { type: 'text', text: '' });
        event('content_block_delta', { index: block, delta: { type: 'text_delta', text: step.text } });
      } else if ('toolCall' in step) {
        const call = step.toolCall;
        if (open !== 'tool_use' || (call.index !== undefined && call.index !== toolIndex)) {
          toolIndex = call.index;
          start('tool_use', {
            type: 'tool_use',
            id: call.id ?? `toolu_${sequence}_${block + 1}`,
            name: call.name,
            input: {},
          });
        }
        if (call.arguments)
          event('content_block_delta', {
            index: block,
            delta: { type: 'input_json_delta', partial_json: call.arguments },
          });
      } else if ('finish' in step) stopReason = STOP_REASONS[step.finish] ?? step.finish;
      else if ('usage' in step) outputTokens = step.usage.completionTokens;
      else if ('delayMs' in step) {
        flush();
        await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      } else if ('flush' in step) flush();
      else if ('raw' in step) buffered += step.raw;
      else if ('streamError' in step) {
        event('error', {
          error: { type: step.streamError.code ?? 'overloaded_error', message: step.streamError.message },
        });
        flush();
        response.end();
        return;
      } else if ('cut' in step) {
        flush();
        response.socket?.destroy();
        return;
      } else if ('done' in step) {
        close();
        event('message_delta', {
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: outputTokens },
        });
        event('message_stop', {});
        usages.push({ ...usage, output_tokens: outputTokens });
      }
    }
    flush();
    response.end();
  }

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    usages,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    messageBodies: () =>
      requests
        .filter((request) => request.method === 'POST' && request.path === '/v1/messages')
        .map((request) => request.body as Record<string, unknown>),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
