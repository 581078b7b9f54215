// Checks that a message list is one an OpenAI-compatible provider accepts, as far as tool calls go.
import { hasToolCalls, type Message } from './message.js';

export interface SequenceProblem {
  index: number;
  problem: 'orphan-tool-result' | 'unanswered-tool-call' | 'duplicate-tool-result';
  detail: string;
}

/**
 * Every tool message must directly follow (possibly after sibling results) the assistant whose call it answers,
 * and every call must be answered before the next non-tool message. Returns the problems found (empty = valid).
 */
export function validateProviderSequence(messages: readonly Message[]): SequenceProblem[] {
  const problems: SequenceProblem[] = [];
  let open: Set<string> | undefined;
  let openIndex = -1;
  const closeOpen = (index: number) => {
    if (open && open.size > 0) {
      problems.push({
        index: openIndex,
        problem: 'unanswered-tool-call',
        detail: `calls ${[...open].join(', ')} have no result before message ${index}`,
      });
    }
    open = undefined;
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      if (open?.has(id)) {
        open.delete(id);
        return;
      }
      problems.push({
        index,
        problem: open ? 'duplicate-tool-result' : 'orphan-tool-result',
        detail: `tool result for ${id || '(no id)'} does not answer a pending call`,
      });
      return;
    }
    closeOpen(index);
    if (hasToolCalls(message)) {
      open = new Set(message.toolCalls.map((call) => call.id));
      openIndex = index;
    }
  });
  closeOpen(messages.length);
  return problems;
}
