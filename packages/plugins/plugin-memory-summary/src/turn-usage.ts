// The last token:usage of each running turn. Snapshots (token:request answers, no turnId) are not in any turn and
// never trigger compaction, so they are ignored here.

import type { TokenUsageEvent } from '@aalis/api-agent';
import { setBounded } from '@aalis/core';

/** Turns whose end was never seen (a third-party agent, a crash) are forgotten beyond this many. */
const MAX_TURNS = 256;

export class TurnUsageTracker {
  private readonly lastByTurn = new Map<string, TokenUsageEvent>();

  /** token:usage listener. */
  record(event: TokenUsageEvent): void {
    if (event.turnId === undefined) return;
    setBounded(this.lastByTurn, event.turnId, event, MAX_TURNS);
  }

  /** The turn's last usage, removed (called once, at the turn's end). */
  take(turnId: string): TokenUsageEvent | undefined {
    const event = this.lastByTurn.get(turnId);
    this.lastByTurn.delete(turnId);
    return event;
  }
}
