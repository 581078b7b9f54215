// The offline model's rules, as a pure function of the request: `/call` lines become tool calls, tool results
// are summarised, anything else gets a deterministic echo that says what this model is and how to get a real one.

import type { LlmToolDefinition } from '@aalis/api-llm';
import type { TextRef } from '@aalis/core';
import { isControlMessage, isPlainObject, type Message, type ToolCall, type ToolChoice } from '@aalis/schema-message';

export type OfflineReply = { kind: 'text'; text: string } | { kind: 'tool-calls'; calls: ToolCall[] };

/** Renders a catalogue text in the app's locale. */
type Translate = (text: TextRef) => string;

// `/call name {json}` on a line of its own, or `call: name {json}` — also after the archive's time and sender
// prefix on the first line, and usable as the start of a message (a leading `/call` would be a slash command).
const CALL_LINE = /^(?:\[[^\]]*\]\s+(?:[^:\n]{1,80}:\s+)?)?(?:\/call|call:)\s+([A-Za-z0-9_-]{1,64})(?:\s+(.*))?$/;
const EXCERPT_LENGTH = 120;
const SUMMARY_LENGTH = 200;

export function planOfflineReply({
  messages,
  tools = [],
  toolChoice,
  t,
}: {
  messages: readonly Message[];
  tools?: readonly LlmToolDefinition[];
  /** 'none': tools are offered for reference only (a cache-sharing request): never call one, just answer. */
  toolChoice?: ToolChoice;
  t: Translate;
}): OfflineReply {
  const say = (key: string, params?: Record<string, string | number>): OfflineReply => ({
    kind: 'text',
    text: t(params ? { key, params } : { key }),
  });
  const conversation = messages.filter((message) => !isControlMessage(message));
  const last = conversation.at(-1);
  if (last?.role === 'tool')
    return say('llm-offline.reply.tool-results', { results: summariseResults(conversation, t) });
  const user = [...conversation].reverse().find((message) => message.role === 'user');
  if (!user || user.content.trim() === '') return say('llm-offline.reply.empty');
  const lines = user.content
    .split(/\r?\n/)
    .map((line) => line.trim().match(CALL_LINE))
    .filter((match): match is RegExpMatchArray => match !== null);
  if (lines.length === 0 || toolChoice === 'none') return say('llm-offline.reply.echo', echo(user.content));
  const calls: ToolCall[] = [];
  for (const [index, match] of lines.entries()) {
    const tool = match[1]!;
    if (!tools.some((candidate) => candidate.name === tool)) {
      const available = tools.map((candidate) => candidate.name).join(', ') || t({ key: 'llm-offline.none' });
      return say('llm-offline.reply.unknown-tool', { tool, available });
    }
    const parsed = parseArguments(match[2]);
    if (typeof parsed === 'string') {
      return say('llm-offline.reply.bad-arguments', { tool, problem: parsed || t({ key: 'llm-offline.not-object' }) });
    }
    calls.push({
      // Unique within a conversation: the history only grows, so its length never repeats.
      id: `call_offline_${conversation.length}_${index + 1}`,
      type: 'function',
      function: { name: tool, arguments: JSON.stringify(parsed) },
    });
  }
  return { kind: 'tool-calls', calls };
}

/** The arguments object, or the JSON parser's message ('' for valid JSON that is not an object). */
function parseArguments(text: string | undefined): Record<string, unknown> | string {
  if (text === undefined || text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value)) return value;
    return '';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Whitespace collapsed, cut to `length` characters (not UTF-16 units) with an ellipsis. */
function excerptOf(text: string, length: number): string {
  const characters = Array.from(text.replace(/\s+/g, ' ').trim());
  return characters.length > length ? `${characters.slice(0, length).join('')}…` : characters.join('');
}

/** The archive's `[time] sender: ` prefix is context, not what the person said: the echo leaves it out. */
const ARCHIVE_PREFIX = /^\[[^\]\n]*\]\s+(?:[^:\n]{1,80}:\s+)?/;

function echo(content: string): Record<string, string | number> {
  const said = content.replace(ARCHIVE_PREFIX, '');
  return { excerpt: excerptOf(said, EXCERPT_LENGTH), chars: Array.from(said).length };
}

function summariseResults(conversation: readonly Message[], t: Translate): string {
  const results: Message[] = [];
  let index = conversation.length - 1;
  while (index >= 0 && conversation[index]!.role === 'tool') results.unshift(conversation[index--]!);
  const calls = conversation[index]?.toolCalls ?? [];
  return results
    .map((result) => {
      const call = calls.find((candidate) => candidate.id === result.toolCallId);
      const tool = call?.function.name ?? result.name ?? result.toolCallId ?? '?';
      return t({
        key: 'llm-offline.reply.tool-result-line',
        params: { tool, summary: excerptOf(result.content, SUMMARY_LENGTH) },
      });
    })
    .join('\n');
}
