// The message list of one model call, kept as its three segments (head, history, this turn) so the trim knows
// which is which and later calls of the turn append to the same parts (plugin-agent.zh.md 「上下文裁剪算法」).
import type { Message } from '@aalis/schema-message';

export interface TurnParts {
  /** The first system message (persona + systemPrompt + input convention). */
  system: Message;
  /** `head` contributions, in order. */
  head: Message[];
  /** The history sent to the model (windowed, grouped, control messages left out). */
  history: Message[];
  /** This turn, in order: contributions, volatile context, header, hint, inputs / instruction block, then appended. */
  turn: Message[];
  /** Messages of `turn` that are this turn's inputs (never trimmed; the continuation prompt follows the last). */
  inputs: Set<Message>;
}

export interface AssembledCall {
  messages: Message[];
  headEnd: number;
  historyEnd: number;
  inputIndices: number[];
}

export function assemble(parts: TurnParts): AssembledCall {
  const messages = [parts.system, ...parts.head, ...parts.history, ...parts.turn];
  return locateSegments(parts, messages);
}

/**
 * Finds the segments again in a list a hook middleware may have edited: by identity of the first history and first
 * turn message; inputs by identity. Falls back to the original part sizes when the markers were replaced.
 */
export function locateSegments(parts: TurnParts, messages: Message[]): AssembledCall {
  const firstHistory = parts.history[0];
  const firstTurn = parts.turn[0];
  const turnStart = firstTurn ? messages.indexOf(firstTurn) : messages.length;
  const historyEnd = turnStart >= 0 ? turnStart : Math.max(0, messages.length - parts.turn.length);
  const historyStart = firstHistory ? messages.indexOf(firstHistory) : historyEnd;
  const headEnd =
    historyStart >= 0 && historyStart <= historyEnd ? historyStart : Math.min(historyEnd, 1 + parts.head.length);
  const inputIndices: number[] = [];
  messages.forEach((message, index) => {
    if (parts.inputs.has(message)) inputIndices.push(index);
  });
  return { messages, headEnd, historyEnd, inputIndices };
}
