// A call to a model: the messages, the tools it may call, and the accounting fields every call carries.
import type { Message, ModelToolDefinition, ToolChoice } from '@aalis/schema-message';

/**
 * Why a call is made, for accounting: a session's own turns, a child session's (「对话」 / 「子任务」), or the
 * profile plugin's extraction pass after a turn (「档案提取」).
 */
export type LlmPurpose = 'conversation' | 'subtask' | 'profile-extraction';

/** A tool the model may call (the shared ModelToolDefinition; the name is kept for consumers). */
export type LlmToolDefinition = ModelToolDefinition;

export interface ChatRequest {
  /** `<provider instance id>/<model id>`; omitted = the provider's first model. */
  model?: string;
  messages: readonly Message[];
  tools?: readonly LlmToolDefinition[];
  toolChoice?: ToolChoice;
  /** A level id the model declares; others are ignored and the model's default applies. */
  thinkingLevel?: string;
  maxOutputTokens?: number;
  temperature?: number;
  /** The session the call is made for (accounting, `llm:usage`). */
  sessionId: string;
  purpose: LlmPurpose;
}

export interface ChatOptions {
  /** Aborting closes the connection at once; the call fails with AALIS_LLM_ABORTED. */
  signal?: AbortSignal;
}
