// The sessions table on PostgreSQL: the same columns as on SQLite (session-migrations.ts); a serial `position`
// stands for SQLite's rowid as the tie-breaker of equal timestamps.
import type { SessionFilter, SessionInfo } from '@aalis/api-session-manager';
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { SESSION_NAMESPACE } from './session-migrations.js';
import { fromRow, type SessionRow, toRow } from './session-row.js';
import { type DeletionNotice, type SessionStore, subtreeDeepestFirst } from './session-store.js';

/** The NOTIFY channel of deletions: every process bumps the generations of sessions deleted by another. */
export const SESSIONS_CHANNEL = 'aalis_sessions';
/** NOTIFY payloads must stay under 8000 bytes; a notice's session loses its title rather than the notice. */
const NOTIFY_LIMIT = 7900;

const COLUMNS =
  'id, kind, platform, venue, parent_id, origin_platform, origin_multi_party, title, created_at, updated_at, last_turn';

export const postgresSessionMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'sessions',
    up: `
      CREATE TABLE sessions (
        position BIGSERIAL UNIQUE,
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        platform TEXT NOT NULL,
        venue TEXT,
        parent_id TEXT REFERENCES sessions(id),
        origin_platform TEXT,
        origin_multi_party INTEGER,
        title TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_turn TEXT
      );
      CREATE INDEX sessions_parent ON sessions(parent_id, created_at);
      CREATE INDEX sessions_platform_venue ON sessions(platform, venue);
      CREATE INDEX sessions_updated ON sessions(updated_at);
    `,
  },
];

const VALUES = (row: SessionRow) => [
  row.id,
  row.kind,
  row.platform,
  row.venue,
  row.parent_id,
  row.origin_platform,
  row.origin_multi_party,
  row.title,
  row.created_at,
  row.updated_at,
  row.last_turn,
];

export class PostgresSessionStore implements SessionStore {
  private constructor(private readonly database: PostgresDatabase) {}

  static async open(database: PostgresDatabase): Promise<PostgresSessionStore> {
    await database.migrate(SESSION_NAMESPACE, postgresSessionMigrations);
    return new PostgresSessionStore(database);
  }

  async get(id: string): Promise<SessionInfo | undefined> {
    const rows = await this.database.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async insert(info: SessionInfo): Promise<boolean> {
    const rows = await this.database.query(
      `INSERT INTO sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      VALUES(toRow(info)),
    );
    return rows.length === 1;
  }

  async save(info: SessionInfo): Promise<boolean> {
    const row = toRow(info);
    const rows = await this.database.query(
      `UPDATE sessions SET venue = $2, origin_platform = $3, origin_multi_party = $4, title = $5, updated_at = $6,
       last_turn = $7 WHERE id = $1 RETURNING id`,
      [row.id, row.venue, row.origin_platform, row.origin_multi_party, row.title, row.updated_at, row.last_turn],
    );
    return rows.length === 1;
  }

  async list(filter: SessionFilter = {}): Promise<SessionInfo[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.kind !== undefined) add('kind = ?', filter.kind);
    if (filter.platform !== undefined) add('platform = ?', filter.platform);
    if (filter.venue !== undefined) add('venue = ?', filter.venue);
    if (filter.parentId === null) where.push('parent_id IS NULL');
    else if (filter.parentId !== undefined) add('parent_id = ?', filter.parentId);
    const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 100), 0), 1000);
    const offset = Math.max(Math.trunc(filter.offset ?? 0), 0);
    params.push(limit, offset);
    const sql = `SELECT ${COLUMNS} FROM sessions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY updated_at DESC, position DESC LIMIT $${params.length - 1} OFFSET $${params.length}`;
    return (await this.database.query<SessionRow>(sql, params)).map(fromRow);
  }

  async children(id: string): Promise<SessionInfo[]> {
    const rows = await this.database.query<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE parent_id = $1 ORDER BY created_at, position`,
      [id],
    );
    return rows.map(fromRow);
  }

  subtreeDeepestFirst(id: string): Promise<SessionInfo[]> {
    return subtreeDeepestFirst(
      id,
      (key) => this.get(key),
      (key) => this.children(key),
    );
  }

  async announceDeletion(notice: DeletionNotice): Promise<void> {
    let payload = JSON.stringify(notice);
    if (Buffer.byteLength(payload) > NOTIFY_LIMIT && notice.session) {
      const { title: _title, ...session } = notice.session;
      payload = JSON.stringify({ ...notice, session });
    }
    if (Buffer.byteLength(payload) > NOTIFY_LIMIT) payload = JSON.stringify({ ...notice, reason: undefined });
    await this.database.notify(SESSIONS_CHANNEL, payload);
  }

  watchDeletions(listener: (notice: DeletionNotice) => void): Promise<() => void> {
    return this.database.listen(SESSIONS_CHANNEL, (payload) => {
      let notice: DeletionNotice;
      try {
        notice = JSON.parse(payload) as DeletionNotice;
      } catch {
        return;
      }
      if (typeof notice?.origin === 'string' && typeof notice.rootId === 'string') listener(notice);
    });
  }

  async deleteAll(ids: readonly string[]): Promise<void> {
    await this.database.transaction(async (client) => {
      for (const id of ids) await client.query('DELETE FROM sessions WHERE id = $1', [id]);
    });
  }
}
