// Loads the history sent to the model (plugin-agent.zh.md 「核心流程」 3): the historyLimit window read from its
// start index, tool-call groups regrouped, control messages and incomplete groups left out, replies in their
// visible form. This turn's own inputs are left out here: they form the turn segment.
import { applyHistoryWindow, historyWindowStart } from '@aalis/context-budget';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from './agent-deps.js';

export interface LoadedHistory {
  messages: Message[];
  /** Active conversation messages (this turn's opened inputs included). */
  activeCount: number;
}

export async function loadHistory(
  deps: AgentDeps,
  { sessionId, turnId, historyLimit }: { sessionId: string; turnId: string | undefined; historyLimit: number },
): Promise<LoadedHistory> {
  if (!deps.memory.available) return { messages: [], activeCount: 0 };
  const memory = deps.memory.use;
  const count = await memory.countHistory(sessionId);
  const start = historyWindowStart(count, historyLimit);
  const slice = await deps.historyCache.window(memory, sessionId, start, count);
  const window = applyHistoryWindow({ messages: slice, limit: historyLimit, skipped: start });
  const messages =
    turnId === undefined
      ? window.messages
      : window.messages.filter(
          (message) => !(message.role === 'user' && message.metadata?.[WellKnownMetadataKeys.TurnId] === turnId),
        );
  return { messages, activeCount: window.activeCount };
}
