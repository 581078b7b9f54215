// Message builders and a chars-as-tokens estimator shared by the tests (not part of the build).
import type { Message } from '@aalis/schema-message';
import type { MessageTokenEstimator } from './estimate-tokens.js';

/** One token per character of content, reasoning, call names and arguments: makes budgets exact in tests. */
export const charEstimator: MessageTokenEstimator = (message) =>
  message.content.length +
  (message.reasoningContent?.length ?? 0) +
  (message.toolCalls ?? []).reduce((sum, call) => sum + call.function.name.length + call.function.arguments.length, 0);

/** A text of n characters; `fill` makes contents distinguishable. */
export const text = (length: number, fill = 'x'): string => fill.repeat(length).slice(0, length);

export const system = (content: string, extra: Partial<Message> = {}): Message => ({
  role: 'system',
  content,
  ...extra,
});
export const user = (content: string, extra: Partial<Message> = {}): Message => ({ role: 'user', content, ...extra });
export const assistant = (content: string, extra: Partial<Message> = {}): Message => ({
  role: 'assistant',
  content,
  ...extra,
});

/** An assistant calling `ids`; each call is named after its id and its arguments are `argumentChars` long. */
export const call = (ids: string[], argumentChars = 0, extra: Partial<Message> = {}): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, type: 'function', function: { name: id, arguments: text(argumentChars, '{') } })),
  ...extra,
});

export const result = (id: string, content: string): Message => ({ role: 'tool', content, toolCallId: id, name: id });

/** Budget b with maxOutputTokens 0 and ratio 1: contextWindow = b + 512. */
export const windowFor = (budget: number) => ({ contextWindow: budget + 512, maxOutputTokens: 0 });

/**
 * Distinct texts of about `length` characters (mixed scripts, each numbered, so no two are equal) and distinct ids,
 * from one counter: for property tests whose messages must not share content by chance.
 */
export function numberedTexts(): { text: (length: number) => string; id: (prefix: string) => string } {
  let next = 0;
  return {
    text: (length) => `#${next++}:${'word 字 '.repeat(Math.ceil(length / 7))}`.slice(0, Math.max(4, length)),
    id: (prefix) => `${prefix}_${next++}`,
  };
}

/** An assistant message calling `lookup` once per id (with `reasoning` when given), and each call's result. */
export function lookupGroup(
  ids: readonly string[],
  resultTexts: readonly string[],
  reasoning?: string,
): { call: Message; results: Message[] } {
  const call: Message = {
    role: 'assistant',
    content: '',
    toolCalls: ids.map((id) => ({ id, type: 'function', function: { name: 'lookup', arguments: `{"q":"${id}"}` } })),
    ...(reasoning !== undefined ? { reasoningContent: reasoning } : {}),
  };
  const results = resultTexts.map((content, index): Message => ({ role: 'tool', content, toolCallId: ids[index]! }));
  return { call, results };
}
