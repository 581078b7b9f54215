// The Stream-mode connection on the maintained SDK (dingtalk-stream's DWClient): the SDK reads the frames (SYSTEM
// ping answered, REGISTERED/disconnect noted, CALLBACK emitted by topic) and writes the acknowledgements. Two parts
// are ours, because the SDK fixes them: the connection is opened at the configured gateway URL (the SDK's is a
// constant, so a local server could not be reached) with `fetch`, and the socket is made here with a size limit and
// handed to the SDK, without its own fixed one-second reconnect and console output — the adapter reconnects with
// backoff under the deployment's lease (docs/decisions/platform-dingtalk.md).

import { shownEndpoint } from '@aalis/platform-room';
import { DWClient, type DWClientDownStream } from 'dingtalk-stream';
import { WebSocket } from 'ws';
import { dingtalkErrors } from './dingtalk-errors.js';

/** The robot message callback topic. */
export const TOPIC_ROBOT = '/v1.0/im/bot/messages/get';

const FRAME_TYPES = new Set(['SYSTEM', 'EVENT', 'CALLBACK']);
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export interface StreamConnectionOptions {
  clientId: string;
  clientSecret: string;
  gatewayUrl: string;
  timeoutMs: number;
  /** A frame that is not JSON, or of a type the protocol does not have. */
  onBadFrame(error: Error & { code: string }): void;
}

export class StreamConnection extends DWClient {
  private endpointUrl: string | undefined;

  constructor(private readonly options: StreamConnectionOptions) {
    super({ clientId: options.clientId, clientSecret: options.clientSecret, ua: 'aalis', keepAlive: false });
    this.config.autoReconnect = false;
    // A fresh list: the SDK's default one is shared by every client.
    this.config.subscriptions = [{ type: 'CALLBACK', topic: TOPIC_ROBOT }];
  }

  /** Opens a connection at the gateway: the socket's endpoint and its one-time ticket. */
  override async getEndpoint(): Promise<this> {
    let response: Response;
    try {
      response = await fetch(this.options.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          clientId: this.config.clientId,
          clientSecret: this.config.clientSecret,
          ua: this.config.ua,
          subscriptions: this.config.subscriptions,
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw dingtalkErrors.AALIS_DINGTALK_UNREACHABLE({
        what: 'gateway/connections/open',
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    const body = (await response.json().catch(() => undefined)) as
      | { endpoint?: string; ticket?: string; code?: string; message?: string }
      | undefined;
    if (response.status === 401 || response.status === 403 || (response.status === 400 && body?.code)) {
      throw dingtalkErrors.AALIS_DINGTALK_CREDENTIALS_REJECTED(
        { reason: `${response.status} ${body?.code ?? ''} ${body?.message ?? ''}`.trim() },
        { statusCode: response.status },
      );
    }
    if (!response.ok || !body?.endpoint || !body.ticket) {
      throw dingtalkErrors.AALIS_DINGTALK_UNREACHABLE({
        what: 'gateway/connections/open',
        reason: `${response.status} ${body?.message ?? 'no endpoint or ticket'}`,
      });
    }
    const url = new URL(body.endpoint);
    url.searchParams.set('ticket', body.ticket);
    this.endpointUrl = url.toString();
    return this;
  }

  /** Where the socket goes, without its ticket (for logs and the console). */
  shownEndpoint(): string | undefined {
    return this.endpointUrl ? shownEndpoint(this.endpointUrl) : undefined;
  }

  /** Opens the socket at the endpoint getEndpoint found and hands its frames to the SDK. */
  open(): WebSocket {
    if (!this.endpointUrl) throw new Error('getEndpoint first');
    const socket = new WebSocket(this.endpointUrl, {
      handshakeTimeout: this.options.timeoutMs,
      maxPayload: MAX_FRAME_BYTES,
    });
    // The SDK answers pings and writes acknowledgements on this socket (its private field: element access reaches it).
    // biome-ignore lint/complexity/useLiteralKeys: `socket` is private in the SDK's class; only element access reaches it
    this['socket'] = socket;
    socket.on('message', (data) => {
      const text = String(data);
      let frame: Partial<DWClientDownStream>;
      try {
        frame = JSON.parse(text) as Partial<DWClientDownStream>;
      } catch {
        this.options.onBadFrame(dingtalkErrors.AALIS_DINGTALK_EVENT_MALFORMED({ reason: 'not JSON' }));
        return;
      }
      if (typeof frame !== 'object' || frame === null || typeof frame.headers !== 'object' || frame.headers === null) {
        this.options.onBadFrame(dingtalkErrors.AALIS_DINGTALK_EVENT_MALFORMED({ reason: 'a frame without headers' }));
        return;
      }
      if (!FRAME_TYPES.has(String(frame.type))) {
        this.options.onBadFrame(dingtalkErrors.AALIS_DINGTALK_EVENT_UNKNOWN({ type: String(frame.type).slice(0, 80) }));
        if (frame.headers.messageId) this.send(frame.headers.messageId, { response: null });
        return;
      }
      this.onDownStream(text);
    });
    return socket;
  }

  /** Acknowledges a callback so DingTalk does not deliver it again. */
  acknowledge(messageId: string): void {
    this.socketCallBackResponse(messageId, null);
  }
}
