// Answers token:request with a usage snapshot of a session (plugin-agent.zh.md 「Token 预算追踪与日志」): the same
// settings (venue layer included), history read, prompt build and hard trim (tool definitions with the head) as a
// real turn, no model call, no logging, no turnId.
import type { TokenRequestEvent } from '@aalis/api-agent';
import type { AgentDeps } from '../agent-deps.js';
import { partsCall } from './call-messages.js';
import { buildTurnMaterial } from './prompt-sources.js';
import { trimCall } from './trim-call.js';
import { readTurnSettings, type SettingsSource } from './turn-settings.js';
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

/**
 * Where the snapshot reads its settings, tools and persona: the snapshot platform and, when that is the platform
 * the session lives on, the session's venue (a real turn takes it from its opening input; venue ids are per
 * platform, so another platform's snapshot has none).
 */
export async function snapshotSource(deps: AgentDeps, request: TokenRequestEvent): Promise<SettingsSource> {
  const platform = await snapshotPlatform(deps, request);
  const info = deps.sessionManager.available ? await deps.sessionManager.use.get(request.sessionId) : undefined;
  const venue = info?.venue !== undefined && info.platform === platform ? info.venue : undefined;
  return { sessionId: request.sessionId, platform, venue };
}

export async function answerTokenRequest(deps: AgentDeps, request: TokenRequestEvent): Promise<void> {
  const source = await snapshotSource(deps, request);
  const settings = await readTurnSettings(deps, source);
  if (!settings) return;
  const {
    system,
    history,
    tools,
    contributions: built,
  } = await buildTurnMaterial(deps, {
    sessionId: source.sessionId,
    platform: source.platform,
    venue: source.venue,
    turnId: undefined,
    settings,
    inputs: [],
    signal: new AbortController().signal,
    dryRun: true,
  });
  const parts = {
    turnId: undefined,
    system,
    head: built.byAnchor.head,
    get history() {
      return history.segment.toArray();
    },
    historySegment: history.segment,
    turn: [...built.byAnchor['turn-context'], ...built.byAnchor['turn-hint']],
    inputs: new Set<never>(),
    instructions: new Set<never>(),
  };
  const { trim } = trimCall(deps, {
    // Nothing reads the snapshot's list: the trim takes the parts (no list of the whole history built).
    call: partsCall(parts, history.segment),
    tools,
    settings,
    historyIndex: deps.historyCache.trimIndex(source.sessionId),
  });
  const event = buildUsageEvent(deps, {
    sessionId: source.sessionId,
    platform: source.platform,
    state: { settings, categories: built.categories, historyAtStart: history.activeCount },
    progress: { trimmedOnce: false, appended: 0 },
    trim,
    tools,
    promptTokens: undefined,
  });
  deps.events.emit('token:usage', event);
}
