// The state of one running turn: what it is (built whole, read by every step) apart from how far it got (written
// by the runner, reply delivery and persistence only).
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

/**
 * What a turn is from its first moment, before anything is read: its ids, where it came from and its inputs. Built
 * whole when the turn opens and never reassigned. The three input lists are live: the insertion point appends the
 * inputs that join (and agent:turn:before and the contribution views read `inputs` as it grows).
 */
export interface TurnOpening {
  readonly turnId: string;
  readonly sessionId: string;
  readonly platform: string;
  readonly kind: TurnKind;
  readonly running: RunningTurn;
  /** Live list shared with agent:turn:before and the contribution views. */
  readonly inputs: TurnInput[];
  /** The user message the model sees for each input (archived content, or built the archive's way). */
  readonly inputMessages: Map<TurnInput, Message>;
  /** The inputs in arrival order, as messages (joined ones appended). */
  readonly messages: IncomingMessage[];
  /** Multi-party rooms: addressed joined inputs so far, for the focus block. */
  readonly addressedJoins: IncomingMessage[];
  readonly fromQueue: boolean;
  /** The session's generation when the opening input reached the agent: a deletion that began since bumps it. */
  readonly generation: number;
  readonly startedAt: number;
}

/** The opening and the session's facts, once read (the inputs are archived with them, before the settings). */
export interface TurnWithFacts extends TurnOpening {
  readonly facts: SessionFacts;
}

/**
 * The turn once its settings are read and its material gathered: settings, tools and the parts of the message list
 * the model calls are assembled from. Built whole, then only read; what changes as the turn runs is in TurnProgress.
 */
export interface TurnContext extends TurnWithFacts {
  readonly settings: TurnSettings;
  readonly tools: ToolDefinition[];
  readonly parts: TurnParts;
  /** Category of each injected block, by injector key (for the usage breakdown). */
  readonly categories: Map<string, PromptCategory>;
  /** Active conversation messages at turn start (this turn's opened inputs included). */
  readonly historyAtStart: number;
}

/**
 * How far a turn got. Only the runner (outcome on error or stop, iteration, appended, trimmedOnce), reply delivery
 * (outcome, reply, storedReply) and persistence (leftInHistory) write it.
 */
export interface TurnProgress {
  outcome: TurnOutcome;
  reply: string | undefined;
  error: string | TextRef | undefined;
  /** The last message stored for this turn (the reply that carries the TurnRecord). */
  storedReply: Message | undefined;
  iteration: number;
  /** Conversation messages this turn appended so far (tool calls and results, joined inputs). */
  appended: number;
  trimmedOnce: boolean;
  /** Something of this turn is in history (inputs archived or a tool group saved). */
  leftInHistory: boolean;
  /** A held write of this turn gave up (storage-retry.ts): its last writes are tried once, not held again. */
  heldWriteGaveUp: boolean;
}

export function newTurnProgress(): TurnProgress {
  return {
    outcome: 'silent',
    reply: undefined,
    error: undefined,
    storedReply: undefined,
    iteration: 0,
    appended: 0,
    trimmedOnce: false,
    leftInHistory: false,
    heldWriteGaveUp: false,
  };
}
