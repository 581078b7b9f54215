// The state of one running turn, shared by the steps of the pipeline.
import type { PromptCategory, TurnInput, TurnOutcome } from '@aalis/api-agent';
import type { ModelInfo } from '@aalis/api-llm';
import type { ToolDefinition } from '@aalis/api-tools';
import type { TextRef } from '@aalis/core';
import type { IncomingMessage, Message } from '@aalis/schema-message';
import type { RunningTurn } from '../channel/session-channel.js';
import type { TurnParts } from './call-messages.js';

/** What kind of turn the opening input makes (plugin-agent.zh.md 「指令类回合」). */
export type TurnKind = 'conversation' | 'delegation' | 'host-notice' | 'idle';

export interface TurnSettings {
  model: ModelInfo;
  thinkingLevel: string | undefined;
  maxToolIterations: number | undefined;
  historyLimit: number;
  personaPrompt: string | undefined;
  /** The persona's structured-output schema, when its replies must be JSON envelopes. */
  structuredOutput: Record<string, unknown> | undefined;
}

export interface SessionFacts {
  kind: string;
  multiParty: boolean;
  /** A child session: its model calls are accounted as 「子任务」. */
  child: boolean;
}

export interface TurnState {
  turnId: string;
  sessionId: string;
  platform: string;
  kind: TurnKind;
  running: RunningTurn;
  /** Live list shared with agent:turn:before and the contribution views. */
  inputs: TurnInput[];
  /** The user message the model sees for each input (archived content, or built the archive's way). */
  inputMessages: Map<TurnInput, Message>;
  /** The inputs in arrival order, as messages (joined ones appended). */
  messages: IncomingMessage[];
  fromQueue: boolean;
  /** The session's generation when the opening input reached the agent: a deletion that began since bumps it. */
  generation: number;
  settings: TurnSettings;
  facts: SessionFacts;
  tools: ToolDefinition[];
  parts: TurnParts;
  /** Category of each injected block, by injector key (for the usage breakdown). */
  categories: Map<string, PromptCategory>;
  /** Active conversation messages at turn start (this turn's opened inputs included). */
  historyAtStart: number;
  /** Conversation messages this turn appended so far (tool calls and results, joined inputs). */
  appended: number;
  trimmedOnce: boolean;
  iteration: number;
  /** Something of this turn is in history (inputs archived or a tool group saved). */
  leftInHistory: boolean;
  /** Multi-party rooms: addressed joined inputs so far, for the focus block. */
  addressedJoins: IncomingMessage[];
  outcome: TurnOutcome;
  reply: string | undefined;
  error: string | TextRef | undefined;
  /** The last message stored for this turn (the reply that carries the TurnRecord). */
  storedReply: Message | undefined;
  startedAt: number;
}
