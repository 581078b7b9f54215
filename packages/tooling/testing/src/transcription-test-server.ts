// A scripted OpenAI-compatible speech-to-text server on 127.0.0.1: POST <url>/audio/transcriptions with a real
// multipart/form-data body (parsed by the platform's own form parser, so a malformed body is a 400 as OpenAI answers),
// recording each request's fields and file bytes, answering from a queue of scripted replies.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TranscriptionRequest {
  headers: IncomingHttpHeaders;
  model: string | undefined;
  language: string | undefined;
  responseFormat: string | undefined;
  file: { name: string; type: string; bytes: Buffer } | undefined;
  /** Milliseconds from the request's arrival to the reply being sent (the provider's time). */
  serverMs?: number;
}

export type TranscriptionReply =
  /** 200 `{"text": …}` (json), after `delayMs`. */
  | { text: string; delayMs?: number }
  /** Another status with an OpenAI-shaped error body. */
  | { status: number; message: string; delayMs?: number }
  /** Never answers (until the server closes). */
  | { hang: true };

export interface TranscriptionTestServer {
  /** The API root, `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: TranscriptionRequest[];
  /** Replies for the next requests, in order; with none queued, `fallback` answers. */
  enqueue(...replies: TranscriptionReply[]): void;
  close(): Promise<void>;
}

export async function startTranscriptionTestServer({
  fallback = (request) => ({ text: `heard ${request.file?.bytes.length ?? 0} bytes` }),
}: {
  fallback?: (request: TranscriptionRequest) => TranscriptionReply;
} = {}): Promise<TranscriptionTestServer> {
  const queue: TranscriptionReply[] = [];
  const requests: TranscriptionRequest[] = [];
  const server = createServer(async (req, res) => {
    const arrived = performance.now();
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    let form: FormData;
    try {
      if (!contentType.startsWith('multipart/form-data')) throw new Error(`content-type ${contentType}`);
      form = await new Request('http://127.0.0.1/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: Buffer.concat(chunks),
      }).formData();
    } catch (error) {
      send(400, { error: { message: `not a multipart form: ${String(error)}`, type: 'invalid_request_error' } });
      return;
    }
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const file = form.get('file');
    const request: TranscriptionRequest = {
      headers: req.headers,
      model: field('model'),
      language: field('language'),
      responseFormat: field('response_format'),
      file:
        file !== null && typeof file !== 'string'
          ? { name: (file as File).name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) }
          : undefined,
    };
    requests.push(request);
    if (!request.file || !request.model) {
      send(400, { error: { message: "'file' and 'model' are required", type: 'invalid_request_error' } });
      return;
    }
    const reply = queue.shift() ?? fallback(request);
    if ('hang' in reply) return;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    request.serverMs = performance.now() - arrived;
    if ('text' in reply) send(200, { text: reply.text });
    else send(reply.status, { error: { message: reply.message, type: 'server_error' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
