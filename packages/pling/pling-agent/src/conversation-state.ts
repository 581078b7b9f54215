// What one session's runs read and write (history, summary, events, the run a checkpoint restored), and the small
// questions the loop, the tool rounds and continuity all ask of it.
import type { Message } from '@aalis/schema-message';
import type { CheckpointProblem } from './checkpoint-texts.js';
import { cancelled } from './clock.js';
import { PlingError } from './errors.js';
import type { ModelToolDefinition } from './llm-client.js';
import type { SessionEvent } from './session-events.js';
import type { AgentTool, ToolSource } from './tool.js';

/** Everything reset() clears; a run writes into the state it started with, so a reset discards its late writes. */
export interface ConversationState {
  messages: Message[];
  summary: string;
  events: SessionEvent[];
  /** Continuity: the run a checkpoint restored, resumed once the new page is up; and the last save problem. */
  checkpoint: { interrupted?: { awaitingConfirmation: ReadonlySet<string> }; problem?: CheckpointProblem };
  turnsInRun: number;
}

export function freshState(): ConversationState {
  return { messages: [], summary: '', events: [], checkpoint: {}, turnsInRun: 0 };
}

/** The last reply's tool calls that have no result yet, when the history ends inside such a group. */
export function unfinishedCalls(messages: readonly Message[]) {
  let index = messages.length - 1;
  const answered = new Set<string>();
  while (index >= 0 && messages[index]!.role === 'tool') answered.add(messages[index--]!.toolCallId ?? '');
  const assistant = messages[index];
  if (assistant?.role !== 'assistant' || !assistant.toolCalls?.length) return undefined;
  const calls = assistant.toolCalls.filter((call) => !answered.has(call.id));
  return calls.length === 0 ? undefined : { assistant, calls };
}

/** The latest user message (Array.prototype.findLast is ES2023; the runtime targets ES2022). */
export function lastUserMessage(messages: readonly Message[]): Message | undefined {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]!.role === 'user') return messages[index];
  return undefined;
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw PlingError.isInstance(signal.reason) ? signal.reason : cancelled();
}

export interface TurnTools {
  byName: ReadonlyMap<string, AgentTool>;
  definitions: ModelToolDefinition[];
}

/** The tools of one turn; with duplicate names the first tool wins. */
export function currentTools(source: ToolSource): TurnTools {
  const list = typeof source === 'function' ? source() : source;
  const byName = new Map<string, AgentTool>();
  for (const tool of list) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const definitions = [...byName.values()].map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  return { byName, definitions };
}
