// Schema of the memory tables (namespace 'memory'). Rows are clustered by (session_id, seq); each row carries its
// position among the session's conversation messages and the epoch (dividers so far), and memory_sessions keeps
// the running counters, so reading the window after a start index is two index seeks and one range scan.
import type { Migration } from '@aalis/sqlite';

export const MEMORY_NAMESPACE = 'memory';

/** The indexes of memory_messages, the same on both engines (so both answer window reads with the same seeks). */
export const MESSAGE_INDEXES = `CREATE INDEX memory_messages_conversation ON memory_messages (session_id, conversation_index)
        WHERE conversation_index IS NOT NULL;
      CREATE INDEX memory_messages_turn ON memory_messages (session_id, turn_id) WHERE turn_id IS NOT NULL;
      CREATE INDEX memory_messages_dividers ON memory_messages (session_id, seq)
        WHERE kind = 'compression-divider';`;

/** Version 2 on both engines. */
export const SUPERSEDED_MIGRATION = {
  version: 2,
  name: 'superseded messages',
  // 1: an edit, regenerate or retry took the row out of the active history; it stays for the archive.
  up: 'ALTER TABLE memory_messages ADD COLUMN superseded INTEGER NOT NULL DEFAULT 0;',
} as const;

export const memoryMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'messages and session counters',
    up: `
      CREATE TABLE memory_sessions (
        session_id TEXT PRIMARY KEY,
        -- next per-session sequence number (never reused, also after deletions)
        next_seq INTEGER NOT NULL,
        -- number of compression dividers stored so far
        epoch INTEGER NOT NULL,
        -- stored rows, and conversation messages (control kinds excluded), of the whole session
        row_count INTEGER NOT NULL,
        conversation_count INTEGER NOT NULL,
        -- the active history: first seq after the last divider, conversation_index of its first conversation
        -- message, and how many rows precede it
        active_seq_start INTEGER NOT NULL,
        active_conversation_start INTEGER NOT NULL,
        active_row_start INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE memory_messages (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        id TEXT NOT NULL UNIQUE,
        epoch INTEGER NOT NULL,
        -- 0-based position among the session's conversation messages; NULL for control messages
        conversation_index INTEGER,
        turn_id TEXT,
        role TEXT NOT NULL,
        kind TEXT,
        content TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        -- JSON of the remaining fields (toolCalls, metadata, attachments…), NULL when there are none
        extra TEXT,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;

      ${MESSAGE_INDEXES}
    `,
  },
  SUPERSEDED_MIGRATION,
  {
    version: 3,
    name: 'session search',
    // The full-text index of what people and she wrote (search-text.ts), filled by searches themselves from each
    // session's mark on (appends stay as they were): a row id per indexed message, its terms in a contentless FTS5
    // table (@aalis/util-text-search's terms, which unicode61 keeps as they are).
    up: `
      CREATE TABLE memory_search_rows (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX memory_search_rows_message ON memory_search_rows (session_id, seq);
      CREATE VIRTUAL TABLE memory_search USING fts5(terms, content='', contentless_delete=1,
        tokenize='unicode61 remove_diacritics 0');
      CREATE TABLE memory_search_marks (session_id TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
    `,
  },
];
