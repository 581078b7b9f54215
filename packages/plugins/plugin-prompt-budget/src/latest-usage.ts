// The latest token:usage of each session. Snapshots (token:request answers, no turnId) count too: they are the
// most recent figures of the session, estimated the same way and under the same budget as real calls.
import type { TokenUsageEvent } from '@aalis/api-agent';

export class LatestUsage {
  private readonly bySession = new Map<string, TokenUsageEvent>();

  record(event: TokenUsageEvent): void {
    this.bySession.set(event.sessionId, event);
  }

  of(sessionId: string): TokenUsageEvent | undefined {
    return this.bySession.get(sessionId);
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
