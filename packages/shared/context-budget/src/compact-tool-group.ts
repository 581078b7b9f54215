// Step 2's compaction of an earlier tool-call group of this turn into one assistant message, one line per call:
// 「[历史工具调用] 工具名 → 结果前 100 字符」 (the template is the caller's, zh-CN by default).
import { hasToolCalls, type Message } from '@aalis/schema-message';
import { DEFAULT_TOOL_CALL_SUMMARY } from './messages.js';
import { shortenText } from './shorten-text.js';

export const COMPACTED_RESULT_CHARS = 100;

/**
 * `group` is an assistant with tool calls followed by its results (a groupToolCalls unit). Line breaks inside the
 * result's first 100 characters become spaces so each call stays on one line.
 */
export function compactToolGroup(group: readonly Message[], template: string = DEFAULT_TOOL_CALL_SUMMARY): Message {
  const [assistant, ...results] = group;
  if (!assistant || !hasToolCalls(assistant))
    throw new TypeError('compactToolGroup: the group must start with an assistant that has tool calls.');
  const lines = assistant.toolCalls.map((call) => {
    const result = results.find((message) => message.toolCallId === call.id);
    const prefix = shortenText(result?.content ?? '', COMPACTED_RESULT_CHARS).replace(/\s*[\r\n]+\s*/g, ' ');
    // A function replacement, so `$&` and the like in a result are taken literally.
    return template.replace(/\{(name|result)\}/g, (_, key: string) => (key === 'name' ? call.function.name : prefix));
  });
  return { role: 'assistant', content: lines.join('\n') };
}
