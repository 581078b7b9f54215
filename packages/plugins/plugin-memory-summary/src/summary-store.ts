// The latest summary of each session: the Summary carried by the divider that starts the active history. Cached
// per session and keyed by activeStart, so a new divider, a rolled-back one or a cleared history is noticed with
// one cheap call; a miss reads that one divider by index (memory.activeDivider), never the archive.
import type { MemoryService } from '@aalis/api-memory';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

/** The summary a compression divider carries, if any. */
export function summaryOf(message: Message | undefined): string | undefined {
  if (message?.kind !== 'compression-divider') return undefined;
  const summary = message.metadata?.[WellKnownMetadataKeys.Summary];
  return typeof summary === 'string' && summary.trim() !== '' ? summary : undefined;
}

/** The summary of the divider just before the active history (none: no divider, or one without a summary). */
export function activeSummary(all: readonly Message[], activeStart: number): string | undefined {
  return activeStart > 0 ? summaryOf(all[activeStart - 1]) : undefined;
}

export class SummaryStore {
  private readonly cache = new Map<string, { activeStart: number; summary: string | undefined }>();

  constructor(private readonly memory: () => MemoryService) {}

  async latest(sessionId: string): Promise<string | undefined> {
    const memory = this.memory();
    const activeStart = await memory.activeStart(sessionId);
    const cached = this.cache.get(sessionId);
    if (cached && cached.activeStart === activeStart) return cached.summary;
    // One indexed read of the divider, never the archive.
    const summary = activeStart > 0 ? summaryOf(await memory.activeDivider(sessionId)) : undefined;
    this.cache.set(sessionId, { activeStart, summary });
    return summary;
  }

  /** Called right after a compaction wrote its divider. */
  remember(sessionId: string, activeStart: number, summary: string): void {
    this.cache.set(sessionId, { activeStart, summary });
  }

  /** `undefined` forgets every session. */
  forget(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) this.cache.clear();
    else for (const sessionId of sessionIds) this.cache.delete(sessionId);
  }
}
