// Schema of the sessions table (namespace 'session-manager'). Children reference their parent, so a parent row
// cannot be deleted before its children (the deletion order is enforced by the database too).
import type { Migration } from '@aalis/sqlite';

export const SESSION_NAMESPACE = 'session-manager';

/**
 * The sessions table's migrations in a dialect: `time` is the integer type of its times; `position` a leading
 * column PostgreSQL adds (a serial standing for SQLite's rowid as the tie-breaker of equal timestamps). One schema
 * for both engines, so a column added to one cannot be forgotten in the other.
 */
export function sessionTableMigrations(time: 'INTEGER' | 'BIGINT', position = '') {
  return [
    {
      version: 1,
      name: 'sessions',
      up: `
      CREATE TABLE sessions (${position}
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        platform TEXT NOT NULL,
        venue TEXT,
        parent_id TEXT REFERENCES sessions(id),
        origin_platform TEXT,
        origin_multi_party INTEGER,
        title TEXT,
        created_at ${time} NOT NULL,
        updated_at ${time} NOT NULL,
        last_turn TEXT
      );
      CREATE INDEX sessions_parent ON sessions(parent_id, created_at);
      CREATE INDEX sessions_platform_venue ON sessions(platform, venue);
      CREATE INDEX sessions_updated ON sessions(updated_at);
    `,
    },
    {
      version: 2,
      name: 'pinned and archived',
      up: `
      ALTER TABLE sessions ADD COLUMN pinned_at ${time};
      ALTER TABLE sessions ADD COLUMN archived_at ${time};
    `,
    },
  ];
}

export const sessionMigrations: readonly Migration[] = sessionTableMigrations('INTEGER');
