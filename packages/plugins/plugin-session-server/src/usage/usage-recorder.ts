// Records each completed model call (`llm:usage`) in the usage store, with who it answered: the person who opened
// the session's running turn (their authorised identity), else the WebUI account the session belongs to.

import { authorisedIdentityOf } from '@aalis/api-authority';
import type { HooksService } from '@aalis/api-hooks';
import type { LlmUsageEvent } from '@aalis/api-llm';
import type { Handle, ServerDeps } from '../server-deps.js';
import type { UsageCall, UsageStore } from './usage-store.js';

/** Calls older than this are pruned (the page asks for at most 90 days). */
export const KEEP_USAGE_MS = 92 * 86_400_000;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

export function platformOfSession(sessionId: string): string {
  const colon = sessionId.indexOf(':');
  return colon > 0 ? sessionId.slice(0, colon) : 'other';
}

/** `webui:<userId>` for a WebUI account's own session (`webui:<userId>:<id>`), else ''. */
function webuiAccountOf(sessionId: string): string {
  const match = /^webui:([^:]+):/.exec(sessionId);
  return match ? `webui:${match[1]}` : '';
}

export function usageCallOf(event: LlmUsageEvent, account: string, at: number): UsageCall {
  const call: UsageCall = {
    at,
    sessionId: event.sessionId,
    platform: platformOfSession(event.sessionId),
    account,
    model: event.model,
    purpose: event.purpose,
    promptTokens: event.promptTokens,
    completionTokens: event.completionTokens,
    cachedPromptTokens: Math.min(event.cachedPromptTokens ?? 0, event.promptTokens),
  };
  if (event.estimatedCost !== undefined && Number.isFinite(event.estimatedCost)) call.cost = event.estimatedCost;
  if (event.currency !== undefined) call.currency = event.currency;
  return call;
}

export function recordUsage(
  deps: Pick<ServerDeps, 'events' | 'log'>,
  hooks: Handle<HooksService>,
  store: UsageStore,
  now: () => number = Date.now,
): () => void {
  /** The person of the turn running in each session (llm:usage names the session only). */
  const persons = new Map<string, string>();
  hooks.use.middleware('agent:turn:before', async (turn, next) => {
    const opener = turn.inputs[0]?.message;
    const identity = opener ? authorisedIdentityOf(opener) : undefined;
    if (identity) persons.set(turn.sessionId, `${identity.platform}:${identity.userId}`);
    else persons.delete(turn.sessionId);
    try {
      await next();
    } finally {
      persons.delete(turn.sessionId);
    }
  });
  const off = deps.events.on('llm:usage', (event) => {
    const account = persons.get(event.sessionId) ?? webuiAccountOf(event.sessionId);
    void store
      .record(usageCallOf(event, account, now()))
      .catch((error: unknown) => deps.log.warn('usage: a model call could not be recorded', { error: String(error) }));
  });
  const prune = () =>
    void store
      .prune(now() - KEEP_USAGE_MS)
      .catch((error: unknown) => deps.log.warn('usage: old calls could not be pruned', { error: String(error) }));
  prune();
  const pruning = setInterval(prune, PRUNE_EVERY_MS);
  pruning.unref();
  return () => {
    off();
    clearInterval(pruning);
  };
}
