// The agent:* hooks (api-agent.zh.md 「钩子(HookContextMap)」), merged into @aalis/api-hooks' HookContextMap.
import '@aalis/api-hooks';
import type { ChatResponse, LlmToolDefinition } from '@aalis/api-llm';
import type { ToolCallContext, ToolDefinition, ToolResult } from '@aalis/api-tools';
import type { TextRef } from '@aalis/core';
import type { IncomingMessage, Message } from '@aalis/schema-message';
import type { TurnInput, TurnOutcome } from './turn-input.js';

export interface InputBeforeContext {
  /** May be rewritten before next(); not calling next drops it (not in a turn, not archived). */
  message: IncomingMessage;
}

export interface TurnBeforeContext {
  turnId: string;
  sessionId: string;
  /** Live: inputs joined later are appended before they reach the model. */
  inputs: TurnInput[];
}

export interface LlmBeforeContext {
  messages: Message[];
  tools: ToolDefinition[];
  /** Whether the turn's main model can see images (registered vision capability). */
  acceptsImages: boolean;
  sessionId: string;
  turnId: string;
  /** The turn's IncomingMessage.source; absent for a real person. */
  source?: string;
  /** `<provider instance id>/<model id>` of this call. */
  model: string;
  /** 0 for the first call of the turn, then one more per tool batch. */
  iteration: number;
}

export interface LlmAfterContext {
  response: ChatResponse;
  /** The messages sent (after trimming). */
  messages: Message[];
  sessionId: string;
  turnId: string;
  /** `<provider instance id>/<model id>` of this call. */
  model: string;
  /**
   * The tool definitions sent, exactly as the provider received them (empty when the call offered none). With
   * `messages` this is the call's prompt, so a consumer can send a request that shares its prefix (the memory
   * summary does, so its compaction reuses the provider's prompt cache).
   */
  tools: LlmToolDefinition[];
}

export interface ToolBeforeContext {
  name: string;
  args: Record<string, unknown>;
  toolCallContext: ToolCallContext;
}

export interface ToolAfterContext {
  name: string;
  /** May be replaced. */
  result: ToolResult;
  toolCallContext: ToolCallContext;
  /** Keys written here are stored with this tool result (turnId and callId are written by the agent). */
  metadata: Record<string, unknown>;
}

export interface ReplyBeforeContext {
  /** The reply text to send; may be rewritten. */
  content: string;
  /** What to store instead of `content` (e.g. a structured-output envelope). */
  archiveContent?: string;
  /** The decoded visible text of a structured reply. */
  visibleContent?: string;
  sessionId: string;
  turnId: string;
  inputs: readonly TurnInput[];
}

export interface TurnAfterContext {
  inputs: readonly TurnInput[];
  /** The final reply text when the outcome is `replied`. */
  reply: string | undefined;
  outcome: TurnOutcome;
  /** On `error`: the one-sentence reason shown ([错误] or [系统] text). */
  error?: string | TextRef;
  sessionId: string;
  turnId: string;
}

declare module '@aalis/api-hooks' {
  interface HookContextMap {
    'agent:input:before': InputBeforeContext;
    'agent:turn:before': TurnBeforeContext;
    'agent:llm:before': LlmBeforeContext;
    'agent:llm:after': LlmAfterContext;
    'agent:tool:before': ToolBeforeContext;
    'agent:tool:after': ToolAfterContext;
    'agent:reply:before': ReplyBeforeContext;
    'agent:turn:after': TurnAfterContext;
  }
}
