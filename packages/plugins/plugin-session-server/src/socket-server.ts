// The socket side (ws): the upgrade passes the Host and Origin checks (refused with 403 before any frame) and the
// login check (a coded error frame, then close 4401); then a hello, and requests answered as they come.
import type { IncomingMessage as HttpRequest, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Account, HelloFrame, ServerFrame } from '@aalis/session-client';
import { CLOSE_CODES, PROTOCOL_VERSION } from '@aalis/session-client';
import { type WebSocket, WebSocketServer } from 'ws';
import { parseBoundedJson } from './body-reader.js';
import { clientLocale } from './client-locale.js';
import type { ConnectionLimits } from './connection-limits.js';
import { accountOf, checkHost, checkOrigin, requireLogin } from './login-checks.js';
import { readRequestFrame, runRequest } from './run-request.js';
import type { Peer, ServerDeps } from './server-deps.js';
import { frameMalformed, serverErrors, toProtocolError } from './server-errors.js';
import { serverFeatures } from './server-features.js';
import { subscriberOf } from './session-requests.js';

export const SOCKET_PATH = '/api/v1/socket';
/** A peer that reads too slowly is closed past this much unsent data; it reconnects and resumes. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface SocketServerOptions {
  deps: ServerDeps;
  hosts(): { accepted: ReadonlySet<string>; expected: string };
  limits(): HelloFrame['limits'];
  redact(text: string): string;
  /** Sockets and requests in progress per login (shared with HTTP). */
  connections: ConnectionLimits;
}

export function attachSocketServer(server: Server, options: SocketServerOptions): { close(): void } {
  const { deps } = options;
  // ws counts a message's size while it arrives and closes the socket (1009) past maxPayload, before buffering it;
  // a frame over maxFrameBytes but within twice that is read and answered FRAME_TOO_LARGE, the socket kept.
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.config.maxFrameBytes * 2 });
  // Every socket is pinged on a schedule; one that did not answer the previous ping (gone, or too slow to read) is
  // closed, so dead and stalled peers do not hold memory.
  const alive = new WeakSet<WebSocket>();
  const heartbeat = setInterval(() => {
    for (const client of wss.clients) {
      if (!alive.has(client)) {
        client.terminate();
        continue;
      }
      alive.delete(client);
      client.ping();
    }
  }, deps.config.socketPingMs);
  heartbeat.unref();

  const refuse = (socket: Duplex, status: number, error: unknown) => {
    const { error: body } = toProtocolError(error, deps.locale);
    const text = JSON.stringify({ ok: false, error: body });
    socket.end(
      `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  };

  const onUpgrade = (request: HttpRequest, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== SOCKET_PATH) {
      refuse(socket, 404, serverErrors.AALIS_WEBUI_NOT_FOUND({ path: (path ?? '').slice(0, 200) }));
      return;
    }
    let refusal: unknown;
    try {
      const { accepted, expected } = options.hosts();
      checkHost(request.headers.host, accepted, expected);
      checkOrigin(request.headers.origin, request.headers.host ?? '', true);
    } catch (error) {
      refusal = error;
    }
    // A refused socket is still opened, to say why (a browser cannot read a refused upgrade's body): it gets one
    // error frame and close 4403, and nothing else.
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (refusal === undefined) connected(ws, request, socket);
      else closeWith(ws, CLOSE_CODES.refused, refusal);
    });
  };
  server.on('upgrade', onUpgrade);

  const closeWith = (ws: WebSocket, code: number, error: unknown) => {
    const { error: body } = toProtocolError(error, deps.locale);
    ws.send(JSON.stringify({ type: 'error', error: body } satisfies ServerFrame));
    ws.close(code, body.code);
  };

  const connected = (ws: WebSocket, request: HttpRequest, socket: Duplex) => {
    let account: Account | undefined;
    let loginKey = '';
    const address = request.socket.remoteAddress;
    try {
      const login = requireLogin(deps, request.headers.cookie);
      account = accountOf(deps, login.userId);
      if (!account) throw serverErrors.AALIS_WEBUI_LOGIN_EXPIRED();
      loginKey = login.key;
    } catch (error) {
      closeWith(ws, CLOSE_CODES.loginRequired, error);
      return;
    }
    let closeSlot: () => void;
    try {
      closeSlot = options.connections.openSocket(loginKey);
    } catch (error) {
      closeWith(ws, CLOSE_CODES.tooMany, error);
      return;
    }
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
    const cookie = request.headers.cookie;
    // Frames sent to this socket in one turn of the event loop go out in one write: a session change reaches every
    // socket of an account, and a write (a system call) per frame per socket was most of the cost of fan-out.
    let corked = false;
    const uncork = () => {
      corked = false;
      socket.uncork();
    };
    const peer: Peer = {
      account,
      loginKey,
      subscriptions: new Set(),
      logLevel: undefined,
      // The page's language, from the socket URL (?locale=); locale.set changes it.
      locale: clientLocale(new URL(request.url ?? '/', 'http://localhost').searchParams.get('locale'), deps.locale),
      send(frame) {
        this.sendText(JSON.stringify(frame));
      },
      sendText(text) {
        if (ws.readyState !== ws.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
          ws.close(1013, 'too far behind; reconnect and resume');
          return;
        }
        if (!corked) {
          corked = true;
          socket.cork();
          setImmediate(uncork);
        }
        // A text frame whatever the type: a Buffer is the frame's JSON already encoded, shared by its sockets.
        ws.send(text, { binary: false });
      },
      close(code, reason) {
        ws.close(code, reason);
      },
    };
    deps.peers.add(peer);
    peer.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      serverId: deps.serverId,
      account,
      limits: options.limits(),
      locale: peer.locale ?? deps.locale,
      features: serverFeatures(deps),
    });

    ws.on('message', (data, isBinary) => {
      const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength;
      void handleFrame(peer, cookie, isBinary, size, data, address);
    });
    ws.on('close', () => {
      closeSlot();
      deps.peers.delete(peer);
      for (const sessionId of peer.subscriptions) deps.live(sessionId).subscribers.delete(subscriberOf(peer));
      peer.subscriptions.clear();
    });
    ws.on('error', () => {
      // 'close' follows.
    });
  };

  const handleFrame = async (
    peer: Peer,
    cookie: string | undefined,
    isBinary: boolean,
    size: number,
    data: unknown,
    address: string | undefined,
  ) => {
    let id: string | undefined;
    try {
      // The login may have ended or expired since the socket opened.
      try {
        requireLogin(deps, cookie);
      } catch {
        peer.send({ type: 'goodbye', reason: 'login-expired' });
        peer.close(CLOSE_CODES.loginRequired, 'AALIS_WEBUI_LOGIN_EXPIRED');
        return;
      }
      if (size > deps.config.maxFrameBytes) {
        throw serverErrors.AALIS_WEBUI_FRAME_TOO_LARGE({ size, limit: deps.config.maxFrameBytes });
      }
      if (isBinary) throw frameMalformed('binary frames are not read', peer.locale ?? deps.locale);
      const parsed = parseBoundedJson(String(data), deps.config.maxJsonDepth, peer.locale ?? deps.locale, 'not JSON');
      const candidate = (parsed as { id?: unknown } | null)?.id;
      if (typeof candidate === 'string' && candidate.length <= 64) id = candidate;
      const frame = readRequestFrame(parsed, true, peer.locale ?? deps.locale);
      const result = await options.connections.request(peer.loginKey, () =>
        runRequest(
          deps,
          { account: peer.account, peer, redact: options.redact, address: address ?? '' },
          frame.type,
          frame.params,
        ),
      );
      peer.send({ type: 'reply', id: frame.id!, result });
    } catch (error) {
      const { error: body, status } = toProtocolError(error, peer.locale ?? deps.locale);
      if (status >= 500) deps.log.error('socket request failed', { error: String(error) });
      peer.send({ type: 'error', ...(id !== undefined ? { id } : {}), error: body });
    }
  };

  return {
    close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const peer of deps.peers) {
        peer.send({ type: 'goodbye', reason: 'shutdown' });
        peer.close(1001, 'shutdown');
      }
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
