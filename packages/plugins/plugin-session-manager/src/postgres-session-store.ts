// The sessions table on PostgreSQL: the same columns as on SQLite (session-migrations.ts); a serial `position`
// stands for SQLite's rowid as the tie-breaker of equal timestamps. Every update and deletion sends a change notice
// in the same statement or transaction (NOTIFY aalis_sessions), so the other processes' copies of rows stay current.
import type { LastTurn, SessionFilter, SessionInfo } from '@aalis/api-session-manager';
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { SESSION_NAMESPACE, sessionTableMigrations } from './session-migrations.js';
import { fromRow, type SessionRow, toRow } from './session-row.js';
import { type DeletionNotice, type SessionRowChange, type SessionStore, subtreeDeepestFirst } from './session-store.js';

/** The NOTIFY channel of deletions: every process bumps the generations of sessions deleted by another. */
export const SESSIONS_CHANNEL = 'aalis_sessions';
/** NOTIFY payloads must stay under 8000 bytes; a notice's session loses its title rather than the notice. */
const NOTIFY_LIMIT = 7900;

const COLUMNS =
  'id, kind, platform, venue, parent_id, origin_platform, origin_multi_party, title, created_at, updated_at, last_turn, pinned_at, archived_at';

export const postgresSessionMigrations: readonly PostgresMigration[] = sessionTableMigrations(
  'BIGINT',
  '\n        position BIGSERIAL UNIQUE,',
);

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
  row.pinned_at,
  row.archived_at,
];

/** A change notice (on the deletions' channel, told apart by its phase): rows another process must read again. */
interface ChangeNotice {
  origin: string;
  phase: 'changed';
  /** Rows and children lists (by parent id) that changed: a deletion names ids for both. */
  ids?: string[];
  rows?: string[];
  lists?: string[];
}

/**
 * A change notice built by the statement itself from the row it changed (`$<originParameter>`: this store's origin),
 * so the parent's id (whose children list holds the row) is in it without reading the row first.
 */
function noticeSql(originParameter: number, rowsAndLists: { rows?: string; lists: string }): string {
  const rows = rowsAndLists.rows ? `'rows', json_build_array(${rowsAndLists.rows}), ` : '';
  return `json_build_object('origin', $${originParameter}::text, 'phase', 'changed', ${rows}'lists', json_build_array(${rowsAndLists.lists}))::text`;
}

export class PostgresSessionStore implements SessionStore {
  /** Tells this store's change notices from other processes' (it applied its own writes already). */
  private readonly origin = globalThis.crypto.randomUUID();

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
    // A child changes its parent's children list: the parent's id is noticed (nobody holds a row not yet there).
    const rows = await this.database.query(
      `WITH inserted AS (INSERT INTO sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (id) DO NOTHING RETURNING id, parent_id)
       SELECT id, CASE WHEN parent_id IS NOT NULL THEN pg_notify($14, ${noticeSql(15, { lists: 'parent_id' })}) END
       FROM inserted`,
      [...VALUES(toRow(info)), SESSIONS_CHANNEL, this.origin],
    );
    return rows.length === 1;
  }

  async save(info: SessionInfo): Promise<SessionInfo | undefined> {
    const row = toRow(info);
    // One statement: the notice goes out with the update's commit, and only when a row was updated.
    const rows = await this.database.query<SessionRow>(
      `WITH updated AS (UPDATE sessions SET venue = $2, origin_platform = $3, origin_multi_party = $4, title = $5,
       updated_at = $6, pinned_at = $9, archived_at = $10 WHERE id = $1 RETURNING ${COLUMNS})
       SELECT ${COLUMNS}, pg_notify($7, ${noticeSql(8, { rows: 'id', lists: 'parent_id' })}) FROM updated`,
      [
        row.id,
        row.venue,
        row.origin_platform,
        row.origin_multi_party,
        row.title,
        row.updated_at,
        SESSIONS_CHANNEL,
        this.origin,
        row.pinned_at,
        row.archived_at,
      ],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async saveLastTurn(id: string, lastTurn: LastTurn, updatedAt: number): Promise<SessionInfo | undefined> {
    const rows = await this.database.query<SessionRow>(
      `WITH updated AS (UPDATE sessions SET last_turn = $2, updated_at = $3 WHERE id = $1 RETURNING ${COLUMNS})
       SELECT ${COLUMNS}, pg_notify($4, ${noticeSql(5, { rows: 'id', lists: 'parent_id' })}) FROM updated`,
      [id, JSON.stringify(lastTurn), updatedAt, SESSIONS_CHANNEL, this.origin],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
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
    return subtreeDeepestFirst(id, this);
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
      const notice = parse<DeletionNotice>(payload);
      if (notice?.phase !== 'deleting' && notice?.phase !== 'deleted') return;
      if (typeof notice.origin === 'string' && typeof notice.rootId === 'string') listener(notice as DeletionNotice);
    });
  }

  async watchChanges(listener: (change: SessionRowChange) => void): Promise<() => void> {
    const removers = [
      this.database.onListenerLost(() => listener({ kind: 'lost' })),
      this.database.onReconnect(() => listener({ kind: 'watching' })),
      await this.database.listen(SESSIONS_CHANNEL, (payload) => {
        const notice = parse<ChangeNotice>(payload);
        if (notice?.phase !== 'changed' || notice.origin === this.origin) return;
        // A row without a parent sends a null in its parent's place.
        const ids = strings(notice.ids);
        listener({
          kind: 'changed',
          rows: [...ids, ...strings(notice.rows)],
          lists: [...ids, ...strings(notice.lists)],
        });
      }),
    ];
    listener({ kind: 'watching' });
    return () => {
      for (const remove of removers) remove();
    };
  }

  async deleteAll(ids: readonly string[]): Promise<void> {
    await this.database.transaction(async (client) => {
      const changed = new Set(ids);
      for (const id of ids) {
        const deleted = await client.query<{ parent_id: string | null }>(
          'DELETE FROM sessions WHERE id = $1 RETURNING parent_id',
          [id],
        );
        for (const row of deleted.rows) if (row.parent_id !== null) changed.add(row.parent_id);
      }
      // Delivered at commit, after the rows are gone: a copy read from them before can no longer stay.
      for (const notice of this.changeNotices([...changed])) {
        await client.query('SELECT pg_notify($1, $2)', [SESSIONS_CHANNEL, notice]);
      }
    });
  }

  private changeNotice(ids: string[]): string {
    const notice: ChangeNotice = { origin: this.origin, phase: 'changed', ids };
    return JSON.stringify(notice);
  }

  /** The ids in as few notices as fit the payload limit (an id is at most 512 characters). */
  private changeNotices(ids: readonly string[]): string[] {
    const notices: string[] = [];
    let batch: string[] = [];
    let bytes = 0;
    for (const id of ids) {
      const size = Buffer.byteLength(JSON.stringify(id)) + 1;
      if (batch.length > 0 && bytes + size > NOTIFY_LIMIT - 200) {
        notices.push(this.changeNotice(batch));
        batch = [];
        bytes = 0;
      }
      batch.push(id);
      bytes += size;
    }
    if (batch.length > 0) notices.push(this.changeNotice(batch));
    return notices;
  }
}

function parse<T>(payload: string): Partial<T> | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** The strings of a notice's list (a row without a parent sends a null in its parent's place). */
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
