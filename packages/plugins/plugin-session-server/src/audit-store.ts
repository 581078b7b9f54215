// The console's audit log in the storage engine's database (SQLite, or PostgreSQL shared by every process): who made
// which change when, the key, the old and the new value (secrets never stored: the caller marks them, and their
// values are kept as the mask). Bounded: the newest AUDIT_KEEP entries are kept.
import type { StorageService } from '@aalis/api-storage';
import { type AuditEntryView, CONFIG_SECRET_MASK } from '@aalis/session-client';
import type { SqliteDatabase } from '@aalis/sqlite';

type PostgresDatabase = ReturnType<StorageService['postgres']>;

/** Entries kept; older ones are dropped as new ones come. */
export const AUDIT_KEEP = 10_000;
/** A value longer than this (as JSON) is stored cut, with an ellipsis. */
export const AUDIT_VALUE_CHARS = 2000;

/** One change to record: an entry as `admin.audit.list` shows it, before it has its id and time. */
export type AuditRecord = Omit<AuditEntryView, 'id' | 'at'>;

export interface AuditStore {
  append(records: readonly AuditRecord[], at: number): Promise<void>;
  /** Newest first: at most `limit` entries with an id below `before`; `more` when older ones remain. */
  list(options: { limit: number; before?: number }): Promise<{ entries: AuditEntryView[]; more: boolean }>;
}

const TABLE = (id: string) => `CREATE TABLE aalis_audit (
  id ${id},
  at BIGINT NOT NULL,
  actor_platform TEXT NOT NULL,
  actor_user TEXT NOT NULL,
  action TEXT NOT NULL,
  key TEXT NOT NULL,
  old_value TEXT,
  new_value TEXT,
  secret INTEGER NOT NULL
)`;

interface Row {
  id: number | string;
  at: number | string;
  actor_platform: string;
  actor_user: string;
  action: string;
  key: string;
  old_value: string | null;
  new_value: string | null;
  secret: number;
}

const COLUMNS = 'id, at, actor_platform, actor_user, action, key, old_value, new_value, secret';

export function sqliteAuditStore(database: SqliteDatabase): AuditStore {
  database.migrate('audit', [
    { version: 1, name: 'console audit log', up: TABLE('INTEGER PRIMARY KEY AUTOINCREMENT') },
  ]);
  return {
    async append(records, at) {
      database.write((connection) => {
        const insert = connection.prepare(
          'INSERT INTO aalis_audit (at, actor_platform, actor_user, action, key, old_value, new_value, secret) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        );
        for (const record of records) insert.run(at, ...columnsOf(record));
        connection.prepare('DELETE FROM aalis_audit WHERE id <= (SELECT MAX(id) FROM aalis_audit) - ?').run(AUDIT_KEEP);
      });
    },
    async list({ limit, before }) {
      const rows = database
        .statement(`SELECT ${COLUMNS} FROM aalis_audit WHERE id < ? ORDER BY id DESC LIMIT ?`)
        .all(before ?? Number.MAX_SAFE_INTEGER, limit + 1) as Row[];
      return page(rows, limit);
    },
  };
}

export async function postgresAuditStore(database: PostgresDatabase): Promise<AuditStore> {
  await database.migrate('audit', [{ version: 1, name: 'console audit log', up: TABLE('BIGSERIAL PRIMARY KEY') }]);
  return {
    async append(records, at) {
      await database.transaction(async (client) => {
        for (const record of records) {
          await client.query(
            'INSERT INTO aalis_audit (at, actor_platform, actor_user, action, key, old_value, new_value, secret) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [at, ...columnsOf(record)],
          );
        }
        await client.query('DELETE FROM aalis_audit WHERE id <= (SELECT MAX(id) FROM aalis_audit) - $1', [AUDIT_KEEP]);
      });
    },
    async list({ limit, before }) {
      const rows = await database.query<Row & Record<string, unknown>>(
        `SELECT ${COLUMNS} FROM aalis_audit WHERE id < $1 ORDER BY id DESC LIMIT $2`,
        [before ?? Number.MAX_SAFE_INTEGER, limit + 1],
      );
      return page(rows, limit);
    },
  };
}

function columnsOf(record: AuditRecord): [string, string, string, string, string | null, string | null, number] {
  return [
    record.actor.platform,
    record.actor.userId,
    record.action,
    record.key,
    stored(record.old, record.secret),
    stored(record.new, record.secret),
    record.secret ? 1 : 0,
  ];
}

/** A value as stored: JSON, a secret as the mask (never its value), cut past AUDIT_VALUE_CHARS. */
function stored(value: unknown, secret: boolean): string | null {
  if (value === undefined) return null;
  if (secret) return JSON.stringify(CONFIG_SECRET_MASK);
  // A long text is kept as its beginning; a long structure as the beginning of its JSON, as a text.
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  if (text.length > AUDIT_VALUE_CHARS) return JSON.stringify(`${text.slice(0, AUDIT_VALUE_CHARS)}…`);
  return typeof value === 'string' ? JSON.stringify(value) : text;
}

function page(rows: readonly Row[], limit: number): { entries: AuditEntryView[]; more: boolean } {
  return {
    entries: rows.slice(0, limit).map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      actor: { platform: row.actor_platform, userId: row.actor_user },
      action: row.action,
      key: row.key,
      ...(row.old_value === null ? {} : { old: JSON.parse(row.old_value) as unknown }),
      ...(row.new_value === null ? {} : { new: JSON.parse(row.new_value) as unknown }),
      secret: row.secret === 1,
    })),
    more: rows.length > limit,
  };
}
