// Answers token:request with a usage snapshot of a session (plugin-agent.zh.md 「Token 预算追踪与日志」): the same
// history read, prompt build and hard trim as a real turn, no model call, no logging, no turnId.
import type { TokenRequestEvent } from '@aalis/api-agent';
import { trimMessages } from '@aalis/context-budget';
import { textRef } from '@aalis/core';
import type { AgentDeps } from './agent-deps.js';
import { assemble } from './turn-assembly.js';
import { buildTurnMaterial } from './turn-material.js';
import { readTurnSettings } from './turn-settings.js';
import type { TurnState } from './turn-state.js';
import { buildUsageEvent } from './usage-emitter.js';

export const SNAPSHOT_FALLBACK_PLATFORM = 'webui';

export async function snapshotPlatform(deps: AgentDeps, request: TokenRequestEvent): Promise<string> {
  if (request.platform) return request.platform;
  if (deps.sessionManager.available) {
    const root = await deps.sessionManager.use.rootOf(request.sessionId);
    if (root?.originPlatform) return root.originPlatform;
  }
  return SNAPSHOT_FALLBACK_PLATFORM;
}

export async function answerTokenRequest(deps: AgentDeps, request: TokenRequestEvent): Promise<void> {
  const platform = await snapshotPlatform(deps, request);
  const partial = { sessionId: request.sessionId, platform, messages: [] } as unknown as TurnState;
  const settings = await readTurnSettings(deps, partial);
  if (!settings) return;
  const {
    system,
    history,
    tools,
    contributions: built,
  } = await buildTurnMaterial(deps, {
    sessionId: request.sessionId,
    platform,
    venue: undefined,
    turnId: undefined,
    settings,
    inputs: [],
    signal: new AbortController().signal,
    dryRun: true,
  });
  const parts = {
    system,
    head: built.byAnchor.head,
    history: history.messages,
    turn: [...built.byAnchor['turn-context'], ...built.byAnchor['turn-hint']],
    inputs: new Set<never>(),
  };
  const call = assemble(parts);
  const trim = trimMessages({
    messages: call.messages,
    segments: { headEnd: call.headEnd, historyEnd: call.historyEnd },
    inputs: [],
    contextWindow: settings.model.contextWindow,
    maxOutputTokens: settings.model.maxOutputTokens,
    trimThresholdRatio: deps.config.trimThresholdRatio,
    memoryTokenBudget: deps.config.memoryTokenBudget,
    continuationPrompt: deps.i18n.t(textRef('context.continuationPrompt')),
    toolCallSummary: deps.i18n.t(textRef('context.toolCallSummary')),
  });
  const event = buildUsageEvent(deps, {
    sessionId: request.sessionId,
    platform,
    state: {
      settings,
      categories: built.categories,
      trimmedOnce: false,
      historyAtStart: history.activeCount,
      appended: 0,
    },
    trim,
    tools,
    promptTokens: undefined,
  });
  deps.events.emit('token:usage', event);
}
