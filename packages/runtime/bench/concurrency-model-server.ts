// The concurrency bench's model server, in a process of its own so that neither the product's nor the floor's CPU
// figure includes it: a tool call when the last message is not a tool result, else a short answer, each after the
// latency given in argv[2] (ms). Sends { url } to its parent once listening, { cpuMs, connections } (its own CPU and the
// connections it accepted since the last ask) when the parent sends 'cpu', and { bodies } (the first chat request
// bodies it received, as sent) on 'bodies'.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const latencyMs = Number(process.argv[2] ?? 50);
const KEPT_BODIES = 40;
const bodies: string[] = [];

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
    setTimeout(() => answer(text, res), latencyMs);
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
  process.send!({ cpuMs: (used.user + used.system) / 1000, connections });
  connections = 0;
});
// The parent going away ends the server, so a failed bench leaves nothing running.
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
});
