// Test-only: WeCom's side of an intelligent bot in API mode, over real HTTP, with its own implementation of the
// callback cryptography (SHA1 msg_signature over the sorted token, timestamp, nonce and ciphertext; AES-256-CBC with
// the EncodingAESKey, IV its first 16 bytes, PKCS#7 to 32 bytes, plaintext framed as random(16) + length(4) +
// message + receive id ''): it checks the callback URL (GET with echostr), POSTs encrypted messages to the bot's
// callback, reads the encrypted stream answers and asks for each stream again (msgtype `stream`) every `pollMs`
// until it finishes or the window passes; it serves the response_url each message carries (usable once) and the
// encrypted files (images) messages point to. It can watch the callback (a TCP connect every few ms) and count its
// starts, each confirmed by the URL check: what a connection is for a platform that calls her.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

export interface WecomSent {
  via: 'stream' | 'response_url';
  chat: string;
  /** The message whose stream or response_url carried it. */
  answering: string;
  text: string;
  /** When the server received it (performance.now()). */
  at: number;
}

/** How many times a message callback is POSTed when the bot does not answer 200 (the first delivery included). */
const CALLBACK_ATTEMPTS = 4;

export interface WecomMessageOptions {
  /** A group chat id; a single chat with `userId` otherwise. */
  chatId?: string;
  userId: string;
  text?: string;
  /** In a group: whether the text starts with her @ (default true; WeCom hands a bot only those). */
  mention?: boolean;
  /** Sent as an image message: these bytes, encrypted, behind the image URL. */
  image?: Buffer;
  msgId?: string;
}

export interface WecomBotServer {
  readonly token: string;
  readonly encodingAESKey: string;
  readonly sent: WecomSent[];
  /** Where the bot listens (set once known). */
  setCallback(url: string): void;
  /** WeCom's URL check: the status and the body the bot answered. */
  verifyUrl(): Promise<{ status: number; body: string; echo: string }>;
  /**
   * Delivers a message; resolves with its msgid and the HTTP status once the bot answered the callback, and
   * `postedAt`: performance.now() right before the sealed callback was posted. As WeCom does, a callback not answered
   * 200 is delivered again (a few times, shortly after): `statuses` has every answer, `status` the last.
   */
  message(
    options: WecomMessageOptions,
  ): Promise<{ msgId: string; status: number; statuses: number[]; streamId?: string; postedAt: number }>;
  /** POSTs a raw body to the callback with the given query (bad input). */
  post(body: string, query?: Record<string, string>): Promise<number>;
  /** Encrypts and signs a plaintext as WeCom would (for hand-made callbacks). */
  seal(plaintext: string): { body: string; query: Record<string, string> };
  failNextResponseUrl(status: number, errcode?: number): void;
  /**
   * Watches the callback (set with setCallback) every `intervalMs`: each time its server accepts connections again
   * after it did not (a start of her callback server), WeCom's URL check is made and, when it passes, counted.
   */
  watchCallback(intervalMs?: number): void;
  /** How many times the watched callback came up and passed the URL check. */
  callbackStarts(): number;
  /** Streams WeCom still asks for (not finished, within the window): each one shows her as thinking. */
  openStreams(): number;
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

function sign(token: string, timestamp: string, nonce: string, ciphertext: string): string {
  return createHash('sha1').update([token, timestamp, nonce, ciphertext].sort().join('')).digest('hex');
}

function keyOf(encodingAESKey: string): Buffer {
  return Buffer.from(`${encodingAESKey}=`, 'base64');
}

function pad(data: Buffer): Buffer {
  const size = 32 - (data.length % 32);
  return Buffer.concat([data, Buffer.alloc(size, size)]);
}

function unpad(data: Buffer): Buffer {
  const size = data[data.length - 1] ?? 0;
  return size >= 1 && size <= 32 ? data.subarray(0, data.length - size) : data;
}

function aes(encodingAESKey: string, data: Buffer, mode: 'encrypt' | 'decrypt'): Buffer {
  const key = keyOf(encodingAESKey);
  const cipher =
    mode === 'encrypt'
      ? createCipheriv('aes-256-cbc', key, key.subarray(0, 16))
      : createDecipheriv('aes-256-cbc', key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export function wecomEncrypt(encodingAESKey: string, plaintext: string): string {
  const message = Buffer.from(plaintext);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(message.length);
  return aes(encodingAESKey, pad(Buffer.concat([randomBytes(16), length, message])), 'encrypt').toString('base64');
}

export function wecomDecrypt(encodingAESKey: string, ciphertext: string): string {
  const plain = unpad(aes(encodingAESKey, Buffer.from(ciphertext, 'base64'), 'decrypt'));
  const length = plain.readUInt32BE(16);
  return plain.subarray(20, 20 + length).toString('utf8');
}

let nextId = 9_000;

export async function startWecomBotServer({
  token = 'wecom-callback-token',
  encodingAESKey = randomBytes(32).toString('base64').slice(0, 43),
  botId = 'aibot-1',
  pollMs = 50,
  windowMs = 10_000,
}: {
  token?: string;
  encodingAESKey?: string;
  botId?: string;
  pollMs?: number;
  windowMs?: number;
} = {}): Promise<WecomBotServer> {
  const sent: WecomSent[] = [];
  const files = new Map<string, Buffer>();
  const responseUrls = new Map<string, { chat: string; msgId: string; used: boolean }>();
  let failResponseUrl: { status: number; errcode: number } | undefined;
  let callback = '';
  const polling = new Set<Promise<void>>();
  let closed = false;
  let watching: ReturnType<typeof setTimeout> | undefined;
  let starts = 0;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.method === 'GET' && url.pathname.startsWith('/files/')) {
        const file = files.get(url.pathname.slice('/files/'.length));
        if (!file) return reply(404, {});
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return response.end(file);
      }
      if (request.method === 'POST' && url.pathname.startsWith('/response/')) {
        const entry = responseUrls.get(url.pathname.slice('/response/'.length));
        if (!entry) return reply(200, { errcode: 40001, errmsg: 'invalid response_url' });
        if (failResponseUrl) {
          const failure = failResponseUrl;
          failResponseUrl = undefined;
          return reply(failure.status, { errcode: failure.errcode, errmsg: 'failing on purpose' });
        }
        if (entry.used) return reply(200, { errcode: 600039, errmsg: 'response_url used' });
        let body: { msgtype?: string; markdown?: { content?: string }; text?: { content?: string } };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return reply(200, { errcode: 40035, errmsg: 'not JSON' });
        }
        const text = body.msgtype === 'markdown' ? body.markdown?.content : body.text?.content;
        if (typeof text !== 'string' || text === '') return reply(200, { errcode: 40035, errmsg: 'content missing' });
        entry.used = true;
        sent.push({ via: 'response_url', chat: entry.chat, answering: entry.msgId, text, at: performance.now() });
        return reply(200, { errcode: 0, errmsg: 'ok' });
      }
      reply(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const seal = (plaintext: string) => {
    const ciphertext = wecomEncrypt(encodingAESKey, plaintext);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(6).toString('hex');
    return {
      body: JSON.stringify({ encrypt: ciphertext }),
      query: { msg_signature: sign(token, timestamp, nonce, ciphertext), timestamp, nonce },
    };
  };

  const post = async (body: string, query: Record<string, string> = {}) => {
    const url = new URL(callback);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: response.status, text: await response.text() };
  };

  /** Reads an encrypted answer (checking its signature); undefined for an empty one. */
  const open = (
    text: string,
  ): { msgtype?: string; stream?: { id?: string; finish?: boolean; content?: string } } | undefined => {
    if (text === '') return undefined;
    const answer = JSON.parse(text) as { encrypt: string; msgsignature: string; timestamp: number; nonce: string };
    if (sign(token, String(answer.timestamp), answer.nonce, answer.encrypt) !== answer.msgsignature) {
      throw new Error('the bot signed its answer wrongly');
    }
    return JSON.parse(wecomDecrypt(encodingAESKey, answer.encrypt));
  };

  const poll = (streamId: string, chat: string, msgId: string) => {
    const started = Date.now();
    const run = (async () => {
      while (!closed && Date.now() - started < windowMs) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        if (closed) return;
        const refresh = seal(
          JSON.stringify({
            msgid: `refresh-${++nextId}`,
            aibotid: botId,
            chattype: chat.startsWith('user:') ? 'single' : 'group',
            from: { userid: 'poller' },
            msgtype: 'stream',
            stream: { id: streamId },
          }),
        );
        let answer: ReturnType<typeof open>;
        try {
          answer = open((await post(refresh.body, refresh.query)).text);
        } catch {
          continue;
        }
        if (answer?.stream?.finish) {
          const text = answer.stream.content ?? '';
          if (text !== '') sent.push({ via: 'stream', chat, answering: msgId, text, at: performance.now() });
          return;
        }
      }
    })();
    polling.add(run);
    void run.finally(() => polling.delete(run));
  };

  const verifyUrl = async () => {
    const echo = `echo-${++nextId}`;
    const ciphertext = wecomEncrypt(encodingAESKey, echo);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = 'n1';
    const url = new URL(callback);
    url.searchParams.set('msg_signature', sign(token, timestamp, nonce, ciphertext));
    url.searchParams.set('timestamp', timestamp);
    url.searchParams.set('nonce', nonce);
    url.searchParams.set('echostr', ciphertext);
    const response = await fetch(url);
    return { status: response.status, body: await response.text(), echo };
  };

  /** Whether something accepts TCP connections at the callback's address (no request: her log stays quiet). */
  const accepting = () =>
    new Promise<boolean>((resolve) => {
      const { hostname, port: callbackPort } = new URL(callback);
      const socket = connect({ host: hostname, port: Number(callbackPort) });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });

  return {
    token,
    encodingAESKey,
    sent,
    setCallback(url) {
      callback = url;
    },
    watchCallback(intervalMs = 20) {
      let up = false;
      const tick = async () => {
        if (closed) return;
        const now = callback !== '' && (await accepting());
        if (now && !up) {
          const check = await verifyUrl().catch(() => undefined);
          up = check !== undefined && check.status === 200 && check.body === check.echo;
          if (up) starts += 1;
        } else if (!now) {
          up = false;
        }
        if (!closed) watching = setTimeout(() => void tick(), intervalMs);
      };
      void tick();
    },
    callbackStarts: () => starts,
    openStreams: () => polling.size,
    verifyUrl,
    async message(options) {
      nextId += 1;
      const msgId = options.msgId ?? `wmsg${nextId}`;
      const chat = options.chatId ?? `user:${options.userId}`;
      const responseKey = `r${nextId}`;
      responseUrls.set(responseKey, { chat, msgId, used: false });
      const message: Record<string, unknown> = {
        msgid: msgId,
        aibotid: botId,
        ...(options.chatId ? { chatid: options.chatId } : {}),
        chattype: options.chatId ? 'group' : 'single',
        from: { userid: options.userId },
        response_url: `${base}/response/${responseKey}`,
      };
      if (options.image) {
        const fileId = `f${nextId}`;
        files.set(fileId, aes(encodingAESKey, pad(options.image), 'encrypt'));
        message.msgtype = 'image';
        message.image = { url: `${base}/files/${fileId}` };
      } else {
        message.msgtype = 'text';
        const mention = options.chatId !== undefined && options.mention !== false;
        message.text = { content: mention ? `@Aalis ${options.text ?? ''}` : (options.text ?? '') };
      }
      const sealed = seal(JSON.stringify(message));
      const postedAt = performance.now();
      let answer = await post(sealed.body, sealed.query);
      const statuses = [answer.status];
      for (let attempt = 1; answer.status !== 200 && attempt < CALLBACK_ATTEMPTS; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await post(sealed.body, sealed.query);
        statuses.push(answer.status);
      }
      const opened = answer.status === 200 ? open(answer.text) : undefined;
      const streamId = opened?.msgtype === 'stream' ? opened.stream?.id : undefined;
      // A stream already finished in the first answer (a command's answer) is shown as it is; WeCom asks no more.
      if (streamId && opened?.stream?.finish) {
        const text = opened.stream.content ?? '';
        if (text !== '') sent.push({ via: 'stream', chat, answering: msgId, text, at: performance.now() });
      } else if (streamId) poll(streamId, chat, msgId);
      return { msgId, status: answer.status, statuses, ...(streamId ? { streamId } : {}), postedAt };
    },
    async post(body, query = {}) {
      return (await post(body, query)).status;
    },
    seal,
    failNextResponseUrl(status, errcode = 0) {
      failResponseUrl = { status, errcode };
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('timed out waiting on the WeCom server');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      closed = true;
      clearTimeout(watching);
      await Promise.allSettled([...polling]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
