// The concurrency bench's model server, in a process of its own so that neither the product's nor the floor's CPU
// figure includes it: a tool call when the last message is not a tool result, else a short answer, each after the
// latency given in argv[2] (ms). Sends { url } to its parent once listening, { cpuMs, connections, calls } (its own
// CPU, the connections it accepted and the calls it answered since the last ask) when the parent sends 'cpu', and
// { bodies } (the first chat request bodies it received, as sent) on 'bodies'. Each call is [tag, received, answered]:
// the client's `x-bench-tag` header, else the last `[t:tag]` in the body (the product's latest user message), and
// the wall-clock times (epoch ms, sub-millisecond) at which the request had been read and its answer written, so the
// bench can tell how much of a turn's added latency was spent before, between and after its model calls.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const latencyMs = Number(process.argv[2] ?? 50);
const KEPT_BODIES = 40;
const bodies: string[] = [];
type Call = [tag: string, received: number, answered: number];
let calls: Call[] = [];
const now = () => performance.timeOrigin + performance.now();
const TAG = /\[t:([^\]]+)\]/g;

/** The turn's tag: the header the floor sends, else the last `[t:…]` in the body (the product's latest user message). */
function tagOf(req: IncomingMessage, text: string): string {
  const header = req.headers['x-bench-tag'];
  if (typeof header === 'string') return header;
  let tag = '';
  for (const match of text.matchAll(TAG)) tag = match[1]!;
  return tag;
}

function sse(res: ServerResponse, chunks: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function answer(text: string, res: ServerResponse): void {
  const body = JSON.parse(text) as { messages: Array<{ role: string }> };
  const afterTool = body.messages[body.messages.length - 1]?.role === 'tool';
  const base = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'bench-model' };
  const usage = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 };
  if (afterTool) {
    sse(res, [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'It is 42.' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage },
    ]);
    return;
  }
  const call = {
    index: 0,
    id: `call_${Math.random().toString(36).slice(2)}`,
    type: 'function',
    function: { name: 'calculator', arguments: '{"expression":"6*7"}' },
  };
  sse(res, [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage },
  ]);
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    text += chunk;
  });
  req.on('end', () => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model' }] }));
      return;
    }
    if (bodies.length < KEPT_BODIES) bodies.push(text);
    const received = now();
    setTimeout(() => {
      answer(text, res);
      calls.push([tagOf(req, text), received, now()]);
    }, latencyMs);
  });
});
server.keepAliveTimeout = 60_000;
let connections = 0;
server.on('connection', () => connections++);

let since = process.cpuUsage();
process.on('message', (message) => {
  if (message === 'bodies') process.send!({ bodies });
  if (message !== 'cpu') return;
  const used = process.cpuUsage(since);
  since = process.cpuUsage();
  process.send!({ cpuMs: (used.user + used.system) / 1000, connections, calls });
  connections = 0;
  calls = [];
});
// The parent going away ends the server, so a failed bench leaves nothing running.
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
});
