// The four simulated conversation shapes (group chat, mixed, chat, tool-heavy agentic) that `npm run bench prefix`
// trims directly and `npm run bench cache` drives through the product: one definition, deterministic per shape.
import type { Message } from '@aalis/schema-message';
import { loadCorpus } from './corpus.js';

export const TURNS = 300;

/** How a simulated conversation looks. `mixed` is the headline; the others show how the share depends on growth. */
export interface Profile {
  name: string;
  userLines: [number, number];
  pasteChance: number;
  replyChars: [number, number];
  toolTurnChance: number;
  rounds: [number, number];
  resultChars: [number, number];
}
export const PROFILES: Profile[] = [
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

/** The tool names the shapes call (the product bench registers a tool under each). */
export const SHAPE_TOOLS = ['web_search', 'read_file', 'get_weather', 'todo_list', 'schedule_reminder'] as const;

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

/** The trim-only bench's stand-ins for what the product puts ahead of the history. */
export const systemPrompt: Message = {
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
export const headBlocks: Message[] = [
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

export interface Turn {
  /** The trim-only bench's volatile context block (time, room, people online), new every turn. */
  volatile: Message;
  /** Who writes this turn's input, and what they write (the product adds its own sender prefix). */
  sender: string;
  text: string;
  /** The input as the trim-only bench sends it: `[time] sender: text`. */
  input: Message;
  /** Tool rounds: each an assistant with calls and its results (full length; cut per budget). */
  rounds: Message[][];
  reply: Message;
}

function userInput(profile: Profile, index: number): { sender: string; text: string; content: string } {
  const lines = Array.from({ length: between(...profile.userLines) }, () => pick(chatLines));
  if (random() < profile.pasteChance) lines.push(pick(paragraphs)); // now and then a pasted paragraph
  const time = `[05-${String(1 + Math.floor(index / 40)).padStart(2, '0')} ${String(8 + (index % 14)).padStart(2, '0')}:${String(between(0, 59)).padStart(2, '0')}]`;
  const sender = pick(['小林', 'Maya', '阿杰', 'Jonas', '小周', 'Priya']);
  const text = lines.join('\n');
  return { sender, text, content: `${time} ${sender}: ${text}` };
}

function toolRound(profile: Profile, turn: number, round: number): Message[] {
  const calls = Array.from({ length: random() < 0.25 ? 2 : 1 }, (_, index) => {
    const name = pick(SHAPE_TOOLS);
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

/** The shape's conversation: the same turns on every call (the generator is reseeded). */
export function simulate(profile: Profile, turns = TURNS): Turn[] {
  seed = 0x5eed;
  return Array.from({ length: turns }, (_, index) => {
    const rounds =
      random() < profile.toolTurnChance
        ? Array.from({ length: between(...profile.rounds) }, (_, round) => toolRound(profile, index, round))
        : [];
    const reply = Array.from({ length: between(1, 3) }, () => pick(paragraphs)).join('\n\n');
    const volatile: Message = {
      role: 'system',
      content: `[当前] 2024-05-${String(1 + Math.floor(index / 40)).padStart(2, '0')} ${String(8 + (index % 14)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} 平台 qq 群聊「周末徒步群」,在线 ${between(3, 40)} 人`,
    };
    const input = userInput(profile, index);
    return {
      volatile,
      sender: input.sender,
      text: input.text,
      input: { role: 'user', content: input.content },
      rounds,
      reply: { role: 'assistant', content: reply.slice(0, logUniform(...profile.replyChars)) },
    };
  });
}
