// OneBot v11 over HTTP (mode `http`): the implementation POSTs each event to the host (its HTTP POST reporting,
// 反向 HTTP), and the host calls the implementation's HTTP API (POST <url>/<action>). The answer to an event's POST
// is the only acknowledgement on this wire: it is given once the event was handled — for a message, once its input is
// stored — and is 503 when it could not be stored, so an implementation that delivers again (or its operator
// replaying the log) does not lose it. Bodies are bounded while they stream; with a `secret` every POST must carry
// the implementation's X-Signature (HMAC-SHA1 of the body).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage as HttpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Receipt } from '@aalis/api-gateway';
import type { PlatformState } from '@aalis/api-platform';
import type { Logger } from '@aalis/core';
import { callbackServer, closeServer, readCallbackBody, stateError } from '@aalis/platform-room';
import { redactUrl } from './onebot-connection.js';
import { onebotErrors } from './onebot-errors.js';

/** The largest event body read (the WebSocket modes' frame limit). */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

export interface OneBotHttpConnectionOptions {
  /** The implementation's HTTP API root, http:// or https://. */
  url: string;
  /** Where the host listens for the implementation's event POSTs. */
  listen: { host: string; port: number; path: string };
  accessToken?: string;
  /** The implementation's HTTP POST secret: each event POST is signed with it (X-Signature: sha1=…). */
  secret?: string;
  apiTimeoutMs: number;
  logger: Logger;
  /** Every event; its receipt decides the answer to the POST (`failed`: 503, else 204). */
  onEvent(event: Record<string, unknown>): Promise<Receipt> | undefined;
  /** The host listens (again): ask who she is. */
  onOpen?(): void;
}

export class OneBotHttpConnection {
  private server: Server | undefined;
  private liveState: PlatformState;

  constructor(private readonly options: OneBotHttpConnectionOptions) {
    this.liveState = { status: 'stopped', since: Date.now(), endpoint: this.endpoint };
  }

  get state(): PlatformState {
    return this.liveState;
  }

  /** The API root (no credentials) and where events are received. */
  get endpoint(): string {
    const { host, port, path } = this.options.listen;
    return `${redactUrl(this.options.url)} (events: http://${host}:${this.listeningPort ?? port}${path || '/'})`;
  }

  get connected(): boolean {
    return this.liveState.status === 'connected';
  }

  get listeningPort(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? (address as AddressInfo).port : undefined;
  }

  async start(): Promise<void> {
    const server = callbackServer({
      handle: (request, response) => this.handle(request, response),
      logger: this.options.logger,
      failed: 'OneBot: an event POST failed',
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.listen.port, this.options.listen.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.options.logger.error('OneBot HTTP server error', { error: error.message }));
    this.setState('connecting');
    this.options.logger.info(`OneBot: listening for event POSTs at ${this.endpoint}`);
    this.options.onOpen?.();
  }

  async stop(): Promise<void> {
    this.setState('stopped');
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await closeServer(server);
  }

  /** Calls an API action (POST <url>/<action>) and resolves with its `data`; rejects with a coded error. */
  async call(
    action: string,
    params: Record<string, unknown> = {},
    timeoutMs = this.options.apiTimeoutMs,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.options.url.replace(/\/+$/, '')}/${encodeURIComponent(action)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.accessToken ? { authorization: `Bearer ${this.options.accessToken}` } : {}),
        },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw onebotErrors.AALIS_ONEBOT_API_TIMEOUT({ action, timeoutMs });
      }
      this.setState('reconnecting', {
        error: stateError(onebotErrors.AALIS_ONEBOT_NOT_CONNECTED({ action, endpoint: this.endpoint })),
      });
      throw onebotErrors.AALIS_ONEBOT_NOT_CONNECTED({ action, endpoint: this.endpoint }, { cause: error });
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      const error = onebotErrors.AALIS_ONEBOT_TOKEN_REFUSED({
        endpoint: this.endpoint,
        status: response.status,
        delayMs: 0,
      });
      this.setState('refused', { configKey: 'plugins.platform-onebot.accessToken', error: stateError(error) });
      throw error;
    }
    const record = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    this.setState('connected');
    const status = String(record.status ?? (response.ok ? '' : response.status));
    if (status === 'ok' || status === 'async') return record.data;
    const message = [record.msg, record.wording].filter((part) => typeof part === 'string' && part !== '').join(' / ');
    throw onebotErrors.AALIS_ONEBOT_API_FAILED({
      action,
      status: status || 'missing',
      retcode: String(record.retcode ?? '?'),
      detail: message ? `: ${message}` : '',
    });
  }

  private async handle(request: HttpRequest, response: ServerResponse): Promise<void> {
    const path = this.options.listen.path;
    if (path && new URL(request.url ?? '/', 'http://event').pathname !== path)
      return void response.writeHead(404).end();
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const body = await readCallbackBody(request, MAX_EVENT_BYTES);
    if (body === undefined) {
      this.malformed(`an event POST larger than ${MAX_EVENT_BYTES} bytes`);
      // Not read further: answered and the connection closed.
      return void response.writeHead(413, { connection: 'close' }).end(() => request.destroy());
    }
    if (this.options.secret && !this.signed(body, String(request.headers['x-signature'] ?? ''))) {
      const refused = onebotErrors.AALIS_ONEBOT_SIGNATURE_INVALID({ endpoint: this.endpoint });
      this.options.logger.warn(refused.message, { code: refused.code });
      return void response.writeHead(401).end();
    }
    let event: unknown;
    try {
      event = JSON.parse(body.toString('utf8'));
    } catch {
      event = undefined;
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      this.malformed('an event POST whose body is not a JSON object');
      return void response.writeHead(400).end();
    }
    if (!this.connected) {
      this.setState('connected');
      this.options.onOpen?.();
    }
    const receipt = await this.options.onEvent(event as Record<string, unknown>);
    // The acknowledgement: 204 (no quick operation) once handled; 503 when its input could not be stored.
    response.writeHead(receipt === 'failed' ? 503 : 204).end();
  }

  private signed(body: Buffer, header: string): boolean {
    const expected = Buffer.from(`sha1=${createHmac('sha1', this.options.secret!).update(body).digest('hex')}`);
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private malformed(reason: string): void {
    const error = onebotErrors.AALIS_ONEBOT_EVENT_MALFORMED({ reason });
    this.options.logger.warn(error.message, { code: error.code });
  }

  private setState(status: PlatformState['status'], extra: Omit<PlatformState, 'status' | 'since'> = {}): void {
    if (status === this.liveState.status && extra.error === undefined) return;
    this.liveState = { status, since: Date.now(), endpoint: this.endpoint, ...extra };
  }
}
