// The PostgreSQL side of the memory service: the same tables and bookkeeping as SqliteMemoryStore (per-session
// counters in memory_sessions, conversation_index and epoch per row). Every write locks the session's counter row
// first (an append: by upserting it in its one statement, postgres-append.ts; a deletion: SELECT … FOR UPDATE in
// its transaction), so writes from several processes never share a seq.
import type { MemoryReadOptions, MemorySearchHit, MemorySearchOptions, Supersession } from '@aalis/api-memory';
import type { PostgresDatabase, Queryable } from '@aalis/postgres';
import type { Message } from '@aalis/schema-message';
import {
  COLUMNS,
  DIVIDER,
  renumberTail,
  type SessionState,
  startActiveAtBeginning,
  type TailRow,
} from './memory-session-state.js';
import type { MemoryStore } from './memory-store.js';
import { decodeMessage, type MessageRow } from './message-row.js';
import { appendStatement } from './postgres-append.js';
import { postgresMemoryMigrations } from './postgres-memory-migrations.js';
import { searchPostgres } from './postgres-session-search.js';
import { supersededExtra } from './superseded-extra.js';

const STATE_COLUMNS = `session_id, next_seq, epoch, row_count, conversation_count, active_seq_start,
  active_conversation_start, active_row_start`;

async function one<R>(client: Queryable, sql: string, params: unknown[]): Promise<R | undefined> {
  return (await client.query(sql, params)).rows[0] as R | undefined;
}

async function all<R>(client: Queryable, sql: string, params: unknown[]): Promise<R[]> {
  return (await client.query(sql, params)).rows as R[];
}

export class PostgresMemoryStore implements MemoryStore {
  private constructor(private readonly database: PostgresDatabase) {}

  static async open(database: PostgresDatabase): Promise<PostgresMemoryStore> {
    await database.migrate('memory', postgresMemoryMigrations);
    return new PostgresMemoryStore(database);
  }

  private state(client: Queryable, sessionId: string, lock = false): Promise<SessionState | undefined> {
    return one<SessionState>(
      client,
      `SELECT ${STATE_COLUMNS} FROM memory_sessions WHERE session_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [sessionId],
    );
  }

  private async saveState(client: Queryable, state: SessionState): Promise<void> {
    await client.query(
      `UPDATE memory_sessions SET next_seq = $2, epoch = $3, row_count = $4, conversation_count = $5,
       active_seq_start = $6, active_conversation_start = $7, active_row_start = $8 WHERE session_id = $1`,
      [
        state.session_id,
        state.next_seq,
        state.epoch,
        state.row_count,
        state.conversation_count,
        state.active_seq_start,
        state.active_conversation_start,
        state.active_row_start,
      ],
    );
  }

  async append(sessionId: string, messages: readonly Message[]): Promise<Message[]> {
    if (messages.length === 0) return [];
    const { sql, params, stored } = appendStatement(sessionId, messages, Date.now());
    await this.database.query(sql, params);
    return stored;
  }

  async read(sessionId: string, { from = 0, includeControl = false }: MemoryReadOptions = {}): Promise<Message[]> {
    const pool = this.database.queryable;
    const state = await this.state(pool, sessionId);
    if (!state) return [];
    const count = state.conversation_count - state.active_conversation_start;
    let startSeq = state.active_seq_start;
    const skipped = Math.min(from, count);
    if (skipped > 0) {
      const row = await one<{ seq: number }>(
        pool,
        'SELECT seq FROM memory_messages WHERE session_id = $1 AND conversation_index = $2',
        [sessionId, state.active_conversation_start + skipped - 1],
      );
      startSeq = row!.seq + 1;
    }
    // Superseded rows have no conversation_index either; with the control messages they are left out by name.
    const filter = includeControl ? ' AND superseded = 0' : ' AND conversation_index IS NOT NULL';
    const rows = await all<MessageRow>(
      pool,
      `SELECT ${COLUMNS} FROM memory_messages WHERE session_id = $1 AND seq >= $2${filter} ORDER BY seq`,
      [sessionId, startSeq],
    );
    return rows.map(decodeMessage);
  }

  async countHistory(sessionId: string): Promise<number> {
    const state = await this.state(this.database.queryable, sessionId);
    return state ? state.conversation_count - state.active_conversation_start : 0;
  }

  async activeStart(sessionId: string): Promise<number> {
    return (await this.state(this.database.queryable, sessionId))?.active_row_start ?? 0;
  }

  /** The divider row just before the active history: one primary-key seek. */
  async activeDivider(sessionId: string): Promise<Message | undefined> {
    const state = await this.state(this.database.queryable, sessionId);
    if (!state || state.active_seq_start === 0) return undefined;
    const row = await one<MessageRow>(
      this.database.queryable,
      `SELECT ${COLUMNS} FROM memory_messages WHERE session_id = $1 AND seq = $2`,
      [sessionId, state.active_seq_start - 1],
    );
    return row ? decodeMessage(row) : undefined;
  }

  async readAll(sessionId: string): Promise<Message[]> {
    const rows = await all<MessageRow>(
      this.database.queryable,
      `SELECT ${COLUMNS} FROM memory_messages WHERE session_id = $1 ORDER BY seq`,
      [sessionId],
    );
    return rows.map(decodeMessage);
  }

  async deleteByTurn(sessionId: string, turnId: string): Promise<number> {
    return this.database.transaction(async (client) => {
      const state = await this.state(client, sessionId, true);
      if (!state) return 0;
      const deleted = await all<{ seq: number }>(
        client,
        'DELETE FROM memory_messages WHERE session_id = $1 AND turn_id = $2 RETURNING seq',
        [sessionId, turnId],
      );
      if (deleted.length === 0) return 0;
      const first = Math.min(...deleted.map((row) => row.seq));
      await this.renumberFrom(client, state, first, deleted.length);
      return deleted.length;
    });
  }

  async supersedeTurns(
    sessionId: string,
    turnIds: readonly string[],
    supersession: Supersession,
  ): Promise<{ turnId: string; count: number }[]> {
    return this.database.transaction(async (client) => {
      const state = await this.state(client, sessionId, true);
      if (!state) return [];
      const marked: { turnId: string; count: number }[] = [];
      let first = Number.POSITIVE_INFINITY;
      for (const turnId of turnIds) {
        const rows = await all<{ seq: number; extra: string | null }>(
          client,
          'SELECT seq, extra FROM memory_messages WHERE session_id = $1 AND turn_id = $2 AND superseded = 0 ORDER BY seq',
          [sessionId, turnId],
        );
        if (rows.length === 0) continue;
        for (const row of rows) {
          await client.query(
            `UPDATE memory_messages SET superseded = 1, conversation_index = NULL, extra = $1
             WHERE session_id = $2 AND seq = $3`,
            [supersededExtra(row.extra, supersession), sessionId, row.seq],
          );
          first = Math.min(first, Number(row.seq));
        }
        marked.push({ turnId, count: rows.length });
      }
      if (marked.length > 0) await this.renumberFrom(client, state, first, 0);
      return marked;
    });
  }

  /** As SqliteMemoryStore.renumberFrom: epoch and conversation_index of the rows after a deletion, and the counters. */
  private async renumberFrom(client: Queryable, state: SessionState, fromSeq: number, deleted: number) {
    const sessionId = state.session_id;
    const before = await one<{ epoch: number }>(
      client,
      'SELECT epoch FROM memory_messages WHERE session_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1',
      [sessionId, fromSeq],
    );
    const conversationBefore = await this.lastConversationBefore(client, sessionId, fromSeq);
    const epoch = before?.epoch ?? 0;
    const conversation = conversationBefore === undefined ? 0 : conversationBefore + 1;
    const tail = await all<TailRow>(
      client,
      'SELECT seq, kind, epoch, conversation_index, superseded FROM memory_messages WHERE session_id = $1 AND seq >= $2 ORDER BY seq',
      [sessionId, fromSeq],
    );
    const rowCount = state.row_count - deleted;
    const { changed, dividerSeen } = renumberTail({ state, tail, epoch, conversation, rowCount });
    for (const row of changed) {
      await client.query(
        'UPDATE memory_messages SET epoch = $1, conversation_index = $2 WHERE session_id = $3 AND seq = $4',
        [row.epoch, row.conversationIndex, sessionId, row.seq],
      );
    }
    if (!dividerSeen && fromSeq < state.active_seq_start) await this.findActiveDivider(client, state, fromSeq);
    await this.saveState(client, state);
  }

  private async lastConversationBefore(client: Queryable, sessionId: string, seq: number) {
    const row = await one<{ conversation_index: number }>(
      client,
      `SELECT conversation_index FROM memory_messages WHERE session_id = $1 AND seq < $2
       AND conversation_index IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      [sessionId, seq],
    );
    return row?.conversation_index;
  }

  private async findActiveDivider(client: Queryable, state: SessionState, fromSeq: number): Promise<void> {
    const sessionId = state.session_id;
    const divider = await one<{ seq: number }>(
      client,
      `SELECT seq FROM memory_messages WHERE session_id = $1 AND seq < $2 AND kind = '${DIVIDER}'
       ORDER BY seq DESC LIMIT 1`,
      [sessionId, fromSeq],
    );
    if (!divider) {
      startActiveAtBeginning(state);
      return;
    }
    const conversationBefore = await this.lastConversationBefore(client, sessionId, divider.seq);
    state.active_seq_start = divider.seq + 1;
    state.active_conversation_start = conversationBefore === undefined ? 0 : conversationBefore + 1;
    const rows = await one<{ n: number }>(
      client,
      'SELECT COUNT(*)::int AS n FROM memory_messages WHERE session_id = $1 AND seq <= $2',
      [sessionId, divider.seq],
    );
    state.active_row_start = rows?.n ?? 0;
  }

  search(query: string, options: MemorySearchOptions): Promise<MemorySearchHit[]> {
    return searchPostgres(this.database, query, options);
  }

  async delete(sessionIds: readonly string[] | undefined): Promise<void> {
    await this.database.transaction(async (client) => {
      if (sessionIds === undefined) {
        await client.query('DELETE FROM memory_messages');
        await client.query('DELETE FROM memory_sessions');
        await client.query('DELETE FROM memory_search_marks');
        return;
      }
      await client.query('DELETE FROM memory_messages WHERE session_id = ANY($1)', [sessionIds]);
      await client.query('DELETE FROM memory_sessions WHERE session_id = ANY($1)', [sessionIds]);
      await client.query('DELETE FROM memory_search_marks WHERE session_id = ANY($1)', [sessionIds]);
    });
  }
}
