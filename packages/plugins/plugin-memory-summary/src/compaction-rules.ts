// When a turn's usage asks for compaction (plugin-agent.zh.md 「会话设置项」 historyLimit, 「Token 预算追踪与日志」
// consumers): decided once per turn, at its end, on the turn's last token:usage.
import type { TokenUsageEvent, TurnOutcome } from '@aalis/api-agent';
import { estimateMessageTokens, historyCutLine, trimUnit } from '@aalis/context-budget';

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
 * Whether the next turn's trimming would drop history (plugin-agent.zh.md 「上下文裁剪算法」 step 1: head, with the tool
 * definitions, plus history over the budget less one unit). Estimated on the call's messages as sent plus the turn's
 * final reply (`replyTokens`), which the last call did not contain: this turn's inputs, tool rounds and reply are
 * history in the next turn, so together they stand for the next turn's head plus history (without the reply, a long
 * answer took the next turn past the line unsummarised, and its cut re-sent the whole history uncached). It fires a
 * quarter unit early, so a compaction finishes before the cut even when the next turns arrive at once. Only with at
 * least one unit of history, tool results and reply (what one cut would drop): when the head itself fills the budget,
 * compacting could not make room and would only repeat every turn.
 */
export function nearHistoryCut(usage: Pick<TokenUsageEvent, 'tokenBudget' | 'breakdown'>, replyTokens = 0): boolean {
  const { system, history, toolResults, toolDefs } = usage.breakdown;
  const unit = trimUnit(usage.tokenBudget);
  const nextHistory = history + toolResults + replyTokens;
  if (nextHistory < unit) return false;
  // The tool definitions count with the head in the trim budget.
  return system + toolDefs + nextHistory >= historyCutLine(usage.tokenBudget) - Math.ceil(unit / 4);
}

/** The estimate of a turn's final reply as the next turn's history will carry it (0 without a stored reply). */
export function replyTokensOf({ reply, outcome }: { reply: string | undefined; outcome: TurnOutcome }): number {
  if (outcome !== 'replied' || !reply) return 0;
  return estimateMessageTokens({ role: 'assistant', content: reply });
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
  reply,
}: {
  /** The turn's last token:usage (never a snapshot). */
  usage: TurnUsage;
  outcome: TurnOutcome;
  /** The session's auto-compaction line; 0 (or less) = off. */
  autoCompactRatio: number;
  /** The turn's final reply (TurnAfterContext.reply), history in the next turn. */
  reply?: string;
}): CompactionReason | undefined {
  if (usage.historyLimit > 0 && messagesAtTurnEnd({ usage, outcome }) >= usage.historyLimit) return 'history-limit';
  if (autoCompactRatio <= 0) return undefined;
  if (usage.usageRatio >= autoCompactRatio) return 'usage-line';
  if (usage.trimmed) return 'trimmed';
  if (nearHistoryCut(usage, replyTokensOf({ reply, outcome }))) return 'before-trim';
  return undefined;
}
