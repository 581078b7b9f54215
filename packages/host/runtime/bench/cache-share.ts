// The measurement of `npm run bench cache`: per conversation request (o200k tokens, gpt-tokenizer; a request's
// prompt is its tool definitions as one unit, then each message as sent, JSON-serialised):
// - cache share: the tokens of its leading units equal to the previous conversation request's (what a provider's
//   prefix cache reuses), summed over requests 2…n, ÷ their prompt tokens summed;
// - append-only limit: its prompt tokens minus the tokens that are new since the previous request, summed the same
//   way. "New" is exactly the conversation material that came into being between the two calls: the previous
//   call's answer (the assistant message carrying its tool calls, identified by their ids, or its final reply,
//   identified by the reply text), the tool results of those calls (by tool_call_id), and the user inputs delivered
//   since (by their text) — each counted only as far as it appears in this request. Nothing the product adds or
//   rewrites (time stamps, injected blocks, a new summary, shortened copies) is new: an ideal client sends the
//   previous prompt unchanged and appends only that material;
// - the gap (limit − share) split by where the prefix broke: head, history, or layout (see BreakKind).
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export type Body = Record<string, unknown>;
export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
}

const tokenCache = new Map<string, number>();
export function tokens(text: string): number {
  let count = tokenCache.get(text);
  if (count === undefined) {
    count = encode(text).length;
    tokenCache.set(text, count);
  }
  return count;
}

/** What is new in a request: the previous call's answer and what came in since. */
export interface NewMaterial {
  callIds: Set<string>;
  replies: string[];
  inputs: string[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

/**
 * Which messages of a request are new material: tool calls and results by id; each input and reply by its text,
 * matched once, to the last message carrying it (an older message may repeat the same words).
 */
export function newMessages(messages: readonly WireMessage[], material: NewMaterial): Set<number> {
  const found = new Set<number>();
  messages.forEach((message, at) => {
    if (message.role === 'tool' && message.tool_call_id !== undefined && material.callIds.has(message.tool_call_id))
      found.add(at);
    if (message.role === 'assistant' && message.tool_calls?.some((call) => material.callIds.has(call.id)))
      found.add(at);
  });
  const byText = (role: string, texts: readonly string[]) => {
    for (const text of texts) {
      if (text.length === 0) continue;
      for (let at = messages.length - 1; at >= 0; at--) {
        const message = messages[at]!;
        if (message.role !== role || message.tool_calls?.length || found.has(at)) continue;
        if (textOf(message.content).includes(text)) {
          found.add(at);
          break;
        }
      }
    }
  };
  byText('user', material.inputs);
  byText('assistant', material.replies);
  return found;
}

/** Long-term memory's recalled block as sent (its header in either locale). */
export function isRecallBlock(message: WireMessage): boolean {
  if (message.role !== 'system') return false;
  const text = textOf(message.content);
  return text.startsWith('[Long-term memory]') || text.startsWith('[长期记忆]');
}

/** Where a request's reusable prefix ended, for the loss breakdown. */
export type BreakKind = 'head' | 'layout' | 'history';

export function tally(requests: Array<{ body: Body; material: NewMaterial }>, { debug = false } = {}) {
  const result = {
    requests: requests.length,
    prompt: 0,
    cached: 0,
    limit: 0,
    fresh: 0,
    lost: { head: 0, layout: 0, history: 0 } as Record<BreakKind, number>,
    /**
     * Long-term memory's recalled blocks: their tokens in all requests (2…n); of those past the reused prefix, the
     * ones whose exact text the previous request did not carry (new recalled text: no prefix cache can hold it)
     * and the ones it did carry (the same block sent again after a break: a loss some other layout could avoid).
     */
    recall: { tokens: 0, uncachedNew: 0, uncachedRepeated: 0 },
  };
  let previous: { units: string[]; messages: WireMessage[] } | undefined;
  for (const { body, material } of requests) {
    const messages = (body.messages as WireMessage[]) ?? [];
    const units = [JSON.stringify(body.tools ?? []), ...messages.map((message) => JSON.stringify(message))];
    const unitTokens = units.map(tokens);
    if (previous) {
      const prompt = unitTokens.reduce((sum, value) => sum + value, 0);
      let same = 0;
      while (same < previous.units.length && same < units.length && previous.units[same] === units[same]) same++;
      const fresh = [...newMessages(messages, material)].reduce((sum, at) => sum + unitTokens[at + 1]!, 0);
      const cached = unitTokens.slice(0, same).reduce((sum, value) => sum + value, 0);
      result.prompt += prompt;
      result.cached += cached;
      result.fresh += fresh;
      result.limit += prompt - fresh;
      const lost = prompt - fresh - cached;
      const before = new Set(previous.units);
      units.forEach((unit, at) => {
        if (at === 0 || !isRecallBlock(messages[at - 1]!)) return;
        result.recall.tokens += unitTokens[at]!;
        if (at < same) return;
        if (before.has(unit)) result.recall.uncachedRepeated += unitTokens[at]!;
        else result.recall.uncachedNew += unitTokens[at]!;
      });
      if (lost > 0) {
        // Units count the tools first: message index = unit index − 1.
        const headEnd = messages.findIndex((message) => message.role !== 'system') + 1;
        const kind: BreakKind =
          same === 0 || same < headEnd ? 'head' : previous.messages[same - 1]?.role === 'system' ? 'layout' : 'history';
        result.lost[kind] += lost;
        if (debug)
          console.log(
            `lost ${lost} (${kind}) at unit ${same}/${units.length} (previous ${previous.units.length}):\n  was ${previous.units[same]?.slice(0, 160)}\n  now ${units[same]?.slice(0, 160)}`,
          );
      }
    }
    previous = { units, messages };
  }
  return result;
}
