import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { SqliteDatabase } from '@aalis/sqlite';
import { queryTerms } from '@aalis/util-text-search';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INDEX_BATCH, INDEX_DELAY_MS, MessageIndexer } from './message-indexer.js';
import { recallEntry } from './recall-entry.js';
import type { RecallStore } from './recall-store.js';
import { sqliteRecallStore } from './sqlite-recall-store.js';

const quiet: Logger = {
  name: 'test',
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  enabled: () => false,
  child: () => quiet,
};

const said = (id: string, content: string): Message => ({ id, role: 'user', content, timestamp: 1_700_000_000_000 });

/** Lets the event loop run `rounds` times (immediates only: the indexer's wait is a timer, faked here). */
async function loopRounds(rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('MessageIndexer: when appends are written', () => {
  let dir: string;
  let database: SqliteDatabase;
  let store: RecallStore;
  let indexer: MessageIndexer;

  beforeEach(() => {
    // Only the timer of the quiet period is faked: the store's work and the loop's immediates run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    dir = mkdtempSync(join(tmpdir(), 'aalis-indexer-'));
    database = new SqliteDatabase(join(dir, 'aalis.db'));
    store = sqliteRecallStore(database);
    indexer = new MessageIndexer({
      store,
      log: quiet,
      readAll: async () => [],
      entryOf: async (sessionId, message) =>
        recallEntry({ sessionId, message, audience: 'room:qq:1', person: undefined }),
    });
  });

  afterEach(async () => {
    await indexer.stop();
    vi.useRealTimers();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves a turn's input for after its model request: nothing is written until the quiet period ends", async () => {
    indexer.appended('qq:group:1', [said('m1', 'the marmalade recipe uses bitter oranges')]);
    // The turn assembles its prompt and sends its request in these rounds of the loop; the index is not touched.
    await loopRounds(50);
    expect(await store.count()).toBe(0);
    indexer.appended('qq:group:1', [said('m2', 'and a lot of sugar')]);
    await vi.advanceTimersByTimeAsync(INDEX_DELAY_MS);
    await loopRounds(5);
    expect(await store.count()).toBe(2);
    const hits = await store.search({
      terms: queryTerms('marmalade'),
      scope: { sessionId: 'qq:group:1', audiences: ['room:qq:1'], persons: [] },
      limit: 5,
    });
    expect(hits.map((hit) => hit.messageId)).toEqual(['m1']);
  });

  it('writes a full batch at once, and settled() does not wait for the quiet period', async () => {
    const burst = Array.from({ length: INDEX_BATCH }, (_, index) => said(`b${index}`, `burst line number ${index}`));
    indexer.appended('qq:group:1', burst);
    for (let round = 0; round < 200 && (await store.count()) < INDEX_BATCH; round += 1) await loopRounds(1);
    expect(await store.count()).toBe(INDEX_BATCH);

    indexer.appended('qq:group:1', [said('late', 'one more line')]);
    await indexer.settled();
    expect(await store.count()).toBe(INDEX_BATCH + 1);
  });

  it('applies a deletion after the appends it follows, in order, once the wait ends', async () => {
    indexer.appended('qq:group:1', [{ ...said('t1', 'a line of turn one'), metadata: { turnId: 'turn-1' } }]);
    indexer.deletedTurn('qq:group:1', 'turn-1');
    indexer.appended('qq:group:1', [said('t2', 'a line after it')]);
    await indexer.settled();
    expect(await store.count()).toBe(1);
  });

  it('applies a deletion without the quiet period, so the next recall cannot find a rolled-back turn', async () => {
    indexer.appended('qq:group:1', [{ ...said('t1', 'a line of turn one'), metadata: { turnId: 'turn-1' } }]);
    await vi.advanceTimersByTimeAsync(INDEX_DELAY_MS);
    await indexer.settled();
    expect(await store.count()).toBe(1);
    indexer.deletedTurn('qq:group:1', 'turn-1');
    // No timer advanced: the deletion does not wait for the quiet period; the recall waits for the deletion.
    await indexer.deletionsApplied();
    expect(await store.count()).toBe(0);
    // With nothing deleted waiting, a recall does not wait for appends.
    indexer.appended('qq:group:1', [said('t2', 'a line after it')]);
    await indexer.deletionsApplied();
    expect(await store.count()).toBe(0);
  });
});
