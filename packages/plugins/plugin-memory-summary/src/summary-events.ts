// Events of plugin-memory-summary, merged into @aalis/core's EventMap.
import type { CompactionTrigger } from './compactor.js';

export interface SummaryCompactedEvent {
  sessionId: string;
  trigger: CompactionTrigger;
  /** The turn whose end triggered it (absent for /compact). */
  turnId?: string;
  /** Conversation messages the summary replaced. */
  messages: number;
  summary: string;
}

declare module '@aalis/core' {
  interface EventMap {
    /** A compression divider with a new summary was written; the active history now starts after it. */
    'summary:compacted': SummaryCompactedEvent;
  }
}
