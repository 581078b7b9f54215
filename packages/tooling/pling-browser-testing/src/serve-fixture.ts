// A static server for a built fixture page that also proxies /v1/* to the scripted model server, so pages use the
// relative baseUrl '/v1' (same origin, no CORS) and streamed answers reach the browser chunk by chunk.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

export interface ServeFixtureOptions {
  /** The built site (`buildFixturePage().dir`). */
  dir: string;
  /** What `/v1` stands for: the model server's base URL, e.g. `startOpenAiTestServer().url` (…/v1). */
  modelServerUrl: string;
}

export interface FixtureServer {
  /** The page's address, e.g. http://127.0.0.1:54321/ (serves index.html). */
  readonly url: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

// Connection-level headers that describe one hop and must not be forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** Serves `dir` on 127.0.0.1 (a free port) and forwards every `/v1/…` request to `modelServerUrl` + `/…`. */
export async function serveFixture({ dir, modelServerUrl }: ServeFixtureOptions): Promise<FixtureServer> {
  const root = resolve(dir);
  const upstream = modelServerUrl.replace(/\/+$/, '');
  new URL(upstream); // fails fast on a malformed URL

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/v1' || path.startsWith('/v1/')) return proxy(req, res, upstream + (req.url ?? '').slice(3));
    void serveFile(root, path, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function serveFile(root: string, urlPath: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed');
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return sendText(res, 400, 'bad path');
  }
  const file = resolve(join(root, decoded.endsWith('/') ? `${decoded}index.html` : decoded));
  if (file !== root && !file.startsWith(root + sep)) return sendText(res, 403, 'forbidden');
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return sendText(res, 404, `not found: ${urlPath}`);
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

/** Streams the request to the model server and its answer back, chunk by chunk, without buffering either way. */
function proxy(req: IncomingMessage, res: ServerResponse, target: string): void {
  const outgoing = request(target, { method: req.method, headers: forwardable(req.headers) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
    res.flushHeaders();
    answer.pipe(res);
    // A reply cut mid-stream is cut for the browser too, rather than ending as if it were complete.
    answer.on('close', () => {
      if (!answer.complete) res.destroy();
    });
  });
  // A dropped or refused connection reaches the page as the same network failure it would see without the proxy.
  outgoing.on('error', () => res.destroy());
  // The browser gave up (an aborted fetch, a closed page): drop the upstream call too, as a real proxy would, so
  // the model server sees the client go away.
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  req.pipe(outgoing);
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || HOP_BY_HOP.has(name)) continue;
    result[name] = value;
  }
  return result;
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
