// Emits token:usage after each successful model call and prints the throttled [token-usage] line.
import type { TokenUsageEvent } from '@aalis/api-agent';
import type { ChatResponse } from '@aalis/api-llm';
import type { ToolDefinition } from '@aalis/api-tools';
import type { TrimResult } from '@aalis/context-budget';
import type { AgentDeps } from '../agent-deps.js';
import type { TurnContext, TurnProgress } from './turn-state.js';
import { computeBreakdown, formatUsageLine, UsageLogThrottle, usageParts } from './usage-report.js';

const throttles = new WeakMap<AgentDeps, UsageLogThrottle>();

export function usageThrottle(deps: AgentDeps): UsageLogThrottle {
  let throttle = throttles.get(deps);
  if (!throttle) {
    throttle = new UsageLogThrottle(deps.config.usageLogEvery);
    throttles.set(deps, throttle);
  }
  return throttle;
}

export function buildUsageEvent(
  deps: AgentDeps,
  {
    sessionId,
    turnId,
    platform,
    state,
    progress,
    trim,
    tools,
    promptTokens,
  }: {
    sessionId: string;
    turnId?: string;
    platform: string;
    state: Pick<TurnContext, 'settings' | 'categories' | 'historyAtStart'>;
    progress: Pick<TurnProgress, 'trimmedOnce' | 'appended'>;
    trim: TrimResult;
    tools: readonly ToolDefinition[];
    promptTokens: number | undefined;
  },
): TokenUsageEvent {
  const model = state.settings.model;
  const used =
    promptTokens !== undefined && Number.isFinite(promptTokens) && promptTokens > 0 ? promptTokens : trim.tokens;
  const breakdown = computeBreakdown({
    messages: trim.messages,
    messageTokens: trim.messageTokens,
    tools,
    personaPrompt: state.settings.personaPrompt,
    categories: state.categories,
    instanceId: deps.instanceId,
    maxTokens: model.maxOutputTokens,
  });
  const event: TokenUsageEvent = {
    sessionId,
    platform,
    contextWindow: model.contextWindow,
    maxTokens: model.maxOutputTokens,
    tokenBudget: trim.budget,
    used,
    usageRatio: model.contextWindow > 0 ? used / model.contextWindow : 0,
    trimmed: progress.trimmedOnce || trim.trimmed,
    untrimmedHistory: trim.untrimmedHistory,
    historyMessages: state.historyAtStart + progress.appended,
    historyLimit: state.settings.historyLimit,
    breakdown,
    parts: usageParts(breakdown),
  };
  if (turnId !== undefined) event.turnId = turnId;
  return event;
}

export function reportUsage(
  deps: AgentDeps,
  { state, progress }: { state: TurnContext; progress: TurnProgress },
  { response, trim, tools }: { response: ChatResponse; trim: TrimResult; tools: readonly ToolDefinition[] },
): void {
  const event = buildUsageEvent(deps, {
    sessionId: state.sessionId,
    turnId: state.turnId,
    platform: state.platform,
    state,
    progress,
    trim,
    tools,
    promptTokens: response.usage.promptTokens,
  });
  deps.events.emit('token:usage', event);
  if (usageThrottle(deps).shouldLog(event)) deps.log.info(formatUsageLine(event));
}
