// When a turn's usage asks for compaction (plugin-agent.zh.md 「会话设置项」 historyLimit, 「Token 预算追踪与日志」
// consumers): decided once per turn, at its end, on the turn's last token:usage.
import type { TokenUsageEvent, TurnOutcome } from '@aalis/api-agent';
import { historyCutLine, trimUnit } from '@aalis/context-budget';

/**
 * Why a turn's end compacts the session:
 * - `history-limit`: the session reached historyLimit messages (full compaction, so old messages never slide out
 *   of the context unsummarised);
 * - `usage-line`: the last call used at least the auto-compaction line of the context window;
 * - `trimmed`: the turn was hard-trimmed while the line is on;
 * - `before-trim`: while the line is on, the next turn's trimming would start dropping history (see
 *   `nearHistoryCut`), so the history is summarised before any of it silently leaves the context.
 */
export type CompactionReason = 'history-limit' | 'usage-line' | 'trimmed' | 'before-trim';

export type TurnUsage = Pick<
  TokenUsageEvent,
  'usageRatio' | 'trimmed' | 'historyMessages' | 'historyLimit' | 'tokenBudget' | 'breakdown'
>;

/**
 * Whether the next turn's trimming would drop history (plugin-agent.zh.md 「上下文裁剪算法」 step 1: head, with the
 * tool definitions, plus history over the budget less one unit). Estimated on the call's messages as sent: this turn's inputs, tool
 * rounds and reply are history in the next turn, so the sent total stands for the next turn's head plus history.
 * It fires a quarter unit early, so a compaction finishes before the cut even when the next turns arrive at once.
 * Only with at least one unit of history and tool results (what one cut would drop): when the head itself fills
 * the budget, compacting could not make room and would only repeat every turn.
 */
export function nearHistoryCut(usage: Pick<TokenUsageEvent, 'tokenBudget' | 'breakdown'>): boolean {
  const { system, history, toolResults, toolDefs } = usage.breakdown;
  const unit = trimUnit(usage.tokenBudget);
  if (history + toolResults < unit) return false;
  // The tool definitions count with the head in the trim budget (#11.7).
  return system + toolDefs + history + toolResults >= historyCutLine(usage.tokenBudget) - Math.ceil(unit / 4);
}

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
  if (nearHistoryCut(usage)) return 'before-trim';
  return undefined;
}
