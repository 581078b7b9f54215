// Test-only: a Telegram Bot API server over real HTTP, as a local telegram-bot-api would be. Long polling holds
// getUpdates until an update is pushed or its timeout ends; updates below the offset are confirmed and dropped.
// It records every call, serves files, and can be told to refuse HTML, fail a method or rate-limit it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotApiCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  /** Answered with an error, or cut (dropPolls). */
  failed?: boolean;
}

export interface BotApiServerOptions {
  token: string;
  me?: { id: number; username: string; first_name?: string };
}

export interface BotApiServer {
  /** The apiRoot to configure (no trailing slash). */
  readonly url: string;
  readonly calls: BotApiCall[];
  /** Messages she sent (sendMessage), as the server stored them. */
  readonly sent: {
    message_id: number;
    chat_id: number;
    text: string;
    parse_mode?: string;
    reply_to?: number;
    /** performance.now() when the call arrived. */
    at: number;
  }[];
  /** Queues an update (update_id assigned when absent); returns its id. */
  push(update: Record<string, unknown>): number;
  /** Serves `bytes` for a file id (getFile + download). */
  addFile(fileId: string, bytes: Uint8Array): void;
  /** The next calls of `method` answer with this error instead. */
  failNext(method: string, error: { status: number; description: string; retryAfter?: number }, times?: number): void;
  /** Cuts every held getUpdates request (its connection destroyed, as a dropped network would). */
  dropPolls(): void;
  /** The next sendMessage with parse_mode HTML is refused as Telegram does for bad markup. */
  refuseHtmlNext(times?: number): void;
  waitForCalls(predicate: (calls: BotApiCall[]) => boolean, timeoutMs?: number): Promise<BotApiCall[]>;
  close(): Promise<void>;
}

let nextUpdateId = 5000;
let nextMessageId = 700;

/** A Bot API Message in a group or private chat. */
export function telegramMessage({
  chatId,
  chatType = chatId < 0 ? 'supergroup' : 'private',
  from,
  text,
  entities,
  replyTo,
  messageId = nextMessageId++,
  photo,
}: {
  chatId: number;
  chatType?: string;
  from: { id: number; first_name: string; username?: string };
  text?: string;
  entities?: { type: string; offset: number; length: number; user?: unknown }[];
  replyTo?: Record<string, unknown>;
  messageId?: number;
  photo?: string;
}): Record<string, unknown> {
  return {
    message_id: messageId,
    from: { is_bot: false, ...from },
    chat: {
      id: chatId,
      type: chatType,
      ...(chatType === 'private' ? { first_name: from.first_name } : { title: 'Test group' }),
    },
    date: Math.floor(Date.now() / 1000),
    ...(text !== undefined ? (photo ? { caption: text } : { text }) : {}),
    ...(entities ? { [photo ? 'caption_entities' : 'entities']: entities } : {}),
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    ...(photo
      ? {
          photo: [
            { file_id: `${photo}-small`, width: 90, height: 90 },
            { file_id: photo, width: 800, height: 600 },
          ],
        }
      : {}),
  };
}

/** A mention entity for `@username` found in `text`. */
export function mentionEntity(text: string, username: string): { type: string; offset: number; length: number } {
  const offset = text.indexOf(`@${username}`);
  if (offset < 0) throw new Error(`@${username} is not in the text`);
  return { type: 'mention', offset, length: username.length + 1 };
}

export async function startBotApiServer(options: BotApiServerOptions): Promise<BotApiServer> {
  const me = options.me ?? { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
  const calls: BotApiCall[] = [];
  const sent: BotApiServer['sent'] = [];
  let updates: Record<string, unknown>[] = [];
  const files = new Map<string, Uint8Array>();
  const failures = new Map<string, { status: number; description: string; retryAfter?: number; times: number }>();
  let refuseHtml = 0;
  const pollers = new Set<() => void>();
  const held = new Map<ServerResponse, BotApiCall>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, description: string, retryAfter?: number) =>
    json(res, status, {
      ok: false,
      error_code: status,
      description,
      ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
    });

  /**
   * A JSON body, or a multipart/form-data one (an upload, as sendVoice with a file): its fields as Telegram reads
   * them (JSON-serialised objects parsed back) and its files as { name, type, bytes }.
   */
  const readBody = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const contentType = req.headers['content-type'] ?? '';
        try {
          if (contentType.startsWith('multipart/form-data')) {
            const form = await new Request('http://127.0.0.1/', {
              method: 'POST',
              headers: { 'content-type': contentType },
              body: Buffer.concat(chunks),
            }).formData();
            const params: Record<string, unknown> = {};
            for (const [name, value] of form) {
              if (typeof value !== 'string') {
                params[name] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
                continue;
              }
              try {
                params[name] = /^[[{]/.test(value) ? JSON.parse(value) : /^-?\d+$/.test(value) ? Number(value) : value;
              } catch {
                params[name] = value;
              }
            }
            return resolve(params);
          }
          const text = Buffer.concat(chunks).toString('utf8');
          resolve(text === '' ? {} : (JSON.parse(text) as Record<string, unknown>));
        } catch {
          resolve({});
        }
      });
    });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (fileMatch) {
      const path = decodeURIComponent(fileMatch[2] ?? '');
      const fileId = path.replace(/^photos\//, '').replace(/\.png$/, '');
      const bytes = fileMatch[1] === options.token ? files.get(fileId) : undefined;
      if (!bytes) return fail(res, 404, 'Not Found');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(bytes.byteLength) });
      return res.end(Buffer.from(bytes));
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return fail(res, 404, 'Not Found');
    if (match[1] !== options.token) return fail(res, 401, 'Unauthorized');
    const method = match[2] ?? '';
    const params = await readBody(req);
    const call: BotApiCall = { method, params, at: Date.now() };
    calls.push(call);
    const failure = failures.get(method);
    if (failure) {
      call.failed = true;
      failure.times -= 1;
      if (failure.times <= 0) failures.delete(method);
      return fail(res, failure.status, failure.description, failure.retryAfter);
    }
    switch (method) {
      case 'getMe':
        return json(res, 200, { ok: true, result: { is_bot: true, ...me } });
      case 'getUpdates': {
        const offset = typeof params.offset === 'number' ? params.offset : undefined;
        if (offset !== undefined) updates = updates.filter((update) => (update.update_id as number) >= offset);
        const answer = () => json(res, 200, { ok: true, result: updates.slice(0, 100) });
        if (updates.length > 0) return answer();
        const timeout = Number(params.timeout ?? 0) * 1000;
        const wake = () => {
          clearTimeout(timer);
          pollers.delete(wake);
          held.delete(res);
          if (!res.writableEnded) answer();
        };
        const timer = setTimeout(wake, timeout);
        pollers.add(wake);
        held.set(res, call);
        req.on('close', () => {
          clearTimeout(timer);
          pollers.delete(wake);
          held.delete(res);
        });
        return;
      }
      case 'sendMessage': {
        if (params.parse_mode === 'HTML' && refuseHtml > 0) {
          refuseHtml -= 1;
          return fail(res, 400, "Bad Request: can't parse entities: Unsupported start tag");
        }
        const messageId = nextMessageId++;
        const replyParameters = params.reply_parameters as { message_id?: number } | undefined;
        sent.push({
          message_id: messageId,
          chat_id: Number(params.chat_id),
          text: String(params.text ?? ''),
          ...(typeof params.parse_mode === 'string' ? { parse_mode: params.parse_mode } : {}),
          ...(replyParameters?.message_id !== undefined ? { reply_to: replyParameters.message_id } : {}),
          at: performance.now(),
        });
        return json(res, 200, {
          ok: true,
          result: {
            message_id: messageId,
            chat: { id: Number(params.chat_id) },
            date: Math.floor(Date.now() / 1000),
            text: params.text,
          },
        });
      }
      case 'sendVoice':
      case 'sendAudio': {
        const messageId = nextMessageId++;
        return json(res, 200, {
          ok: true,
          result: { message_id: messageId, chat: { id: Number(params.chat_id) }, date: Math.floor(Date.now() / 1000) },
        });
      }
      case 'sendChatAction':
      case 'setMyCommands':
      case 'sendPhoto':
      case 'leaveChat':
        return json(res, 200, { ok: true, result: true });
      case 'getFile': {
        const fileId = String(params.file_id ?? '');
        if (!files.has(fileId)) return fail(res, 400, 'Bad Request: invalid file_id');
        return json(res, 200, { ok: true, result: { file_id: fileId, file_path: `photos/${fileId}.png` } });
      }
      default:
        return fail(res, 404, 'Not Found: method not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    sent,
    push(update) {
      const id = typeof update.update_id === 'number' ? update.update_id : nextUpdateId++;
      updates.push({ ...update, update_id: id });
      for (const wake of [...pollers]) wake();
      return id;
    },
    addFile(fileId, bytes) {
      files.set(fileId, bytes);
    },
    failNext(method, error, times = 1) {
      failures.set(method, { ...error, times });
    },
    dropPolls() {
      for (const [res, call] of held) {
        call.failed = true;
        res.socket?.destroy();
      }
      held.clear();
    },
    refuseHtmlNext(times = 1) {
      refuseHtml = times;
    },
    async waitForCalls(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(calls)) {
        if (Date.now() > deadline)
          throw new Error(`Bot API test server: calls did not arrive: ${calls.map((c) => c.method).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return calls;
    },
    async close() {
      for (const wake of [...pollers]) wake();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
