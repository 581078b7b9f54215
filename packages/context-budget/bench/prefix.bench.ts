// `npm run bench prefix`: a simulated 300-turn conversation (system prompt, head blocks, volatile context, tool calls
// every few turns) trimmed at budgets of 4k and 8k tokens. Reports the share of prompt tokens that repeat the
// previous request's prefix (what a provider's prefix cache can reuse) under trimMessages and under "drop the oldest
// until it fits" (LangChain trimMessages strategy 'last', a plain sliding window), and the ratio between them.
// Goals: ≥ 90% at 4k, ≥ 95% at 8k, ≥ 4× the sliding window.

import { groupToolCalls, type Message } from '@aalis/schema-message';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateMessagesTokens, estimateTextTokens, trimMessages } from '../src/index.js';
import { loadCorpus } from './corpus.js';

const TURNS = 300;

/** How a simulated conversation looks. `mixed` is the headline; the others show how the share depends on growth. */
interface Profile {
  name: string;
  userLines: [number, number];
  pasteChance: number;
  replyChars: [number, number];
  toolTurnChance: number;
  rounds: [number, number];
  resultChars: [number, number];
}
const PROFILES: Profile[] = [
  {
    name: 'group',
    userLines: [1, 1],
    pasteChance: 0.02,
    replyChars: [20, 240],
    toolTurnChance: 0.2,
    rounds: [1, 1],
    resultChars: [80, 800],
  },
  {
    name: 'mixed',
    userLines: [1, 3],
    pasteChance: 0.1,
    replyChars: [60, 1500],
    toolTurnChance: 0.3,
    rounds: [1, 3],
    resultChars: [80, 6000],
  },
  {
    name: 'chat',
    userLines: [1, 2],
    pasteChance: 0.03,
    replyChars: [20, 400],
    toolTurnChance: 0.15,
    rounds: [1, 1],
    resultChars: [80, 1500],
  },
  {
    name: 'agentic',
    userLines: [1, 3],
    pasteChance: 0.1,
    replyChars: [60, 1200],
    toolTurnChance: 0.6,
    rounds: [2, 4],
    resultChars: [200, 8000],
  },
];
const MAX_OUTPUT_TOKENS = 1024;
const TOOL_RESULT_MAX_RATIO = 0.15; // plugin-agent's toolResultMaxRatio default: results are cut before trimming

// Deterministic randomness (mulberry32), so every run simulates the same conversation.
let seed = 0;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
/** Log-uniform: many small values, a few large ones. */
const logUniform = (min: number, max: number) =>
  Math.round(Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min))));

// Text pools drawn from the corpus: chat lines for users, paragraphs for replies, whole files for tool results.
const corpus = loadCorpus();
const of = (corpusClass: string, name?: string) =>
  corpus.filter((file) => file.corpusClass === corpusClass && (name === undefined || file.name.startsWith(name)));
const chatLines = of('en', 'chat')
  .concat(of('zh', 'chat'))
  .flatMap((file) => file.text.split('\n'))
  .map((line) => line.replace(/^[^:：]{1,12}[:：]\s*/, '').trim())
  .filter((line) => line.length > 0);
const paragraphs = corpus
  .filter((file) => file.corpusClass === 'en' || file.corpusClass === 'zh')
  .flatMap((file) => file.text.split(/\n\s*\n/))
  .map((paragraph) => paragraph.trim())
  .filter((paragraph) => paragraph.length > 40);
const resultSources = corpus.map((file) => file.text);

const systemPrompt: Message = {
  role: 'system',
  content: [
    '你是 Aalis,一个住在群聊和私聊里的助手。说话自然、简洁,先给结论再解释;不知道的就直说不知道,不编造。',
    '涉及金额、日期、医疗和法律的问题,提醒对方核实;不替别人做决定,但可以帮对方把选项理清楚。',
    'You also speak English with people who write in English. Match the language of the latest message.',
    '工具使用:需要最新信息(天气、价格、日程、新闻)时调用 web_search;读文件用 read_file;多步骤的任务用 todo_list 记下进度,上下文被压缩后先读它再继续。',
    '输入约定:用户消息以「[时间] 发送者:」开头;多人房间里只有被点名或明显在跟你说话时才需要回应,没有需要接的可以不说话。',
    '回复格式:聊天软件不渲染 Markdown 表格,列表用短横线;代码用代码块;一次回复不超过三段。',
  ].join('\n'),
};
const headBlocks: Message[] = [
  {
    role: 'system',
    content:
      '[对话摘要] 之前聊过:小林在筹备社团的春季徒步活动,报名截止提前到了周五晚上八点;阿杰的前端项目构建时内存不够,已经用 NODE_OPTIONS 解决;Maya 的夜间导出任务被 HAProxy 的超时切断,超时已调到 10 分钟,还在观察。小陈的猫误食毛线,已经看过医生。',
  },
  {
    role: 'system',
    content:
      '[技能] weather: 查询天气时先确认城市,给出温度区间和穿衣建议。\n[技能] reminders: 用户说「提醒我」时用 schedule_reminder,时间换算成带时区的 ISO 格式,重复提醒问清楚频率。',
  },
];

interface Turn {
  volatile: Message;
  input: Message;
  /** Tool rounds: each an assistant with calls and its results (full length; cut per budget). */
  rounds: Message[][];
  reply: Message;
}

function userInput(profile: Profile, index: number): string {
  const lines = Array.from({ length: between(...profile.userLines) }, () => pick(chatLines));
  if (random() < profile.pasteChance) lines.push(pick(paragraphs)); // now and then a pasted paragraph
  return `[05-${String(1 + Math.floor(index / 40)).padStart(2, '0')} ${String(8 + (index % 14)).padStart(2, '0')}:${String(between(0, 59)).padStart(2, '0')}] ${pick(['小林', 'Maya', '阿杰', 'Jonas', '小周', 'Priya'])}: ${lines.join('\n')}`;
}

function toolRound(profile: Profile, turn: number, round: number): Message[] {
  const calls = Array.from({ length: random() < 0.25 ? 2 : 1 }, (_, index) => {
    const name = pick(['web_search', 'read_file', 'get_weather', 'todo_list', 'schedule_reminder']);
    const query = pick(chatLines).slice(0, 60);
    return {
      id: `call_${turn}_${round}_${index}`,
      type: 'function' as const,
      function: { name, arguments: JSON.stringify({ query }) },
    };
  });
  const results = calls.map((call): Message => {
    const source = pick(resultSources);
    const length = Math.min(source.length, logUniform(...profile.resultChars));
    const start = between(0, source.length - length);
    return {
      role: 'tool',
      content: source.slice(start, start + length),
      toolCallId: call.id,
      name: call.function.name,
    };
  });
  return [{ role: 'assistant', content: '', toolCalls: calls }, ...results];
}

function simulate(profile: Profile): Turn[] {
  seed = 0x5eed; // the same conversation for every budget
  return Array.from({ length: TURNS }, (_, index) => {
    const rounds =
      random() < profile.toolTurnChance
        ? Array.from({ length: between(...profile.rounds) }, (_, round) => toolRound(profile, index, round))
        : [];
    const reply = Array.from({ length: between(1, 3) }, () => pick(paragraphs)).join('\n\n');
    return {
      volatile: {
        role: 'system',
        content: `[当前] 2024-05-${String(1 + Math.floor(index / 40)).padStart(2, '0')} ${String(8 + (index % 14)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} 平台 qq 群聊「周末徒步群」,在线 ${between(3, 40)} 人`,
      },
      input: { role: 'user', content: userInput(profile, index) },
      rounds,
      reply: { role: 'assistant', content: reply.slice(0, logUniform(...profile.replyChars)) },
    };
  });
}

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
