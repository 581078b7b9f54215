// The deterministic model behind `npm run bench peers`: what the local model server answers to each request, and
// the user messages and the tool every framework is given. A turn is: user message → (when it asks for a lookup)
// one `lookup` tool call → tool result → final reply. Replies depend only on the turn number the user message
// carries, so every framework holds the same conversation; streamed or JSON as the request asks. A request that
// offers no tool (a summary call) gets a short summary.
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { type ChatRequestBody, PromptTokenizer } from './prompt-share.js';

export const TOOL_NAME = 'lookup';
export const TOOL_DESCRIPTION = 'Looks up the stored value for a key.';
export const TOOL_KEY_DESCRIPTION = 'The key to look up, as the user gave it.';

/** The trivial deterministic tool every framework runs. */
export function lookupValue(key: string): string {
  return `value of ${key}: ${key.length * 7}`;
}

const SENTENCES = [
  'The garden needs water twice a week in summer, less once the nights turn cold.',
  'Sourdough wants a warm kitchen, a patient baker and a starter fed the evening before.',
  'Our chess club meets on Thursdays; bring a clock if you have one.',
  'The bicycle shop on the corner fixes flat tyres while you wait.',
  'A trip to Kyoto in autumn means booking the small inns months ahead.',
  'Jazz records from the fifties sound best on a turntable with a fresh needle.',
  'The new job starts at nine, with a long lunch on Fridays.',
  'Winter plans: fewer late nights, more soup, and a book a week.',
  'Keep notes of what worked, change one thing at a time, and look again next week.',
  'Ask for help early when something stalls; most problems are smaller once shared.',
];

/** Deterministic pseudo-random value in [0, 1) for a turn number and a salt (a 32-bit integer hash). */
function unit(turn: number, salt: number): number {
  let x = Math.imul(turn ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

/** Text of about `chars` characters, starting at a sentence the turn picks. */
function prose(turn: number, salt: number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = Math.floor(unit(turn, salt) * SENTENCES.length); length < chars; index++) {
    const sentence = SENTENCES[index % SENTENCES.length]!;
    parts.push(sentence);
    length += sentence.length + 1;
  }
  return parts.join(' ');
}

/** Log-uniform length in [min, max]: many short texts, a few long ones. */
function lengthFor(turn: number, salt: number, min: number, max: number): number {
  return Math.round(Math.exp(Math.log(min) + unit(turn, salt) * (Math.log(max) - Math.log(min))));
}

/** The user message of turn `turn`; with `lookup`, it asks for the tool. */
export function userMessage(turn: number, lookup: boolean): string {
  const ask = lookup ? ` Please look up key k${turn}.` : '';
  return `#${turn} ${prose(turn, 1, lengthFor(turn, 2, 20, 400))}${ask}`;
}

/** The final reply of turn `turn` (after the tool result, when there was one). */
export function replyText(turn: number): string {
  return prose(turn, 3, lengthFor(turn, 4, 40, 1600));
}

/** What the model answers a summary request (the memory summary's compaction) about turns up to `turn`. */
export function summaryText(turn: number): string {
  return `Summary up to turn ${turn}: the user asked about gardens, bread, chess, bicycles, travel and music, and looked up a few stored values; the assistant answered each briefly.`;
}

interface WireMessage {
  role?: string;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => String(part?.text ?? '')).join('');
  return '';
}

const tokenizer = new PromptTokenizer();
/** Characters per streamed text chunk: a few tokens, as real servers send them. */
export const STREAM_CHUNK_CHARS = 16;

/** The model's answer to one Chat Completions request body. */
export function scriptedAnswer(body: Record<string, unknown>): ScriptedReply {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as WireMessage[];
  const last = messages.at(-1);
  const lastUser = messages.findLast((message) => message.role === 'user');
  const userText = textOf(lastUser?.content);
  // Other prefixes (a sender, a time) may come before the marker; a request without one (a summary call) gets 0.
  const turn = Number(/#(\d+)/.exec(userText)?.[1] ?? 0);
  // A request that offers no tool to call (a summary: no tools, or tool_choice 'none') gets a summary.
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none';
  const wantsLookup = offersTools && last?.role === 'user' && userText.includes(`look up key k${turn}`);
  const usage = { promptTokens: tokenizer.count(body as ChatRequestBody), completionTokens: 0 };
  if (wantsLookup) {
    const call = { id: `call_${turn}`, name: TOOL_NAME, arguments: JSON.stringify({ key: `k${turn}` }) };
    usage.completionTokens = 12;
    if (body.stream === true) return toolCallReply([call], { argumentPieces: 2, usage });
    return { type: 'json', toolCalls: [call], usage };
  }
  const text = offersTools ? replyText(turn) : summaryText(turn);
  usage.completionTokens = tokenizer.tokens(text).length;
  if (body.stream === true) return textReply(text, { chunkSize: STREAM_CHUNK_CHARS, usage });
  return { type: 'json', content: text, usage };
}
