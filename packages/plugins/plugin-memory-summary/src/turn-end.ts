// The turn-end decision: an agent:turn:after middleware that lets the turn finish first (next()), then schedules
// the check and any compaction, so the turn is never delayed by them and never sees their failures.
import type { TokenUsageEvent, TurnAfterContext } from '@aalis/api-agent';
import type { Middleware } from '@aalis/api-hooks';
import type { SettingsScope } from '@aalis/api-session-settings';
import type { Logger } from '@aalis/core';
import { compactionReason } from './compaction-rules.js';
import type { Compactor } from './compactor.js';
import type { TurnUsageTracker } from './turn-usage.js';

/** Runs deferred work; swappable so tests can await what was scheduled. */
export type Schedule = (task: () => Promise<void>) => void;

export const defaultSchedule: Schedule = (task) => {
  setTimeout(() => void task(), 0);
};

export interface TurnEndDeps {
  tracker: TurnUsageTracker;
  compactor: Compactor;
  schedule: Schedule;
  autoCompactRatio(scope: SettingsScope): Promise<number>;
  log: Logger;
}

export function turnEndMiddleware(deps: TurnEndDeps): Middleware<TurnAfterContext> {
  return async (context, next) => {
    await next();
    const usage = deps.tracker.take(context.turnId);
    if (!usage) return;
    deps.schedule(() => checkTurn(deps, context, usage));
  };
}

async function checkTurn(deps: TurnEndDeps, context: TurnAfterContext, usage: TokenUsageEvent): Promise<void> {
  const { sessionId, turnId } = context;
  try {
    const venue = context.inputs[0]?.message.venue;
    const ratio = await deps.autoCompactRatio({ sessionId, platform: usage.platform, venue });
    const reason = compactionReason({ usage, outcome: context.outcome, autoCompactRatio: ratio, reply: context.reply });
    if (!reason) {
      deps.log.debug('no compaction needed', { sessionId, turnId, usageRatio: usage.usageRatio, line: ratio });
      return;
    }
    if (deps.compactor.isRunning(sessionId)) {
      deps.log.debug('a compaction of this session is already running', { sessionId, turnId, reason });
      return;
    }
    await deps.compactor.compact({ sessionId, trigger: reason, turnId, platform: usage.platform, venue });
  } catch (error) {
    deps.log.warn('compaction check failed', {
      sessionId,
      turnId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
