// A real HTTP server on 127.0.0.1 speaking the OpenAI Chat Completions protocol, answering each call from a
// script (streams, JSON, errors, hangs, cuts, malformed lines), recording every request, and rejecting message
// sequences that real providers reject.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkChatRequest } from './check-chat-request.js';
import { hashedEmbedding } from './hashed-embedding.js';
import { type ErrorReply, type ScriptedReply, type StreamStep, textReply } from './scripted-reply.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it was not JSON; undefined for GET). */
  body: unknown;
  /** The 400 message when the server rejected the request. */
  rejected?: string;
  /** Whether the client closed the connection before the response was complete. */
  abortedByClient: boolean;
  /** Resolves when the response is finished or the connection closed, whichever comes first. */
  closed: Promise<void>;
}

export interface OpenAiTestServerOptions {
  /** Models listed by GET /models; chat calls for other models get 404 model_not_found. Default: any model. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
  /**
   * Answers the chat completion calls that no queued reply is left for (default: a streamed 'ok'): a deterministic
   * script for benchmarks that run an unbounded number of turns.
   */
  respond?: (body: Record<string, unknown>) => ScriptedReply;
  /**
   * POST /embeddings answers with hashed bag-of-words vectors (hashed-embedding.ts) of this many dimensions, or of the
   * request's `dimensions` when it asks; unset: 64.
   */
  embeddingDimensions?: number;
}

export interface OpenAiTestServer {
  /** Base URL including /v1, e.g. http://127.0.0.1:54321/v1. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Chat completion requests only, parsed bodies. */
  chatBodies(): Array<Record<string, unknown>>;
  /** Queues replies for the next chat completion calls (FIFO); with the queue empty, `respond` answers, else 'ok'. */
  enqueue(...replies: ScriptedReply[]): void;
  /**
   * Queues replies for the calls whose parsed body `match` accepts (FIFO per match), checked before the main queue:
   * for concurrent sessions whose calls arrive in no fixed order.
   */
  enqueueWhen(match: (body: Record<string, unknown>) => boolean, ...replies: ScriptedReply[]): void;
  /** Answers GET /models with this error instead of the list (undefined restores the list). */
  failModels(reply: ErrorReply | undefined): void;
  /**
   * Answers POST /embeddings with this error (or, given `dimensions`, with vectors of that length whatever was asked)
   * instead of the hashed vectors; undefined restores them.
   */
  failEmbeddings(failure: ErrorReply | { dimensions: number } | undefined): void;
  /** Texts embedded so far (each input of each POST /embeddings that was answered with vectors). */
  embeddedTexts(): string[];
  /** How many queued replies are left. */
  pending(): number;
  /** Forgets queued replies and recorded requests (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** Waits, but no longer than the connection lives. */
function holdUntil(settled: Promise<unknown>, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('close', done);
      resolve();
    };
    settled.then(done, done);
    res.on('close', done);
  });
}

function pause(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}

export async function startOpenAiTestServer({
  models,
  apiKey,
  respond,
  embeddingDimensions = 64,
}: OpenAiTestServerOptions = {}): Promise<OpenAiTestServer> {
  let embeddingFailure: ErrorReply | { dimensions: number } | undefined;
  const embedded: string[] = [];
  const queue: ScriptedReply[] = [];
  const routes: Array<{ match: (body: Record<string, unknown>) => boolean; replies: ScriptedReply[] }> = [];
  const requests: RecordedRequest[] = [];
  let modelsFailure: ErrorReply | undefined;
  let sequence = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let finished!: () => void;
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0]!,
      headers: req.headers,
      body: undefined,
      abortedByClient: false,
      closed: new Promise<void>((resolve) => {
        finished = resolve;
      }),
    };
    res.on('close', () => {
      if (!res.writableFinished) record.abortedByClient = true;
      finished();
    });
    const text = await readBody(req);
    if (text) {
      try {
        record.body = JSON.parse(text);
      } catch {
        record.body = text;
      }
    }
    requests.push(record);

    if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
      const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return sendError(res, {
        type: 'error',
        status: 401,
        message: `Incorrect API key provided: ${given || '(none)'}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        code: 'invalid_api_key',
        errorType: 'invalid_request_error',
      });
    }
    if (req.method === 'GET' && record.path === '/v1/models') {
      if (modelsFailure) return sendError(res, modelsFailure);
      const data = (models ?? ['test-model']).map((id) => ({ id, object: 'model', owned_by: 'test' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (req.method === 'POST' && record.path === '/v1/embeddings') {
      return answerEmbeddings(res, record.body as { model?: unknown; input?: unknown; dimensions?: unknown });
    }
    if (req.method !== 'POST' || record.path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(`<pre>Cannot ${req.method} ${record.path}</pre>`);
      return;
    }
    const problem = checkChatRequest(record.body);
    if (problem) {
      record.rejected = problem.message;
      return sendJson(res, 400, {
        error: {
          message: problem.message,
          type: 'invalid_request_error',
          param: problem.param ?? null,
          code: problem.code ?? null,
        },
      });
    }
    const body = record.body as { model: string; stream?: boolean };
    if (models && !models.includes(body.model)) {
      return sendError(res, {
        type: 'error',
        status: 404,
        message: `The model \`${body.model}\` does not exist or you do not have access to it.`,
        code: 'model_not_found',
        errorType: 'invalid_request_error',
      });
    }
    const route = routes.find(
      (entry) => entry.replies.length > 0 && entry.match(record.body as Record<string, unknown>),
    );
    const reply =
      route?.replies.shift() ?? queue.shift() ?? respond?.(record.body as Record<string, unknown>) ?? textReply('ok');
    const id = `chatcmpl-test-${++sequence}`;
    switch (reply.type) {
      case 'error':
        return sendError(res, reply);
      case 'hang':
        return;
      case 'drop':
        req.socket.destroy();
        return;
      case 'json':
        if (reply.delayMs) await pause(reply.delayMs, res);
        if (res.destroyed) return;
        return sendJson(res, 200, completionJson(id, body.model, reply));
      case 'stream':
        return stream(res, id, body.model, reply);
    }
  }

  function answerEmbeddings(
    res: ServerResponse,
    body: { model?: unknown; input?: unknown; dimensions?: unknown },
  ): void {
    if (embeddingFailure && 'status' in embeddingFailure) {
      sendError(res, embeddingFailure);
      return;
    }
    const inputs = typeof body?.input === 'string' ? [body.input] : body?.input;
    if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== 'string' || input === '')) {
      sendError(res, {
        type: 'error',
        status: 400,
        message:
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        errorType: 'invalid_request_error',
      });
      return;
    }
    const size =
      embeddingFailure && 'dimensions' in embeddingFailure
        ? embeddingFailure.dimensions
        : typeof body.dimensions === 'number'
          ? body.dimensions
          : embeddingDimensions;
    embedded.push(...(inputs as string[]));
    sendJson(res, 200, {
      object: 'list',
      model: body.model,
      data: (inputs as string[]).map((input, index) => ({
        object: 'embedding',
        index,
        embedding: hashedEmbedding(input, size),
      })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  }

  async function stream(
    res: ServerResponse,
    id: string,
    model: string,
    reply: Extract<ScriptedReply, { type: 'stream' }>,
  ): Promise<void> {
    if (reply.headersDelayMs) await pause(reply.headersDelayMs, res);
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
    res.flushHeaders();
    let buffer = '';
    const flush = () => {
      if (buffer && !res.destroyed) res.write(buffer);
      buffer = '';
    };
    for (const step of reply.steps) {
      if (res.destroyed) return;
      if ('delayMs' in step) {
        flush();
        await pause(step.delayMs, res);
      } else if ('until' in step) {
        flush();
        await holdUntil(step.until, res);
      } else if ('flush' in step) {
        flush();
      } else if ('cut' in step) {
        // Tear the connection down once the bytes written so far have left.
        const socket = res.socket;
        await new Promise<void>((resolve) => res.write(buffer || '\n', () => resolve()));
        socket?.destroy();
        return;
      } else {
        buffer += stepText(id, model, step);
        if (buffer.length >= 16_384) flush();
      }
    }
    flush();
    if (!res.destroyed) res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatBodies: () =>
      requests
        .filter((request) => request.path === '/v1/chat/completions')
        .map((request) => request.body as Record<string, unknown>),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    failModels: (reply) => {
      modelsFailure = reply;
    },
    failEmbeddings: (failure) => {
      embeddingFailure = failure;
    },
    embeddedTexts: () => [...embedded],
    enqueueWhen: (match, ...replies) => {
      routes.push({ match, replies: [...replies] });
    },
    pending: () => queue.length + routes.reduce((sum, entry) => sum + entry.replies.length, 0),
    reset: () => {
      queue.length = 0;
      routes.length = 0;
      requests.length = 0;
      modelsFailure = undefined;
      embeddingFailure = undefined;
      embedded.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, reply: ErrorReply): void {
  if (reply.rawBody !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/html', ...reply.headers });
    res.end(reply.rawBody);
    return;
  }
  sendJson(
    res,
    reply.status,
    { error: { message: reply.message, type: reply.errorType ?? 'api_error', param: null, code: reply.code ?? null } },
    reply.headers,
  );
}

function chunkLine(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const chunk = {
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function usageObject(usage: Extract<StreamStep, { usage: unknown }>['usage']): Record<string, unknown> {
  const result: Record<string, unknown> = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cachedTokens !== undefined) {
    if (usage.cacheField === 'deepseek') {
      result.prompt_cache_hit_tokens = usage.cachedTokens;
      result.prompt_cache_miss_tokens = usage.promptTokens - usage.cachedTokens;
    } else {
      result.prompt_tokens_details = { cached_tokens: usage.cachedTokens };
    }
  }
  return result;
}

function stepText(id: string, model: string, step: StreamStep): string {
  if ('role' in step) return chunkLine(id, model, { role: step.role, content: '' });
  if ('text' in step) return chunkLine(id, model, { content: step.text });
  if ('reasoning' in step) return chunkLine(id, model, { [step.field ?? 'reasoning_content']: step.reasoning });
  if ('toolCall' in step) {
    const { index = 0, id: callId, name, arguments: args } = step.toolCall;
    const call: Record<string, unknown> = { index };
    if (callId !== undefined) {
      call.id = callId;
      call.type = 'function';
    }
    const fn: Record<string, string> = {};
    if (name !== undefined) fn.name = name;
    if (args !== undefined) fn.arguments = args;
    call.function = fn;
    return chunkLine(id, model, { tool_calls: [call] });
  }
  if ('finish' in step) return chunkLine(id, model, {}, step.finish);
  if ('usage' in step) {
    const chunk = {
      id,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [],
      usage: usageObject(step.usage),
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
  if ('raw' in step) return step.raw;
  if ('streamError' in step)
    return `data: ${JSON.stringify({ error: { ...step.streamError, type: 'server_error' } })}\n\n`;
  if ('done' in step) return 'data: [DONE]\n\n';
  return '';
}

function completionJson(id: string, model: string, reply: Extract<ScriptedReply, { type: 'json' }>): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content ?? null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (reply.toolCalls?.length) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  const usage = reply.usage ?? { promptTokens: 10, completionTokens: 5 };
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: usageObject(usage),
  };
}
