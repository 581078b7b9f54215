// npm run bench platform-request — the CPU one adapter API call costs (a reply-sized JSON POST and its small JSON
// answer over a kept-alive loopback connection), client and server in this process: platformRequest against a bare
// node:http request over a keep-alive agent (the floor: the least a call can cost here) and the global fetch with
// an AbortSignal.timeout (what the adapters used before). Variants take turns in short blocks, so load on the machine
// hits them alike; the figure is µs of CPU (user + system) per call and its ratio to the floor.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { platformRequest } from '../src/platform-request.js';

const CALLS = Number(process.env.CALLS) || 3_000;
const WARMUP = 300;
const BLOCK = 100;

const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true,"result":{"message_id":1}}');
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
const body = JSON.stringify({ chat_id: 11, text: 'reply 123 '.repeat(8) });
const headers = { 'content-type': 'application/json' };

const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const bare = () =>
  new Promise<string>((resolve, reject) => {
    const call = request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    call.on('error', reject);
    call.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    });
    call.end(body);
  });

const variants: Record<string, () => Promise<unknown>> = {
  'node:http (floor)': bare,
  platformRequest: () => platformRequest(url, { headers, body, timeoutMs: 10_000 }).then((answer) => answer.text),
  'fetch + AbortSignal.timeout': () =>
    fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) }).then((answer) => answer.text()),
};

const cpu: Record<string, number> = {};
const calls: Record<string, number> = {};
for (const name of Object.keys(variants)) {
  cpu[name] = 0;
  calls[name] = 0;
  for (let index = 0; index < WARMUP; index++) await variants[name]!();
}
for (let done = 0; done < CALLS; done += BLOCK) {
  for (const [name, call] of Object.entries(variants)) {
    const before = process.cpuUsage();
    for (let index = 0; index < BLOCK; index++) await call();
    const used = process.cpuUsage(before);
    cpu[name]! += used.user + used.system;
    calls[name]! += BLOCK;
  }
}
agent.destroy();
server.closeAllConnections();
server.close();

console.log(
  `${CALLS} calls per variant after ${WARMUP} unmeasured, in blocks of ${BLOCK} taking turns; CPU of this process (client and server) per call`,
);
const floor = cpu['node:http (floor)']! / calls['node:http (floor)']!;
for (const name of Object.keys(variants)) {
  const perCall = cpu[name]! / calls[name]!;
  console.log(`${name.padEnd(30)} ${perCall.toFixed(1).padStart(8)} µs   ${(perCall / floor).toFixed(2)}× the floor`);
}
