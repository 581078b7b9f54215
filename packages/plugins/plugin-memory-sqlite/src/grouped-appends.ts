// Group commit for the SQLite memory store: appends made in one event-loop turn (many sessions' turns at once) are
// committed in one transaction (the database's writeSoon, shared with lease writes), each in its own savepoint, so
// one failing append fails alone. A commit writes every
// page it changed to the WAL; sessions' newest rows, index entries and counters share pages, so a commit of four
// appends costs about half of four commits (docs/decisions/turn-cost.md). Every other operation commits what is
// queued first, so reads see every append made before them, exactly as with one commit per append.
import type { MemoryReadOptions, MemorySearchOptions, Supersession } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import type { SqliteDatabase } from '@aalis/sqlite';
import type { MemoryStore } from './memory-store.js';
import type { SqliteMemoryStore } from './sqlite-memory-store.js';

export class GroupedAppends implements MemoryStore {
  constructor(
    private readonly store: SqliteMemoryStore,
    private readonly database: SqliteDatabase,
  ) {}

  append(sessionId: string, messages: readonly Message[]): Promise<Message[]> {
    // The database's group commit (SqliteDatabase.writeSoon): shared with every other write of this loop turn
    // (other sessions' appends, lease claims and releases), each append in a savepoint of its own.
    // The group commit runs each write in a transaction of its own (alone) or a savepoint (in a batch), so the rows
    // go in directly, without a nested savepoint.
    return this.database.writeSoon(() => this.store.appendInTransaction(sessionId, messages));
  }

  /** Commits the queued appends now (with every other write queued on the database). */
  flush(): void {
    this.database.flushWrites();
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

  supersedeTurns(sessionId: string, turnIds: readonly string[], supersession: Supersession) {
    this.flush();
    return this.store.supersedeTurns(sessionId, turnIds, supersession);
  }

  search(query: string, options: MemorySearchOptions) {
    this.flush();
    return this.store.search(query, options);
  }

  delete(sessionIds: readonly string[] | undefined): void {
    this.flush();
    this.store.delete(sessionIds);
  }
}
