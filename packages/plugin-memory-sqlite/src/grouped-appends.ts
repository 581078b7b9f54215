// Group commit for the SQLite memory store: appends made in one event-loop turn (many sessions' turns at once) are
// committed in one transaction, each in its own savepoint, so one failing append fails alone. A commit writes every
// page it changed to the WAL; sessions' newest rows, index entries and counters share pages, so a commit of four
// appends costs about half of four commits (docs/decisions/turn-cost.md). Every other operation commits what is
// queued first, so reads see every append made before them, exactly as with one commit per append.
import type { MemoryReadOptions } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import type { SqliteDatabase } from '@aalis/sqlite';
import type { MemoryStore } from './memory-store.js';
import type { SqliteMemoryStore } from './sqlite-memory-store.js';

interface QueuedAppend {
  sessionId: string;
  messages: readonly Message[];
  resolve(stored: Message[]): void;
  reject(error: unknown): void;
}

export class GroupedAppends implements MemoryStore {
  private queued: QueuedAppend[] = [];
  private scheduled = false;

  constructor(
    private readonly store: SqliteMemoryStore,
    private readonly database: SqliteDatabase,
  ) {}

  append(sessionId: string, messages: readonly Message[]): Promise<Message[]> {
    return new Promise((resolve, reject) => {
      this.queued.push({ sessionId, messages, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // After the other callbacks of this loop turn, so their appends join the same commit.
      setImmediate(() => this.flush());
    });
  }

  /** Commits the queued appends now (one transaction; each append in a savepoint of its own). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    if (batch.length === 1) {
      const [only] = batch as [QueuedAppend];
      settle(only, () => this.store.append(only.sessionId, only.messages));
      return;
    }
    const outcomes: (() => void)[] = [];
    try {
      // store.append inside a transaction runs in a savepoint: a failure rolls back that append only.
      this.database.write(() => {
        for (const entry of batch) {
          try {
            const stored = this.store.append(entry.sessionId, entry.messages);
            outcomes.push(() => entry.resolve(stored));
          } catch (error) {
            outcomes.push(() => entry.reject(error));
          }
        }
      });
    } catch (error) {
      // The commit itself failed (the database is busy past its timeout, or closed): nothing was stored.
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const outcome of outcomes) outcome();
  }

  read(sessionId: string, options?: MemoryReadOptions): Message[] {
    this.flush();
    return this.store.read(sessionId, options);
  }

  countHistory(sessionId: string): number {
    this.flush();
    return this.store.countHistory(sessionId);
  }

  activeStart(sessionId: string): number {
    this.flush();
    return this.store.activeStart(sessionId);
  }

  activeDivider(sessionId: string): Message | undefined {
    this.flush();
    return this.store.activeDivider(sessionId);
  }

  readAll(sessionId: string): Message[] {
    this.flush();
    return this.store.readAll(sessionId);
  }

  deleteByTurn(sessionId: string, turnId: string): number {
    this.flush();
    return this.store.deleteByTurn(sessionId, turnId);
  }

  delete(sessionIds: readonly string[] | undefined): void {
    this.flush();
    this.store.delete(sessionIds);
  }
}

function settle(entry: QueuedAppend, append: () => Message[]): void {
  let stored: Message[];
  try {
    stored = append();
  } catch (error) {
    entry.reject(error);
    return;
  }
  entry.resolve(stored);
}
