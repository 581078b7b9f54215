// The agent:prompt contribution point: prompt blocks (memory, summaries, skills, profiles…) built per call and
import '@aalis/api-contributions';
// placed at an anchor by plugin-agent's assembler.
import type { Message } from '@aalis/schema-message';
import type { TurnInput } from './turn-input.js';

/**
 * Where a block goes: `head` after the system prompt (stable between compactions, so it stays in the cached
 * prefix); `turn-hint` before this turn's instruction block, or before the last user message when there is none;
 * `turn-context` before the volatile context, or before the instruction block when there is none.
 */
export type PromptAnchor = 'head' | 'turn-hint' | 'turn-context';

/** Which usage bucket a block's tokens count toward; others go to systemOther by injector. */
export type PromptCategory = 'persona' | 'memorySummary' | 'memoryVector' | 'skills' | 'platform' | 'subtask' | 'other';

export interface PromptContributionView {
  sessionId: string;
  /** The turn's platform (the snapshot's resolved platform for token:request). */
  platform: string;
  /** The turn's inputs (archived ones carry `archived`); empty for token:request snapshots. */
  inputs: readonly TurnInput[];
  signal: AbortSignal;
  /** True when building for a token:request snapshot (no model call follows). */
  dryRun: boolean;
  /** The context window (tokens) of the model this turn calls: a block sizes itself to it (a small model, less). */
  contextWindow: number;
  /** A snapshot of the message list assembled so far. */
  messages: readonly Message[];
}

export interface PromptContributionSpec {
  id: string;
  anchor: PromptAnchor;
  category?: PromptCategory;
  /** Lower first within an anchor; ties keep contribution order. */
  order?: number;
  /** Returns the block text, or nothing to stay absent this time. Bounded by promptBuildTimeoutMs. */
  build(view: PromptContributionView): string | undefined | Promise<string | undefined>;
}

declare module '@aalis/api-contributions' {
  interface ContributionPointMap {
    'agent:prompt': PromptContributionSpec;
  }
}
