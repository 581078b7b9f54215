// Schema of the memory tables on PostgreSQL (namespace 'memory'): the same tables, columns and indexes as the
// SQLite schema (memory-migrations.ts), so both engines answer window reads with the same index seeks.
import type { PostgresMigration } from '@aalis/postgres';
import { MESSAGE_INDEXES, SUPERSEDED_MIGRATION } from './memory-migrations.js';

export const postgresMemoryMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'messages and session counters',
    up: `
      CREATE TABLE memory_sessions (
        session_id TEXT PRIMARY KEY,
        next_seq BIGINT NOT NULL,
        epoch INTEGER NOT NULL,
        row_count BIGINT NOT NULL,
        conversation_count BIGINT NOT NULL,
        active_seq_start BIGINT NOT NULL,
        active_conversation_start BIGINT NOT NULL,
        active_row_start BIGINT NOT NULL
      );
      CREATE TABLE memory_messages (
        session_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        id TEXT NOT NULL UNIQUE,
        epoch INTEGER NOT NULL,
        conversation_index BIGINT,
        turn_id TEXT,
        role TEXT NOT NULL,
        kind TEXT,
        content TEXT NOT NULL,
        timestamp BIGINT NOT NULL,
        extra TEXT,
        PRIMARY KEY (session_id, seq)
      );
      ${MESSAGE_INDEXES}
    `,
  },
  SUPERSEDED_MIGRATION,
  {
    version: 3,
    name: 'session search',
    // What people and she wrote, as @aalis/util-text-search's terms (array_to_tsvector: no parser between), filled by
    // searches from each session's mark on, as on SQLite.
    up: `
      ALTER TABLE memory_messages ADD COLUMN search_terms tsvector;
      CREATE INDEX memory_messages_search ON memory_messages USING GIN (search_terms);
      CREATE TABLE memory_search_marks (session_id TEXT PRIMARY KEY, seq BIGINT NOT NULL);
    `,
  },
];
