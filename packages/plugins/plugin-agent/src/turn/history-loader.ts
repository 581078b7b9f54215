// Loads the history sent to the model (plugin-agent.zh.md 「核心流程」 3): the historyLimit window read from its
// start index, tool-call groups regrouped, control messages and incomplete groups left out, replies in their
// visible form. This turn's own inputs are left out here: they form the turn segment.
import { type HistorySegment, historyWindowStart, MessageLog } from '@aalis/context-budget';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';

export interface LoadedHistory {
  /** The history as a segment of the cache's log: read by position, built as an array only when asked for. */
  segment: HistorySegment;
  /** Active conversation messages (this turn's opened inputs included). */
  activeCount: number;
}

export async function loadHistory(
  deps: AgentDeps,
  { sessionId, turnId, historyLimit }: { sessionId: string; turnId: string | undefined; historyLimit: number },
): Promise<LoadedHistory> {
  if (!deps.memory.available) return { segment: new MessageLog().segment(), activeCount: 0 };
  const memory = deps.memory.use;
  const count = await memory.countHistory(sessionId);
  const start = historyWindowStart(count, historyLimit);
  // applyHistoryWindow's result, grouped incrementally by the cache (the copy's messages are all conversation
  // messages from the start on): a segment of its log as long as it is now (the cache keeps growing it), nothing
  // copied. This turn's inputs were archived when it opened: only what follows the first of them is looked at.
  const window = await deps.historyCache.groupedWindow(memory, sessionId, start, count);
  const first = turnId === undefined ? undefined : window.firstOfTurn(turnId);
  if (first === undefined) return { segment: window.log.segment(window.length), activeCount: count };
  const tail: Message[] = [];
  for (let index = first; index < window.length; index++) {
    const message = window.log.at(index)!;
    if (!(message.role === 'user' && message.metadata?.[WellKnownMetadataKeys.TurnId] === turnId)) tail.push(message);
  }
  return { segment: window.log.segment(first, tail), activeCount: count };
}
