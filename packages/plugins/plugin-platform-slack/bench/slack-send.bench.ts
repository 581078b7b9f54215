// npm run bench slack-send — what one Slack send costs through the WebClient (chat.postMessage: its queue, its body
// encoding, the HTTP call, a local server's answer, the answer's parsing, all in this process), with the global fetch
// (the WebClient's default, with its per-call AbortSignal.timeout) and with the adapter's slackFetch (the shared
// exchange). Variants take turns in blocks of 100, so load on the machine hits them alike: µs of CPU (user + system)
// per send and their ratio. Then the bytes each variant allocates per send (V8's sampling heap profiler, objects the
// collector already freed included): what fills the young generation and so brings the next scavenge nearer.
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { LogLevel, WebClient } from '@slack/web-api';
import { slackFetch } from '../src/slack-fetch.js';

const SENDS = Number(process.env.SENDS) || 3_000;
const WARMUP = 300;
const BLOCK = 100;
const TIMEOUT_MS = 15_000;

const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ ok: true, channel: 'C1', ts: '1700000000.000100' }));
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const slackApiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
const ignore = () => {};
const logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  setLevel: ignore,
  getLevel: () => LogLevel.ERROR,
  setName: ignore,
};
const retryConfig = { retries: 3, factor: 2, minTimeout: 100, maxTimeout: 5_000 };
const clients: Record<string, WebClient> = {
  'global fetch': new WebClient('xoxb-bench', { slackApiUrl, timeout: TIMEOUT_MS, retryConfig, logger }),
  slackFetch: new WebClient('xoxb-bench', {
    slackApiUrl,
    fetch: slackFetch({ timeoutMs: TIMEOUT_MS }),
    retryConfig,
    logger,
  }),
};
const text = 'reply 123 '.repeat(8);
const send = async (client: WebClient) => {
  const answer = await client.chat.postMessage({ channel: 'C1', text, mrkdwn: true });
  if (answer.ts !== '1700000000.000100') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
};

const cpu: Record<string, number> = {};
for (const [name, client] of Object.entries(clients)) {
  cpu[name] = 0;
  for (let index = 0; index < WARMUP; index++) await send(client);
}
for (let done = 0; done < SENDS; done += BLOCK) {
  for (const [name, client] of Object.entries(clients)) {
    const before = process.cpuUsage();
    for (let index = 0; index < BLOCK; index++) await send(client);
    const used = process.cpuUsage(before);
    cpu[name]! += used.user + used.system;
  }
}

interface HeapNode {
  selfSize: number;
  children: HeapNode[];
}
const total = (node: HeapNode): number => node.children.reduce((sum, child) => sum + total(child), node.selfSize);
const ALLOCATION_SENDS = 1_000;
const bytes: Record<string, number> = {};
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
for (const [name, client] of Object.entries(clients)) {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let index = 0; index < ALLOCATION_SENDS; index++) await send(client);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  bytes[name] = total(profile.head as unknown as HeapNode) / ALLOCATION_SENDS;
}
session.disconnect();
server.closeAllConnections();
server.close();

console.log(
  `${SENDS} sends per variant after ${WARMUP} unmeasured, blocks of ${BLOCK} taking turns; CPU of this process per send (client and server); then ${ALLOCATION_SENDS} sends per variant under the sampling heap profiler, bytes allocated per send`,
);
const base = 'global fetch';
for (const name of Object.keys(clients)) {
  const perSend = cpu[name]! / SENDS;
  const ratio = perSend / (cpu[base]! / SENDS);
  const kib = bytes[name]! / 1024;
  console.log(
    `${name.padEnd(14)} ${perSend.toFixed(1).padStart(8)} µs CPU (${ratio.toFixed(2)}× the global fetch's)   ${kib.toFixed(1).padStart(6)} KiB allocated (${(bytes[name]! / bytes[base]!).toFixed(2)}×)`,
  );
}
