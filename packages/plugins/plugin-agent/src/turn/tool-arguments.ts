// Parses the arguments a model wrote for a tool call (plugin-agent.zh.md 「核心流程」 工具调用循环): a JSON object,
// or the empty string meaning no arguments. Anything else is not executed and goes back to the model.

export type ParsedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; problem: 'json' | 'notObject'; excerpt: string };

export const ARGUMENT_EXCERPT_CHARS = 200;

export function parseToolArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'json', excerpt: raw.slice(0, ARGUMENT_EXCERPT_CHARS) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'notObject', excerpt: raw.slice(0, ARGUMENT_EXCERPT_CHARS) };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
