// `npm run bench prefix`: a simulated 300-turn conversation (system prompt, head blocks, volatile context, tool calls
// every few turns) trimmed at budgets of 4k and 8k tokens. Reports the share of prompt tokens that repeat the
// previous request's prefix (what a provider's prefix cache can reuse) under trimMessages and under "drop the oldest
// until it fits" (LangChain trimMessages strategy 'last', a plain sliding window), and the ratio between them.
// Goals: ≥ 90% at 4k, ≥ 95% at 8k, ≥ 4× the sliding window.

import { groupToolCalls, type Message } from '@aalis/schema-message';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateMessagesTokens, estimateTextTokens, trimMessages } from '../src/index.js';
import { headBlocks, PROFILES, type Profile, simulate, systemPrompt, TURNS, type Turn } from './conversation-shapes.js';

const MAX_OUTPUT_TOKENS = 1024;
const TOOL_RESULT_MAX_RATIO = 0.15; // plugin-agent's toolResultMaxRatio default: results are cut before trimming

/** What the engine does before trimming: results over toolResultMaxRatio of the window are cut. */
function capResults(turns: Turn[], contextWindow: number): Turn[] {
  const maxTokens = Math.floor(contextWindow * TOOL_RESULT_MAX_RATIO);
  return turns.map((turn) => ({
    ...turn,
    rounds: turn.rounds.map((round) =>
      round.map((message) => {
        if (message.role !== 'tool' || estimateTextTokens(message.content) <= maxTokens) return message;
        let content = message.content;
        while (estimateTextTokens(content) > maxTokens) content = content.slice(0, Math.floor(content.length * 0.9));
        return { ...message, content };
      }),
    ),
  }));
}

// Real o200k counts for the shares (the trimming itself uses the package's estimator, as in production).
const tokenCache = new WeakMap<Message, number>();
function realTokens(message: Message): number {
  let tokens = tokenCache.get(message);
  if (tokens === undefined) {
    tokens =
      4 + encode(message.content).length + (message.reasoningContent ? encode(message.reasoningContent).length : 0);
    for (const call of message.toolCalls ?? [])
      tokens += 3 + encode(call.function.name).length + encode(call.function.arguments).length;
    tokenCache.set(message, tokens);
  }
  return tokens;
}

/** "Drop the oldest until it fits": system messages stay, the oldest other message (or whole tool group) goes. */
function slidingWindow(messages: readonly Message[], budget: number): Message[] {
  const { messages: grouped, units } = groupToolCalls(messages);
  const kept = units.map(() => true);
  let total = estimateMessagesTokens(grouped);
  for (let index = 0; index < units.length - 1 && total > budget; index++) {
    const unit = units[index]!;
    if (grouped[unit.start]!.role === 'system') continue;
    kept[index] = false;
    total -= estimateMessagesTokens(grouped.slice(unit.start, unit.end));
  }
  return units.flatMap((unit, index) => (kept[index] ? grouped.slice(unit.start, unit.end) : []));
}

interface Tally {
  prefix: number;
  total: number;
  requests: number;
  /** Requests whose reusable prefix ends within the head: the history was cut since the previous request. */
  historyBreaks: number;
  /** Tokens lost to those breaks beyond what was new in the request. */
  historyBreakLoss: number;
  /** Tokens of messages that were not in the previous request at all (new material). */
  fresh: number;
}

const HEAD_LENGTH = 1 + headBlocks.length;

function share(requests: readonly Message[][]): Tally {
  const tally: Tally = {
    prefix: 0,
    total: 0,
    requests: requests.length,
    historyBreaks: 0,
    historyBreakLoss: 0,
    fresh: 0,
  };
  for (let index = 1; index < requests.length; index++) {
    const previous = requests[index - 1]!.map((message) => JSON.stringify(message));
    const current = requests[index]!;
    const serialised = current.map((message) => JSON.stringify(message));
    let same = 0;
    while (same < previous.length && same < current.length && previous[same] === serialised[same]) same++;
    const total = current.reduce((sum, message) => sum + realTokens(message), 0);
    const prefix = current.slice(0, same).reduce((sum, message) => sum + realTokens(message), 0);
    const seen = new Set(previous);
    const fresh = current.reduce((sum, message, at) => sum + (seen.has(serialised[at]!) ? 0 : realTokens(message)), 0);
    if (same <= HEAD_LENGTH && previous.length > HEAD_LENGTH) {
      tally.historyBreaks++;
      tally.historyBreakLoss += total - prefix - fresh;
    }
    tally.prefix += prefix;
    tally.total += total;
    tally.fresh += fresh;
  }
  return tally;
}

function run(profile: Profile, budget: number) {
  const contextWindow = budget + MAX_OUTPUT_TOKENS + 512;
  const turns = capResults(simulate(profile), contextWindow);
  const ours: Message[][] = [];
  const sliding: Message[][] = [];
  const history: Message[] = [];
  let beyondStep1 = 0;
  let overBudget = 0;
  for (const turn of turns) {
    for (let calls = 0; calls <= turn.rounds.length; calls++) {
      const head = [systemPrompt, ...headBlocks];
      const thisTurn = [turn.volatile, turn.input, ...turn.rounds.slice(0, calls).flat()];
      const messages = [...head, ...history, ...thisTurn];
      const trimmed = trimMessages({
        messages,
        segments: { headEnd: head.length, historyEnd: head.length + history.length },
        contextWindow,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
      });
      if (trimmed.steps.some((step) => step > 1)) beyondStep1++;
      if (trimmed.overBudget) overBudget++;
      ours.push(trimmed.messages);
      sliding.push(slidingWindow(messages, trimmed.budget));
    }
    history.push(turn.input, ...turn.rounds.flat(), turn.reply);
  }
  return { profile: profile.name, budget, ours: share(ours), sliding: share(sliding), beyondStep1, overBudget };
}

const ratioOf = (tally: Tally) => tally.prefix / tally.total;
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const goals: Record<number, number> = { 4096: 0.9, 8192: 0.95 };
const rows = PROFILES.flatMap((profile) => [4096, 8192].map((budget) => run(profile, budget)));
const header = [
  'conversation',
  'budget',
  'requests',
  'mean prompt',
  'new/request',
  'ours',
  'history cuts',
  'lost to cuts',
  'lost to layout',
  'sliding window',
  'ratio',
];
const table = rows.map((row) => {
  const pairs = row.ours.requests - 1;
  return [
    row.profile,
    `${row.budget / 1024}k`,
    String(row.ours.requests),
    String(Math.round(row.ours.total / pairs)),
    String(Math.round(row.ours.fresh / pairs)),
    pct(ratioOf(row.ours)),
    String(row.ours.historyBreaks),
    pct(row.ours.historyBreakLoss / row.ours.total),
    pct((row.ours.total - row.ours.prefix - row.ours.fresh - row.ours.historyBreakLoss) / row.ours.total),
    pct(ratioOf(row.sliding)),
    `${(ratioOf(row.ours) / ratioOf(row.sliding)).toFixed(2)}×`,
  ];
});
const widths = header.map((title, index) => Math.max(title.length, ...table.map((cells) => cells[index]!.length)));
const line = (cells: string[]) => cells.map((cell, index) => cell.padStart(widths[index]!)).join('  ');
console.log(
  `${TURNS}-turn conversations; share of prompt tokens repeating the previous request's prefix (o200k tokens,`,
);
console.log('token-weighted over requests 2…n; every model call of a tool loop is a request)');
console.log(line(header));
for (const cells of table) console.log(line(cells));
console.log(`
new/request: tokens of messages the previous request did not contain (inputs, replies, tool rounds, volatile context)
history cuts: requests whose reusable prefix ends inside the head because trimming dropped history since the previous one
lost to cuts: history tokens re-sent uncached after those cuts, as a share of all prompt tokens
lost to layout: tokens sent before, but after the previous turn's volatile context (its input and tool rounds), so
  outside the reusable prefix; ours = 100% − new material − lost to cuts − lost to layout
sliding window: drop the oldest non-system message (or whole tool group) until the request fits the same budget`);
for (const row of rows) {
  const ours = ratioOf(row.ours);
  const ratio = ours / ratioOf(row.sliding);
  console.log(
    `${row.profile} ${row.budget / 1024}k: beyond step 1 in ${row.beyondStep1} requests, over budget after step 5 in ${row.overBudget}; ` +
      `goal ≥ ${goals[row.budget]! * 100}% ${ours >= goals[row.budget]! ? 'met' : 'NOT met'}, ≥ 4× sliding window ${ratio >= 4 ? 'met' : 'NOT met'}`,
  );
}
