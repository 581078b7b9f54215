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
