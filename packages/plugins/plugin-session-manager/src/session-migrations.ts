// Schema of the sessions table (namespace 'session-manager'). Children reference their parent, so a parent row
// cannot be deleted before its children (the deletion order is enforced by the database too).
import type { Migration } from '@aalis/sqlite';

export const SESSION_NAMESPACE = 'session-manager';

export const sessionMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions',
    up: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        platform TEXT NOT NULL,
        venue TEXT,
        parent_id TEXT REFERENCES sessions(id),
        origin_platform TEXT,
        origin_multi_party INTEGER,
        title TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
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
      ALTER TABLE sessions ADD COLUMN pinned_at INTEGER;
      ALTER TABLE sessions ADD COLUMN archived_at INTEGER;
    `,
  },
];
