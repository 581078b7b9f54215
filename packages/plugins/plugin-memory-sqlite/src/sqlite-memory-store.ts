// The synchronous SQLite side of the memory service: append, window reads by index, rollback by turn, deletion.
// Every write is one BEGIN IMMEDIATE transaction (SqliteDatabase.write). The session counters (memory_sessions) are
// read through the connection's row cache: a turn asked for them five times, and the cache holds them for as long
// as no other connection committed and no write of this one rolled back (RowCache).
import type { MemoryReadOptions, MemorySearchHit, MemorySearchOptions, Supersession } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';
import type { Connection, RowCache, SqliteDatabase } from '@aalis/sqlite';
import { MEMORY_NAMESPACE, memoryMigrations } from './memory-migrations.js';
import {
  advanceOnAppend,
  COLUMNS,
  DIVIDER,
  emptyState,
  renumberTail,
  type SessionState,
  startActiveAtBeginning,
  type TailRow,
} from './memory-session-state.js';
import type { MemoryStore } from './memory-store.js';
import { newMessageId } from './message-id.js';
import { decodeMessage, encodeMessage, type MessageRow, storedMessage } from './message-row.js';
import { SqliteSessionSearch } from './sqlite-session-search.js';
import { supersededExtra } from './superseded-extra.js';

export class SqliteMemoryStore implements MemoryStore {
  private readonly connection: Connection;
  private readonly statements;
  /** memory_sessions rows by session (null: none), shared by every memory store on this connection. */
  private readonly states: RowCache<SessionState | null>;
  private readonly sessionSearch: SqliteSessionSearch;

  constructor(private readonly database: SqliteDatabase) {
    database.migrate(MEMORY_NAMESPACE, memoryMigrations);
    this.connection = database.connection;
    this.states = database.rowCache<SessionState | null>(MEMORY_NAMESPACE);
    this.sessionSearch = new SqliteSessionSearch(database, this.connection);
    const c = this.connection;
    this.statements = {
      state: c.prepare('SELECT * FROM memory_sessions WHERE session_id = ?'),
      // An upsert rather than INSERT OR REPLACE: every column is set either way, and updating the row in place
      // costs about two thirds of deleting and inserting it (once per append).
      saveState: c.prepare(`INSERT INTO memory_sessions (session_id, next_seq, epoch, row_count,
        conversation_count, active_seq_start, active_conversation_start, active_row_start)
        VALUES (@session_id, @next_seq, @epoch, @row_count, @conversation_count, @active_seq_start,
        @active_conversation_start, @active_row_start)
        ON CONFLICT (session_id) DO UPDATE SET next_seq = excluded.next_seq, epoch = excluded.epoch,
        row_count = excluded.row_count, conversation_count = excluded.conversation_count,
        active_seq_start = excluded.active_seq_start, active_conversation_start = excluded.active_conversation_start,
        active_row_start = excluded.active_row_start`),
      insert: c.prepare(`INSERT INTO memory_messages (session_id, seq, id, epoch, conversation_index, turn_id, role,
        kind, content, timestamp, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      seqOfConversation: c.prepare(
        'SELECT seq FROM memory_messages WHERE session_id = ? AND conversation_index = ? AND conversation_index IS NOT NULL',
      ),
      row: c.prepare(`SELECT ${COLUMNS} FROM memory_messages WHERE session_id = ? AND seq = ?`),
      rangeAll: c.prepare(`SELECT ${COLUMNS} FROM memory_messages WHERE session_id = ? AND seq >= ? ORDER BY seq`),
      // The active history with its control messages: superseded rows (conversation_index NULL too) left out.
      rangeActive: c.prepare(
        `SELECT ${COLUMNS} FROM memory_messages WHERE session_id = ? AND seq >= ? AND superseded = 0 ORDER BY seq`,
      ),
      turnRows: c.prepare(
        'SELECT seq, extra FROM memory_messages WHERE session_id = ? AND turn_id = ? AND superseded = 0 ORDER BY seq',
      ),
      supersede: c.prepare(
        'UPDATE memory_messages SET superseded = 1, conversation_index = NULL, extra = ? WHERE session_id = ? AND seq = ?',
      ),
      rangeConversation: c.prepare(
        `SELECT ${COLUMNS} FROM memory_messages WHERE session_id = ? AND seq >= ? AND conversation_index IS NOT NULL ORDER BY seq`,
      ),
      turnSeqs: c.prepare(
        'SELECT seq FROM memory_messages WHERE session_id = ? AND turn_id = ? AND turn_id IS NOT NULL ORDER BY seq',
      ),
      deleteRow: c.prepare('DELETE FROM memory_messages WHERE session_id = ? AND seq = ?'),
      tail: c.prepare(
        'SELECT seq, kind, epoch, conversation_index, superseded FROM memory_messages WHERE session_id = ? AND seq >= ? ORDER BY seq',
      ),
      lastBefore: c.prepare(
        'SELECT epoch, conversation_index FROM memory_messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1',
      ),
      lastConversationBefore: c.prepare(`SELECT conversation_index FROM memory_messages
        WHERE session_id = ? AND seq < ? AND conversation_index IS NOT NULL ORDER BY seq DESC LIMIT 1`),
      lastDividerBefore: c.prepare(`SELECT seq FROM memory_messages
        WHERE session_id = ? AND seq < ? AND kind = '${DIVIDER}' ORDER BY seq DESC LIMIT 1`),
      rowsUpTo: c.prepare('SELECT COUNT(*) AS n FROM memory_messages WHERE session_id = ? AND seq <= ?'),
      renumber: c.prepare(
        'UPDATE memory_messages SET epoch = ?, conversation_index = ? WHERE session_id = ? AND seq = ?',
      ),
      clearSession: c.prepare('DELETE FROM memory_messages WHERE session_id = ?'),
      clearSessionState: c.prepare('DELETE FROM memory_sessions WHERE session_id = ?'),
    };
  }

  /** The session's counters as stored (a cached copy: callers change a copy of it, never this object). */
  private state(sessionId: string): Readonly<SessionState> | undefined {
    return (
      this.states.read(sessionId, () => (this.statements.state.get(sessionId) as SessionState | undefined) ?? null) ??
      undefined
    );
  }

  /** A copy of the counters to advance and save (the cached row changes only once the save went through). */
  private stateToChange(sessionId: string): SessionState | undefined {
    const state = this.state(sessionId);
    return state ? { ...state } : undefined;
  }

  private saveState(state: SessionState): void {
    this.statements.saveState.run(state);
    this.states.set(state.session_id, state);
  }

  append(sessionId: string, messages: readonly Message[]): Message[] {
    if (messages.length === 0) return [];
    return this.database.write(() => this.appendInTransaction(sessionId, messages));
  }

  /**
   * The rows of `append`, for a caller that already holds a write transaction of its own that rolls back alone
   * (the group commit's savepoint): the transaction `append` would open inside it would be a second savepoint,
   * two statements more for the same outcome.
   */
  appendInTransaction(sessionId: string, messages: readonly Message[]): Message[] {
    if (messages.length === 0) return [];
    if (!this.connection.inTransaction) throw new Error('appendInTransaction needs an open write transaction');
    const now = Date.now();
    const state = this.stateToChange(sessionId) ?? emptyState(sessionId);
    const stored: Message[] = [];
    for (const message of messages) {
      const row = encodeMessage(message, newMessageId(now), now);
      const { seq, conversationIndex } = advanceOnAppend(state, message);
      this.statements.insert.run(
        sessionId,
        seq,
        row.id,
        state.epoch,
        conversationIndex,
        row.turnId,
        row.role,
        row.kind,
        row.content,
        row.timestamp,
        row.extra,
      );
      stored.push(storedMessage(message, row));
    }
    this.saveState(state);
    return stored;
  }

  read(sessionId: string, { from = 0, includeControl = false }: MemoryReadOptions = {}): Message[] {
    const state = this.state(sessionId);
    if (!state) return [];
    const count = state.conversation_count - state.active_conversation_start;
    let startSeq = state.active_seq_start;
    const skipped = Math.min(from, count);
    if (skipped > 0) {
      // The window starts right after the skipped-th active conversation message: one index seek.
      const row = this.statements.seqOfConversation.get(sessionId, state.active_conversation_start + skipped - 1) as {
        seq: number;
      };
      startSeq = row.seq + 1;
    }
    const statement = includeControl ? this.statements.rangeActive : this.statements.rangeConversation;
    return (statement.all(sessionId, startSeq) as MessageRow[]).map(decodeMessage);
  }

  countHistory(sessionId: string): number {
    const state = this.state(sessionId);
    return state ? state.conversation_count - state.active_conversation_start : 0;
  }

  activeStart(sessionId: string): number {
    return this.state(sessionId)?.active_row_start ?? 0;
  }

  /** The divider row just before the active history: one primary-key seek. */
  activeDivider(sessionId: string): Message | undefined {
    const state = this.state(sessionId);
    if (!state || state.active_seq_start === 0) return undefined;
    const row = this.statements.row.get(sessionId, state.active_seq_start - 1) as MessageRow | undefined;
    return row ? decodeMessage(row) : undefined;
  }

  readAll(sessionId: string): Message[] {
    return (this.statements.rangeAll.all(sessionId, 0) as MessageRow[]).map(decodeMessage);
  }

  deleteByTurn(sessionId: string, turnId: string): number {
    return this.database.write(() => {
      const state = this.stateToChange(sessionId);
      if (!state) return 0;
      const seqs = (this.statements.turnSeqs.all(sessionId, turnId) as { seq: number }[]).map((row) => row.seq);
      if (seqs.length === 0) return 0;
      for (const seq of seqs) this.statements.deleteRow.run(sessionId, seq);
      this.sessionSearch.forgetRows(sessionId, seqs);
      this.renumberFrom(state, seqs[0]!, seqs.length);
      return seqs.length;
    });
  }

  supersedeTurns(
    sessionId: string,
    turnIds: readonly string[],
    supersession: Supersession,
  ): { turnId: string; count: number }[] {
    return this.database.write(() => {
      const state = this.stateToChange(sessionId);
      if (!state) return [];
      const marked: { turnId: string; count: number }[] = [];
      let first = Number.POSITIVE_INFINITY;
      for (const turnId of turnIds) {
        const rows = this.statements.turnRows.all(sessionId, turnId) as { seq: number; extra: string | null }[];
        if (rows.length === 0) continue;
        for (const row of rows) {
          this.statements.supersede.run(supersededExtra(row.extra, supersession), sessionId, row.seq);
          first = Math.min(first, row.seq);
        }
        marked.push({ turnId, count: rows.length });
      }
      if (marked.length > 0) this.renumberFrom(state, first, 0);
      return marked;
    });
  }

  /**
   * Recomputes epoch and conversation_index of the rows from `fromSeq` on after a deletion, and the session
   * counters. A rollback deletes the last turn, so the tail is short; deleting an old turn rewrites the rows after it.
   */
  private renumberFrom(state: SessionState, fromSeq: number, deleted: number): void {
    const sessionId = state.session_id;
    const before = this.statements.lastBefore.get(sessionId, fromSeq) as { epoch: number } | undefined;
    const conversationBefore = this.statements.lastConversationBefore.get(sessionId, fromSeq) as
      | { conversation_index: number }
      | undefined;
    const epoch = before?.epoch ?? 0;
    const conversation = conversationBefore ? conversationBefore.conversation_index + 1 : 0;
    const tail = this.statements.tail.all(sessionId, fromSeq) as TailRow[];
    const rowCount = state.row_count - deleted;
    const { changed, dividerSeen } = renumberTail({ state, tail, epoch, conversation, rowCount });
    for (const row of changed) this.statements.renumber.run(row.epoch, row.conversationIndex, sessionId, row.seq);
    if (!dividerSeen && fromSeq < state.active_seq_start) this.findActiveDivider(state, fromSeq);
    this.saveState(state);
  }

  /** The last divider was deleted and none follows: the active history starts after the one before (rare path). */
  private findActiveDivider(state: SessionState, fromSeq: number): void {
    const sessionId = state.session_id;
    const divider = this.statements.lastDividerBefore.get(sessionId, fromSeq) as { seq: number } | undefined;
    if (!divider) {
      startActiveAtBeginning(state);
      return;
    }
    const conversationBefore = this.statements.lastConversationBefore.get(sessionId, divider.seq) as
      | { conversation_index: number }
      | undefined;
    state.active_seq_start = divider.seq + 1;
    state.active_conversation_start = conversationBefore ? conversationBefore.conversation_index + 1 : 0;
    state.active_row_start = (this.statements.rowsUpTo.get(sessionId, divider.seq) as { n: number }).n;
  }

  search(query: string, options: MemorySearchOptions): MemorySearchHit[] {
    return this.sessionSearch.search(query, options);
  }

  /** Deletes the rows of these sessions, or of every session (undefined). */
  delete(sessionIds: readonly string[] | undefined): void {
    this.database.write((connection) => {
      if (sessionIds === undefined) {
        connection.exec('DELETE FROM memory_messages; DELETE FROM memory_sessions;');
        this.sessionSearch.forgetSessions(connection, undefined);
        this.states.clear();
        return;
      }
      for (const sessionId of sessionIds) {
        this.statements.clearSession.run(sessionId);
        this.statements.clearSessionState.run(sessionId);
        this.sessionSearch.forgetSessions(connection, [sessionId]);
        this.states.delete(sessionId);
      }
    });
  }
}
