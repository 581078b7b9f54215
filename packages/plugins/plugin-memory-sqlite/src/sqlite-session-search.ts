// Session search on SQLite (docs/decisions/session-search.md): an FTS5 index of what people and she wrote, filled by
// the searches themselves from each session's mark on (at most INDEX_BATCH_ROWS rows per search, so appends cost
// what they did), kept in step with rollbacks and clears by the store.
import type { MemorySearchHit, MemorySearchOptions } from '@aalis/api-memory';
import type { Connection, SqliteDatabase } from '@aalis/sqlite';
import { indexText } from '@aalis/util-text-search';
import { COLUMNS } from './memory-session-state.js';
import { decodeMessage, type MessageRow } from './message-row.js';
import {
  clampLimit,
  INDEX_BATCH_ROWS,
  likePattern,
  MAX_SEARCH_SESSIONS,
  searchableText,
  searchPlan,
} from './search-text.js';

const M_COLUMNS = COLUMNS.split(', ')
  .map((column) => `m.${column}`)
  .join(', ');

export class SqliteSessionSearch {
  private readonly statements;

  constructor(
    private readonly database: SqliteDatabase,
    connection: Connection,
  ) {
    const c = connection;
    this.statements = {
      pending: c.prepare(`SELECT s.session_id AS session_id, coalesce(k.seq, -1) AS mark FROM memory_sessions s
        LEFT JOIN memory_search_marks k ON k.session_id = s.session_id WHERE s.next_seq - 1 > coalesce(k.seq, -1)`),
      rowsAfter: c.prepare(`SELECT seq, role, kind, content, extra FROM memory_messages
        WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`),
      addRow: c.prepare('INSERT INTO memory_search_rows (session_id, seq) VALUES (?, ?)'),
      addTerms: c.prepare('INSERT INTO memory_search (rowid, terms) VALUES (?, ?)'),
      mark: c.prepare(`INSERT INTO memory_search_marks (session_id, seq) VALUES (?, ?)
        ON CONFLICT (session_id) DO UPDATE SET seq = excluded.seq`),
      rowOf: c.prepare('SELECT id FROM memory_search_rows WHERE session_id = ? AND seq = ?'),
      dropTerms: c.prepare('DELETE FROM memory_search WHERE rowid = ?'),
      dropRow: c.prepare('DELETE FROM memory_search_rows WHERE id = ?'),
      sessionRows: c.prepare('SELECT id FROM memory_search_rows WHERE session_id = ?'),
      dropSessionRows: c.prepare('DELETE FROM memory_search_rows WHERE session_id = ?'),
      dropMark: c.prepare('DELETE FROM memory_search_marks WHERE session_id = ?'),
    };
  }

  /** Indexes what was appended since each session's mark, at most INDEX_BATCH_ROWS rows. */
  private catchUp(): void {
    const pending = this.statements.pending.all() as { session_id: string; mark: number }[];
    if (pending.length === 0) return;
    this.database.write(() => {
      let budget = INDEX_BATCH_ROWS;
      for (const { session_id: sessionId, mark } of pending) {
        if (budget <= 0) break;
        const rows = this.statements.rowsAfter.all(sessionId, mark, budget) as (Omit<MessageRow, 'id' | 'timestamp'> & {
          seq: number;
        })[];
        budget -= rows.length;
        for (const row of rows) {
          const text = searchableText(row);
          const terms = text === undefined ? '' : indexText(text);
          if (terms === '') continue;
          const id = Number(this.statements.addRow.run(sessionId, row.seq).lastInsertRowid);
          this.statements.addTerms.run(id, terms);
        }
        const last = rows.at(-1);
        if (last) this.statements.mark.run(sessionId, last.seq);
      }
    });
  }

  search(query: string, options: MemorySearchOptions): MemorySearchHit[] {
    const plan = searchPlan(query);
    if (!plan) return [];
    this.catchUp();
    const limit = clampLimit(options.limit);
    const scope: string[] = [];
    const params: unknown[] = [];
    const column = 'terms' in plan ? 'r.session_id' : 'm.session_id';
    if (options.sessionIds !== undefined) {
      scope.push(`${column} IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(options.sessionIds.slice(0, MAX_SEARCH_SESSIONS)));
    }
    if (options.sessionPrefix !== undefined) {
      scope.push(`substr(${column}, 1, ?) = ?`);
      params.push(options.sessionPrefix.length, options.sessionPrefix);
    }
    const where = scope.map((condition) => ` AND ${condition}`).join('');
    let rows: (MessageRow & { session_id: string })[];
    if ('terms' in plan) {
      const match = plan.terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ');
      rows = this.database
        .statement(
          `SELECT r.session_id AS session_id, ${M_COLUMNS} FROM memory_search f
           JOIN memory_search_rows r ON r.id = f.rowid
           JOIN memory_messages m ON m.session_id = r.session_id AND m.seq = r.seq
           WHERE memory_search MATCH ?${where} ORDER BY f.rank LIMIT ?`,
        )
        .all(match, ...params, limit) as (MessageRow & { session_id: string })[];
    } else {
      // One Chinese character (or another text with no searchable term): a substring of what was written.
      rows = this.database
        .statement(
          `SELECT m.session_id AS session_id, ${M_COLUMNS} FROM memory_messages m
           WHERE m.content LIKE ? ESCAPE '\\' AND (m.role IN ('user', 'assistant')
             OR m.kind = 'command-reply')${where} ORDER BY m.timestamp DESC LIMIT ?`,
        )
        .all(likePattern(plan.substring), ...params, limit) as (MessageRow & { session_id: string })[];
      rows = rows.filter((row) => searchableText(row) !== undefined);
    }
    return rows.map((row) => ({ sessionId: row.session_id, message: decodeMessage(row) }));
  }

  /** The index entries of deleted rows (inside the deleting transaction). */
  forgetRows(sessionId: string, seqs: readonly number[]): void {
    for (const seq of seqs) {
      const row = this.statements.rowOf.get(sessionId, seq) as { id: number } | undefined;
      if (!row) continue;
      this.statements.dropTerms.run(row.id);
      this.statements.dropRow.run(row.id);
    }
  }

  /** The index entries of cleared sessions, or of all (inside the clearing transaction). */
  forgetSessions(connection: Connection, sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) {
      connection.exec(
        "INSERT INTO memory_search (memory_search) VALUES ('delete-all'); DELETE FROM memory_search_rows; DELETE FROM memory_search_marks;",
      );
      return;
    }
    for (const sessionId of sessionIds) {
      for (const { id } of this.statements.sessionRows.all(sessionId) as { id: number }[]) {
        this.statements.dropTerms.run(id);
      }
      this.statements.dropSessionRows.run(sessionId);
      this.statements.dropMark.run(sessionId);
    }
  }
}
