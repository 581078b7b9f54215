// Streams one long completion from the scripted test server through our provider and through the official
// `openai` client, on the same bytes, and prints both throughputs and their ratio (goal: ours ≥ 1.0×).
// Run: npm run bench llm

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { llm } from '@aalis/api-llm';
import { bootApp, startOpenAiTestServer } from '@aalis/testing';
import { ChatStreamDecoder } from '@aalis/wire-openai';
import OpenAI from 'openai';
import { VERSION as OPENAI_VERSION } from 'openai/version';
import plugin from '../src/index.js';

const CHUNKS = Number(process.env.LLM_BENCH_CHUNKS ?? 20_000);
const ROUNDS = Number(process.env.LLM_BENCH_ROUNDS ?? 9);
const WARMUP = 3;
const API_KEY = 'sk-bench';

// One stream body, built once and replayed verbatim for every call: tokens of 3–8 characters, like real output.
const words = ['the ', 'model ', 'streams ', 'a ', 'long ', 'answer, ', 'token ', 'by ', 'token. ', '模型', '输出 '];
let body = '';
let expected = '';
for (let index = 0; index < CHUNKS; index++) {
  const text = words[index % words.length]!;
  expected += text;
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'bench-model',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
  };
  body += `data: ${JSON.stringify(chunk)}\n\n`;
}
body += `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
body += `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [], usage: { prompt_tokens: 12, completion_tokens: CHUNKS, total_tokens: CHUNKS + 12 } })}\n\n`;
body += 'data: [DONE]\n\n';
const bytes = Buffer.byteLength(body);

const server = await startOpenAiTestServer({ apiKey: API_KEY, models: ['bench-model'] });
const booted = await bootApp({
  plugins: [
    [
      plugin,
      { baseUrl: server.url, apiKey: API_KEY, fetchModels: false, models: [{ id: 'bench-model' }] },
      { id: 'bench' },
    ],
  ],
});
const provider = booted.app.services.providers(llm)[0]!.impl;
const client = new OpenAI({ baseURL: server.url, apiKey: API_KEY, maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'Write a long answer.' }];

async function ours(): Promise<number> {
  server.enqueue({ type: 'stream', steps: [{ raw: body }] });
  const started = performance.now();
  let content = '';
  for await (const event of provider.chatStream({
    model: 'bench/bench-model',
    messages,
    sessionId: 'bench',
    purpose: 'conversation',
  })) {
    if (event.type === 'text-delta') content += event.text;
  }
  const elapsed = performance.now() - started;
  if (content !== expected) throw new Error('ours: content mismatch');
  return elapsed;
}

async function theirs(): Promise<number> {
  server.enqueue({ type: 'stream', steps: [{ raw: body }] });
  const started = performance.now();
  let content = '';
  const stream = await client.chat.completions.create({
    model: 'bench-model',
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
  const elapsed = performance.now() - started;
  if (content !== expected) throw new Error('openai: content mismatch');
  return elapsed;
}

const requestBody = JSON.stringify({
  model: 'bench-model',
  messages,
  stream: true,
  stream_options: { include_usage: true },
});
const requestHeaders = { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` };

/** Reference only: wire-openai's decoder alone over a transport, to compare node:http with global fetch. */
async function decode(pieces: AsyncIterable<Uint8Array>, started: number, label: string): Promise<number> {
  const decoder = new ChatStreamDecoder();
  let content = '';
  for await (const piece of pieces) {
    for (const event of decoder.push(piece)) if (event.type === 'text-delta') content += event.text;
  }
  decoder.end();
  decoder.response();
  const elapsed = performance.now() - started;
  if (content !== expected) throw new Error(`${label}: content mismatch`);
  return elapsed;
}

async function decoderOverFetch(): Promise<number> {
  server.enqueue({ type: 'stream', steps: [{ raw: body }] });
  const started = performance.now();
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: requestHeaders,
    body: requestBody,
  });
  // Node's web ReadableStream is async-iterable; the DOM lib's type does not say so.
  return decode(response.body as unknown as AsyncIterable<Uint8Array>, started, 'fetch');
}

async function decoderOverHttp(): Promise<number> {
  server.enqueue({ type: 'stream', steps: [{ raw: body }] });
  const started = performance.now();
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = httpRequest(`${server.url}/chat/completions`, { method: 'POST', headers: requestHeaders }, resolve);
    request.on('error', reject);
    request.end(requestBody);
  });
  return decode(response, started, 'node:http');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (let round = 0; round < WARMUP; round++) {
  await ours();
  await theirs();
  await decoderOverFetch();
  await decoderOverHttp();
}
const oursTimes: number[] = [];
const theirTimes: number[] = [];
const fetchTimes: number[] = [];
const httpTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither side always runs on a warmer process.
  if (round % 2 === 0) {
    oursTimes.push(await ours());
    theirTimes.push(await theirs());
  } else {
    theirTimes.push(await theirs());
    oursTimes.push(await ours());
  }
  fetchTimes.push(await decoderOverFetch());
  httpTimes.push(await decoderOverHttp());
}
const report = (name: string, ms: number) => {
  const chunksPerSecond = (CHUNKS / ms) * 1000;
  const megabytesPerSecond = (bytes / 1_048_576 / ms) * 1000;
  console.log(
    `${name.padEnd(30)} ${ms.toFixed(1).padStart(8)} ms  ${Math.round(chunksPerSecond).toLocaleString('en').padStart(10)} chunks/s  ${megabytesPerSecond.toFixed(1).padStart(6)} MB/s`,
  );
};
console.log(
  `stream: ${CHUNKS.toLocaleString('en')} chunks, ${(bytes / 1_048_576).toFixed(2)} MB; median of ${ROUNDS} rounds`,
);
report('@aalis/plugin-llm-openai', median(oursTimes));
report(`openai ${OPENAI_VERSION}`, median(theirTimes));
console.log(`ratio (ours / openai throughput): ${(median(theirTimes) / median(oursTimes)).toFixed(2)}×`);
console.log('reference: wire-openai decoder alone (no provider, no async hop per event), by transport:');
report('  over node:http', median(httpTimes));
report('  over global fetch', median(fetchTimes));

await booted.stop();
await server.close();
