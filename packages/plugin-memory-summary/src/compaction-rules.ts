// When a turn's usage asks for compaction (plugin-agent.zh.md 「会话设置项」 historyLimit, 「Token 预算追踪与日志」
// consumers): decided once per turn, at its end, on the turn's last token:usage.
import type { TokenUsageEvent, TurnOutcome } from '@aalis/api-agent';

/**
 * Why a turn's end compacts the session:
 * - `history-limit`: the session reached historyLimit messages (full compaction, so old messages never slide out
 *   of the context unsummarised);
 * - `usage-line`: the last call used at least the auto-compaction line of the context window;
 * - `trimmed`: the turn was hard-trimmed while the line is on.
 */
export type CompactionReason = 'history-limit' | 'usage-line' | 'trimmed';

export type TurnUsage = Pick<TokenUsageEvent, 'usageRatio' | 'trimmed' | 'historyMessages' | 'historyLimit'>;

/**
 * Conversation messages of the session when the turn ended: the last call's count, plus the final reply, which is
 * stored after that call (api-agent.zh.md: a `replied` turn's reply is not in the last historyMessages).
 */
export function messagesAtTurnEnd({ usage, outcome }: { usage: TurnUsage; outcome: TurnOutcome }): number {
  return usage.historyMessages + (outcome === 'replied' ? 1 : 0);
}

export function compactionReason({
  usage,
  outcome,
  autoCompactRatio,
}: {
  /** The turn's last token:usage (never a snapshot). */
  usage: TurnUsage;
  outcome: TurnOutcome;
  /** The session's auto-compaction line; 0 (or less) = off. */
  autoCompactRatio: number;
}): CompactionReason | undefined {
  if (usage.historyLimit > 0 && messagesAtTurnEnd({ usage, outcome }) >= usage.historyLimit) return 'history-limit';
  if (autoCompactRatio <= 0) return undefined;
  if (usage.usageRatio >= autoCompactRatio) return 'usage-line';
  if (usage.trimmed) return 'trimmed';
  return undefined;
}
