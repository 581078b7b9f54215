// The hard trim of one model call, the same for a real turn and a token:request snapshot (「快照与真实回合同一个
// 预算公式」): the tool definitions the call carries count with the head (fixedTokens), this turn's inputs and
// instruction blocks are protected, and the request's max output is lowered to the room the window leaves, so that
// messages + tool definitions + max output never exceed the context window.
import { agentErrors } from '@aalis/api-agent';
import type { ToolDefinition } from '@aalis/api-tools';
import {
  estimateToolDefinitionTokens,
  type HistoryTrimIndex,
  MIN_REPLY_TOKENS,
  type OutputAllowance,
  outputAllowance,
  type TrimResult,
  type TrimSettings,
  trimMessages,
} from '@aalis/context-budget';
import { textRef } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { AssembledCall, PartsCall } from './call-messages.js';
import { INJECTOR } from './engine-messages.js';
import type { TurnSettings } from './turn-state.js';

/**
 * The agent's own block: keyed <instance id>/continuation-prompt in the usage breakdown. One frozen object for
 * every call (the trim gives the inserted prompt a copy of it).
 */
const CONTINUATION_METADATA: Readonly<Record<string, unknown>> = Object.freeze({
  [WellKnownMetadataKeys.Injector]: INJECTOR.continuation,
});

export interface TrimmedCall {
  trim: TrimResult;
  /** The max output the request may carry (the model's, or less when the window leaves less room). */
  output: OutputAllowance;
}

export function trimCall(
  deps: Pick<AgentDeps, 'config' | 'i18n'>,
  {
    call,
    tools,
    settings,
    historyIndex,
  }: {
    /** The assembled list, or the parts when no middleware saw the list (the same trim, nothing built). */
    call: AssembledCall | PartsCall;
    tools: readonly ToolDefinition[];
    settings: Pick<TurnSettings, 'model'>;
    /** The session's incremental copy of its history segment (same result, work for what is new). */
    historyIndex?: HistoryTrimIndex;
  },
): TrimmedCall {
  const { contextWindow, maxOutputTokens } = settings.model;
  // One options object without spreads, the fixed texts translated only if the trim needs them (a trim through
  // step 2 or 4): this runs on every model call, mostly before V8 optimises it.
  const options: TrimSettings = {
    inputs: call.inputIndices,
    instructions: call.instructionIndices,
    fixedTokens: estimateToolDefinitionTokens(tools),
    contextWindow,
    maxOutputTokens,
    trimThresholdRatio: deps.config.trimThresholdRatio,
    memoryTokenBudget: deps.config.memoryTokenBudget,
    continuationPrompt: () => deps.i18n.t(textRef('context.continuationPrompt')),
    continuationMetadata: CONTINUATION_METADATA,
    toolCallSummary: () => deps.i18n.t(textRef('context.toolCallSummary')),
    historyIndex,
  };
  const trim =
    'parts' in call
      ? trimMessages({ ...options, parts: call.parts })
      : trimMessages({
          ...options,
          messages: call.messages,
          segments: { headEnd: call.headEnd, historyEnd: call.historyEnd },
        });
  return { trim, output: outputAllowance({ contextWindow, maxOutputTokens, promptTokens: trim.tokens }) };
}

/** The coded error of a call that cannot fit the window even after the trim (worded in the agent's locale). */
export function contextOverflowError(
  deps: Pick<AgentDeps, 'i18n'>,
  { trimmed, settings }: { trimmed: TrimmedCall; settings: Pick<TurnSettings, 'model'> },
): Error {
  const { contextWindow, maxOutputTokens } = settings.model;
  const error = agentErrors.AALIS_AGENT_CONTEXT_OVERFLOW(
    {
      prompt: trimmed.trim.tokens,
      window: contextWindow,
      room: Math.max(0, trimmed.output.room),
      minimum: Math.min(maxOutputTokens, MIN_REPLY_TOKENS),
    },
    { details: { prompt: trimmed.trim.tokens, contextWindow, maxOutputTokens } },
  );
  // The turn reports an error's message in the session ([错误] …): word it in the agent's locale.
  error.message = error.localized(deps.i18n.locale);
  return error;
}
