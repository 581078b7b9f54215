// `usage.get` (docs/session-protocol.md 「Usage」): the figures of the session's last real model call, as stored with
// its turn's reply (prompt, completion and cached tokens, model), so a reloaded page shows them, not an estimate.
// Superseded turns do not count.
import { WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import type { LastCallUsage } from '@aalis/session-client';
import type { Handler } from './request-handler.js';
import { accessibleSession } from './session-access.js';

export function lastCallOf(messages: readonly Message[]): LastCallUsage | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    const metadata = message.metadata ?? {};
    if (message.role !== 'assistant' || metadata[Keys.Superseded] !== undefined) continue;
    const prompt = metadata[Keys.PromptTokens];
    const completion = metadata[Keys.CompletionTokens];
    const turnId = metadata[Keys.TurnId];
    if (typeof prompt !== 'number' || typeof completion !== 'number' || typeof turnId !== 'string') continue;
    const cached = metadata[Keys.CachedPromptTokens];
    const model = metadata[Keys.Model];
    return {
      turnId,
      at: message.timestamp ?? 0,
      promptTokens: prompt,
      completionTokens: completion,
      ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}),
      ...(typeof model === 'string' ? { model } : {}),
    };
  }
  return undefined;
}

export const usageGetRequest: Handler<'usage.get'> = async (deps, account, params, { type }) => {
  const session = await accessibleSession(deps, account, params.sessionId, type);
  if (!deps.memory.available) return {};
  const lastCall = lastCallOf(await deps.memory.use.readAll(session.id));
  return lastCall ? { lastCall } : {};
};
