// On start, what the archive stored while the plugin was away: every session updated since the last catch-up began
// (all of them the first time) is read again and what the index lacks is added, in the background.
import type { SessionFilter, SessionInfo } from '@aalis/api-session-manager';
import type { Logger } from '@aalis/core';
import type { MessageIndexer } from './message-indexer.js';
import type { RecallStore } from './recall-store.js';

const MARK = 'caught-up-from';
const PAGE = 1000;
/** Clocks of several processes differ a little: a session updated just before the mark is read again. */
const SLACK_MS = 60_000;

export async function catchUp({
  store,
  indexer,
  sessions,
  log,
}: {
  store: RecallStore;
  indexer: MessageIndexer;
  sessions(filter: SessionFilter): Promise<SessionInfo[]>;
  log: Logger;
}): Promise<void> {
  try {
    const startedAt = Date.now();
    const failuresBefore = indexer.failures;
    const since = Number((await store.mark(MARK)) ?? 0) - SLACK_MS;
    let count = 0;
    for (let offset = 0; ; offset += PAGE) {
      const page = await sessions({ limit: PAGE, offset });
      // Most recently updated first: past the mark, the rest are older still.
      const due = page.filter((session) => session.updatedAt >= since).map((session) => session.id);
      indexer.catchUp(due);
      count += due.length;
      if (page.length < PAGE || due.length < page.length) break;
    }
    await indexer.settled();
    if (indexer.isStopped || indexer.failures > failuresBefore) return;
    await store.setMark(MARK, String(startedAt));
    if (count > 0) log.info('long-term memory caught up with the archive', { sessions: count });
  } catch (error) {
    log.warn('long-term memory could not catch up with the archive; it tries again on the next start', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
