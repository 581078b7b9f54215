// A long chat through the Anthropic provider against the emulating Messages API (the documented caching rules):
// a 3k-token head, turns with tool loops, and the history cut from its start whenever it outgrows its budget, as the
// agent's trimming does. Prints the cache-read share of the prompt tokens, how many requests read the cache, and the
// input cost relative to no caching (reads at 0.1×, writes at 1.25× the input price), with caching off as baseline.
// Run: npm run bench anthropic-cache
import { llm } from '@aalis/api-llm';
import type { Message } from '@aalis/schema-message';
import { bootApp, startAnthropicTestServer, textReply, toolCallReply } from '@aalis/testing';
import plugin from '../src/index.js';

const TURNS = Number(process.env.ANTHROPIC_BENCH_TURNS ?? 80);
const HISTORY_BUDGET_TOKENS = 12_000;
const tokens = (text: string) => Math.ceil(text.length / 4);

const tools = [
  {
    name: 'search',
    description: 'Searches the notes',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
  },
  {
    name: 'calculator',
    description: 'Evaluates arithmetic',
    parameters: { type: 'object', properties: { e: { type: 'string' } } },
  },
];
const system = `You are Aalis. ${'Keep to the house rules; answer in the language of the question. '.repeat(180)}`;

async function run(promptCaching: boolean) {
  const server = await startAnthropicTestServer({ apiKey: 'k' });
  const booted = await bootApp({
    plugins: [
      [
        plugin,
        { baseUrl: server.url, apiKey: 'k', promptCaching, proxy: '', models: [{ id: 'claude-bench' }] },
        { id: 'anthropic' },
      ],
    ],
  });
  const provider = booted.app.services.selected(llm)!.impl;
  let history: Message[] = [];
  let cuts = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const turnMessages: Message[] = [
      { role: 'user', content: `Turn ${turn}: ${'a question with some context, '.repeat(12)}` },
    ];
    const loops = turn % 3 === 0 ? 2 : 0;
    for (let loop = 0; loop <= loops; loop++) {
      const calls = loop < loops;
      server.enqueue(
        calls
          ? toolCallReply([{ id: `toolu_${turn}_${loop}`, name: 'search', arguments: { q: `topic ${turn}` } }])
          : textReply(`Answer ${turn}: ${'a considered reply, '.repeat(20)}`),
      );
      const response = await provider.chat({
        model: 'anthropic/claude-bench',
        messages: [{ role: 'system', content: system }, ...history, ...turnMessages],
        tools,
        sessionId: 'bench',
        purpose: 'conversation',
      });
      turnMessages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      if (calls)
        turnMessages.push({
          role: 'tool',
          content: `notes about topic ${turn} `.repeat(30),
          toolCallId: response.toolCalls[0]!.id,
        });
    }
    history = [...history, ...turnMessages];
    // The cut: drop whole turns from the start until the history fits (the agent's hard trim works the same way).
    if (history.reduce((sum, message) => sum + tokens(JSON.stringify(message)), 0) > HISTORY_BUDGET_TOKENS) {
      cuts++;
      while (history.reduce((sum, message) => sum + tokens(JSON.stringify(message)), 0) > HISTORY_BUDGET_TOKENS * 0.6) {
        const next = history.findIndex((message, index) => index > 0 && message.role === 'user' && !message.toolCallId);
        history = history.slice(next > 0 ? next : 1);
      }
    }
  }
  const usages = server.usages;
  await booted.stop();
  await server.close();
  const sum = (key: string) => usages.reduce((total, usage) => total + (usage[key] ?? 0), 0);
  const read = sum('cache_read_input_tokens');
  const written = sum('cache_creation_input_tokens');
  const uncached = sum('input_tokens');
  const prompt = read + written + uncached;
  return {
    requests: usages.length,
    reading: usages.filter((usage) => (usage.cache_read_input_tokens ?? 0) > 0).length,
    cuts,
    prompt,
    readShare: read / prompt,
    cost: (uncached + read * 0.1 + written * 1.25) / prompt,
  };
}

const off = await run(false);
const on = await run(true);
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
console.log(`long chat: ${TURNS} turns, ${on.requests} requests, ${on.cuts} history cuts, ${on.prompt} prompt tokens`);
console.log(
  `caching off (baseline): read share ${pct(off.readShare)}, requests reading ${off.reading}/${off.requests}, input cost 1.00×`,
);
console.log(
  `breakpoints head + history + tail: read share ${pct(on.readShare)}, requests reading ${on.reading}/${on.requests} (the first cannot), input cost ${on.cost.toFixed(2)}× of the baseline`,
);
