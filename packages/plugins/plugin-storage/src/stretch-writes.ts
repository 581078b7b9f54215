// Notes written together: the writes asked for here in one synchronous stretch of code (before the microtasks queued
// meanwhile have run) share one SQLite transaction, each in a savepoint of its own, so one that throws is rolled back
// and rejected alone. A turn notes its lease and each of its inputs' items at once (Promise.all): one commit
// instead of one per note, and unlike the group commit (writeSoon) no event-loop turn is waited for, so the turn's
// model request leaves as early as before and an input noted before it joins a turn joins as before.
import type { Connection, SqliteDatabase } from '@aalis/sqlite';

interface Queued {
  fn: (connection: Connection) => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const queues = new WeakMap<SqliteDatabase, Queued[]>();

/** Runs `fn` in a write transaction shared with the other writes asked for through here in the same stretch. */
export function writeTogether<T>(database: SqliteDatabase, fn: (connection: Connection) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(database);
    if (!queue) {
      queue = [];
      queues.set(database, queue);
      queueMicrotask(() => commit(database));
    }
    queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
  });
}

function commit(database: SqliteDatabase): void {
  const batch = queues.get(database) ?? [];
  queues.delete(database);
  if (batch.length === 1) {
    const [{ fn, resolve, reject }] = batch as [Queued];
    let value: unknown;
    try {
      value = database.write(fn);
    } catch (error) {
      reject(error);
      return;
    }
    resolve(value);
    return;
  }
  const settle: (() => void)[] = [];
  try {
    database.write(() => {
      for (const { fn, resolve, reject } of batch) {
        // A write inside a write is a savepoint: a throw rolls back this one alone.
        try {
          const value = database.write(fn);
          settle.push(() => resolve(value));
        } catch (error) {
          settle.push(() => reject(error));
        }
      }
    });
  } catch (error) {
    // The transaction itself failed (the write lock not had in time, the commit refused): nothing of it landed.
    for (const { reject } of batch) reject(error);
    return;
  }
  for (const done of settle) done();
}
