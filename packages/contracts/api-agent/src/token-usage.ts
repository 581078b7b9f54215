// token:usage (api-agent.zh.md 「用量(token:usage)」, plugin-agent.zh.md 「Token 预算追踪与日志」).
import type { TextRef } from '@aalis/core';

/** The fixed buckets of a usage breakdown, for self-checks (plugin-prompt-budget). */
export interface TokenBreakdown {
  system: number;
  persona: number;
  memorySummary: number;
  memoryVector: number;
  skills: number;
  platform: number;
  subtask: number;
  systemOther: number;
  history: number;
  toolResults: number;
  toolDefs: number;
  reservedForReply: number;
  /** systemOther by injector, keyed `<plugin instance id>/<local id>`. */
  injectors: Record<string, number>;
}

export interface TokenUsagePart {
  /** Display name. */
  label: string | TextRef;
  tokens: number;
  /** This part by injector, keyed `<plugin instance id>/<local id>`. */
  injectors?: Record<string, number>;
}

export interface TokenUsageEvent {
  sessionId: string;
  /** Absent on token:request snapshots. */
  turnId?: string;
  platform: string;
  contextWindow: number;
  maxTokens: number;
  tokenBudget: number;
  /** Prompt tokens reported by the provider for this call, or the estimate when absent/invalid (and on snapshots). */
  used: number;
  usageRatio: number;
  /** Hard trimming happened in this turn up to this call. */
  trimmed: boolean;
  /** History and tool-result tokens estimated on the untrimmed list. */
  untrimmedHistory: number;
  /** Active conversation messages at turn start plus what this turn appended so far (control kinds excluded). */
  historyMessages: number;
  /** The turn's historyLimit (0 = no count limit). */
  historyLimit: number;
  breakdown: TokenBreakdown;
  /** The same figures in display order with labels (reservedForReply excluded). */
  parts: TokenUsagePart[];
}

export interface TokenRequestEvent {
  sessionId: string;
  /** The caller's entry platform; may be omitted (rooms). */
  platform?: string;
}
