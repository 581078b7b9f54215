// The sessions table: synchronous reads through prepared statements, writes in BEGIN IMMEDIATE transactions. Rows
// read by id are kept in the connection's row cache (a tool turn read its session's row twice): valid while no other
// connection, other processes included, committed and no write of this one rolled back (RowCache); this store's
// writes put the row they leave in it. Every read hands out a copy.
import type { LastTurn, SessionFilter, SessionInfo } from '@aalis/api-session-manager';
import type { RowCache, SqliteDatabase } from '@aalis/sqlite';
import { SESSION_NAMESPACE, sessionMigrations } from './session-migrations.js';
import { fromRow, type SessionRow, toRow } from './session-row.js';
import { type SessionStore, subtreeDeepestFirst } from './session-store.js';

const COLUMNS =
  'id, kind, platform, venue, parent_id, origin_platform, origin_multi_party, title, created_at, updated_at, last_turn, pinned_at, archived_at';

/** A copy a caller may change without changing the row kept. */
function copyOf(info: SessionInfo): SessionInfo {
  const copy: SessionInfo = { ...info };
  if (info.originChat) copy.originChat = { ...info.originChat };
  if (info.lastTurn) copy.lastTurn = { ...info.lastTurn };
  return copy;
}

export class SqliteSessionStore implements SessionStore {
  /** Rows by id (null: none), shared by every session store on this connection. */
  private readonly rows: RowCache<SessionInfo | null>;

  constructor(private readonly database: SqliteDatabase) {
    database.migrate(SESSION_NAMESPACE, sessionMigrations);
    this.rows = database.rowCache<SessionInfo | null>(SESSION_NAMESPACE);
  }

  private get connection() {
    return this.database.connection;
  }

  get(id: string): SessionInfo | undefined {
    const info = this.rows.read(id, () => {
      const row = this.database.statement(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`).get(id) as
        | SessionRow
        | undefined;
      return row ? fromRow(row) : null;
    });
    return info ? copyOf(info) : undefined;
  }

  /** The row a write of this store left (or none), kept for the next read (inside the write's transaction). */
  private wrote(id: string, row: SessionRow | undefined): SessionInfo | undefined {
    const info = row ? fromRow(row) : undefined;
    this.rows.set(id, info ?? null);
    return info && copyOf(info);
  }

  /** Inserts unless the id exists; returns whether it inserted. */
  insert(info: SessionInfo): boolean {
    const row = toRow(info);
    return this.database.write(() => {
      const inserted =
        this.database
          .statement(
            `INSERT OR IGNORE INTO sessions (${COLUMNS}) VALUES (@id, @kind, @platform, @venue, @parent_id,
             @origin_platform, @origin_multi_party, @title, @created_at, @updated_at, @last_turn, @pinned_at, @archived_at)`,
          )
          .run(row).changes === 1;
      // Read again when needed: an existing row was left as it was.
      this.rows.delete(info.id);
      return inserted;
    });
  }

  save(info: SessionInfo): SessionInfo | undefined {
    const row = toRow(info);
    return this.database.write(() =>
      this.wrote(
        row.id,
        this.database
          .statement(
            `UPDATE sessions SET venue = @venue, origin_platform = @origin_platform,
             origin_multi_party = @origin_multi_party, title = @title, updated_at = @updated_at,
             pinned_at = @pinned_at, archived_at = @archived_at
             WHERE id = @id RETURNING ${COLUMNS}`,
          )
          .get({
            id: row.id,
            venue: row.venue,
            origin_platform: row.origin_platform,
            origin_multi_party: row.origin_multi_party,
            title: row.title,
            updated_at: row.updated_at,
            pinned_at: row.pinned_at,
            archived_at: row.archived_at,
          }) as SessionRow | undefined,
      ),
    );
  }

  saveLastTurn(id: string, lastTurn: LastTurn, updatedAt: number): SessionInfo | undefined {
    return this.database.write(() =>
      this.wrote(
        id,
        this.database
          .statement(`UPDATE sessions SET last_turn = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`)
          .get(JSON.stringify(lastTurn), updatedAt, id) as SessionRow | undefined,
      ),
    );
  }

  list(filter: SessionFilter = {}): SessionInfo[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.kind !== undefined) {
      where.push('kind = ?');
      params.push(filter.kind);
    }
    if (filter.platform !== undefined) {
      where.push('platform = ?');
      params.push(filter.platform);
    }
    if (filter.venue !== undefined) {
      where.push('venue = ?');
      params.push(filter.venue);
    }
    if (filter.parentId === null) where.push('parent_id IS NULL');
    else if (filter.parentId !== undefined) {
      where.push('parent_id = ?');
      params.push(filter.parentId);
    }
    const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 100), 0), 1000);
    const offset = Math.max(Math.trunc(filter.offset ?? 0), 0);
    const sql = `SELECT ${COLUMNS} FROM sessions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?`;
    return (this.connection.prepare(sql).all(...params, limit, offset) as SessionRow[]).map(fromRow);
  }

  children(id: string): SessionInfo[] {
    const rows = this.database
      .statement(`SELECT ${COLUMNS} FROM sessions WHERE parent_id = ? ORDER BY created_at, rowid`)
      .all(id) as SessionRow[];
    return rows.map(fromRow);
  }

  subtreeDeepestFirst(id: string): Promise<SessionInfo[]> {
    return subtreeDeepestFirst(id, this);
  }

  /** Deletes rows in the given order (children before parents) in one transaction. */
  deleteAll(ids: readonly string[]): void {
    this.database.write((connection) => {
      const statement = connection.prepare('DELETE FROM sessions WHERE id = ?');
      for (const id of ids) {
        statement.run(id);
        this.rows.delete(id);
      }
    });
  }
}
