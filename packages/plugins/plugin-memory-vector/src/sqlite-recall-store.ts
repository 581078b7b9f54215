// The recall store on SQLite: entries in a plain table, their terms in a contentless FTS5 table whose second
// column holds scope tokens, so a query ranks (BM25) only what its scope may see, and whose third holds the terms of
// the words said just before (found by a turn's recall at a lower weight, never by a plain search); the rarest query
// terms are chosen from the index's own document counts before the query runs (fewer, more telling terms: faster
// and better), kept in memory between recalls (document-counts.ts).
import { createHash } from 'node:crypto';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import { fts5AnyOf } from '@aalis/util-text-search';
import { chooseTerms } from './choose-terms.js';
import { contentHash } from './content-hash.js';
import { DocumentCounts } from './document-counts.js';
import { EntryTerms } from './entry-terms.js';
import {
  CONTEXT_WEIGHT,
  contextText,
  embeddedText,
  RECALL_NAMESPACE,
  type RecallEntry,
  type RecallHit,
  type RecallScope,
  type RecallStore,
} from './recall-store.js';
import { SqliteVectors } from './sqlite-vectors.js';

/** The full-text index: an entry's own terms, its scope tokens, the terms of the words said just before it. */
const FTS_TABLE = `CREATE VIRTUAL TABLE recall_fts USING fts5(terms, scope, context, content='', contentless_delete=1,
    detail=full, tokenize='unicode61 remove_diacritics 0');
  CREATE VIRTUAL TABLE recall_vocab USING fts5vocab(recall_fts, 'col');`;

export const SQLITE_RECALL_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'recall entries and their full-text index',
    up: `CREATE TABLE recall_entries (
      seq INTEGER PRIMARY KEY,
      message_id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      audience TEXT NOT NULL,
      person TEXT,
      speaker TEXT,
      role TEXT NOT NULL,
      turn_id TEXT,
      at INTEGER NOT NULL,
      text TEXT NOT NULL
    );
    CREATE INDEX recall_entries_session ON recall_entries(session_id, at, seq);
    CREATE INDEX recall_entries_turn ON recall_entries(session_id, turn_id);
    CREATE VIRTUAL TABLE recall_fts USING fts5(terms, scope, content='', contentless_delete=1, detail=full,
      tokenize='unicode61 remove_diacritics 0');
    CREATE VIRTUAL TABLE recall_vocab USING fts5vocab(recall_fts, 'row');
    CREATE TABLE recall_marks (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    version: 2,
    name: 'dense vectors: which entries have one, and the cache by content hash',
    // The vectors themselves live in a vec0 table made when an embedding model is first set (its dimension is
    // part of its definition): sqlite-vectors.ts.
    up: `ALTER TABLE recall_entries ADD COLUMN embedded INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE recall_vector_cache (hash TEXT PRIMARY KEY, vector BLOB NOT NULL);`,
  },
  {
    version: 3,
    name: 'full-text index with the words said before each entry (a column of their own)',
    // A contentless table cannot take a column: it is made again, and the entries stored so far are listed to be
    // indexed again in the background after start (backfill below): re-tokenising a million of them here held the
    // start for half an hour.
    up: `DROP TABLE recall_vocab; DROP TABLE recall_fts;
      ${FTS_TABLE}
      CREATE TABLE recall_unindexed (seq INTEGER PRIMARY KEY);
      INSERT INTO recall_unindexed (seq) SELECT seq FROM recall_entries;`,
  },
];

const COLUMNS = 'message_id, session_id, audience, person, speaker, role, turn_id, at, text';

/**
 * One side of the neighbours of each anchor (@ids, a JSON array of message ids): the `limit` entries of its session
 * nearest to it in (at, seq) order. Row values, not `at < ? OR (at = ? AND seq < ?)`: with the OR the session index
 * gave no range, and every lookup walked the session from its end (2.3 ms of CPU for ten in a 3,000-entry session,
 * 0.25 ms now for the ten in one statement).
 */
const aroundSide = (side: '<' | '>', order: 'ASC' | 'DESC', limit: '@before' | '@after') =>
  `SELECT anchor.message_id AS anchor_id, ${COLUMNS.split(', ')
    .map((column) => `near.${column} AS ${column}`)
    .join(', ')}, near.seq AS seq
   FROM recall_entries AS anchor JOIN recall_entries AS near ON near.seq IN (
     SELECT r.seq FROM recall_entries AS r WHERE r.session_id = anchor.session_id AND (r.at, r.seq) ${side} (anchor.at, anchor.seq)
     ORDER BY r.at ${order}, r.seq ${order} LIMIT ${limit})
   WHERE anchor.message_id IN (SELECT value FROM json_each(@ids))`;
const AROUND = `${aroundSide('<', 'DESC', '@before')} UNION ALL ${aroundSide('>', 'ASC', '@after')}
  ORDER BY anchor_id, at, seq`;

interface Row {
  message_id: string;
  session_id: string;
  audience: string;
  person: string | null;
  speaker: string | null;
  role: string;
  turn_id: string | null;
  at: number;
  text: string;
}

export function fromRow(row: Row): RecallEntry {
  return {
    messageId: row.message_id,
    sessionId: row.session_id,
    audience: row.audience,
    ...(row.person === null ? {} : { person: row.person }),
    ...(row.speaker === null ? {} : { speaker: row.speaker }),
    role: row.role === 'assistant' ? 'assistant' : 'user',
    ...(row.turn_id === null ? {} : { turnId: row.turn_id }),
    at: Number(row.at),
    text: row.text,
  };
}

/**
 * Scope tokens of recent keys, one map per kind: every entry needs two or three, hashing them was a twentieth of
 * indexing, and a key joined to its kind would be a new string to hash on every lookup.
 */
const scopeTokenCache = { s: new Map<string, string>(), a: new Map<string, string>(), p: new Map<string, string>() };
const MAX_CACHED_SCOPE_TOKENS = 20_000;

/** A scope key as one FTS token: letters and digits only, never a word anyone writes. */
function scopeToken(kind: 's' | 'a' | 'p', key: string): string {
  const cache = scopeTokenCache[kind];
  let token = cache.get(key);
  if (token === undefined) {
    token = `zz${kind}${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
    if (cache.size >= MAX_CACHED_SCOPE_TOKENS) cache.clear();
    cache.set(key, token);
  }
  return token;
}

function scopeTokens(entry: RecallEntry): string {
  const tokens = [scopeToken('s', entry.sessionId), scopeToken('a', entry.audience)];
  if (entry.person !== undefined) tokens.push(scopeToken('p', entry.person));
  return tokens.join(' ');
}

function scopeMatch(scope: RecallScope): string {
  return fts5AnyOf([
    scopeToken('s', scope.sessionId),
    ...scope.audiences.map((audience) => scopeToken('a', audience)),
    ...scope.persons.map((person) => scopeToken('p', person)),
  ]);
}

export function sqliteRecallStore(database: SqliteDatabase): RecallStore {
  database.migrate(RECALL_NAMESPACE, SQLITE_RECALL_MIGRATIONS);
  let total = (database.statement('SELECT count(*) AS n FROM recall_entries').get() as { n: number }).n;
  // How many entries hold a term: fts5vocab reads the term's whole list (for a common term at a million entries up
  // to a few hundred milliseconds), so each count is read once and kept exact (document-counts.ts). Counted in the
  // entries' own terms: context repeats the words of the entry before.
  const vocabulary = database.statement("SELECT doc FROM recall_vocab WHERE term = ? AND col = 'terms'");
  const documentCounts = new DocumentCounts(
    database,
    (term) => (vocabulary.get(term) as { doc: number } | undefined)?.doc ?? 0,
  );
  const vectors = new SqliteVectors(database);
  const tokeniser = new EntryTerms();
  /** Entries still to be backfilled, once counted. */
  let unindexed: number | undefined;
  const removeWhere = (where: string, params: unknown[]): number =>
    database.write((connection) => {
      const rows = connection
        .prepare(`SELECT seq, speaker, text FROM recall_entries WHERE ${where}`)
        .all(...params) as { seq: number; speaker: string | null; text: string }[];
      const deleteFts = connection.prepare('DELETE FROM recall_fts WHERE rowid = ?');
      const deleteEntry = connection.prepare('DELETE FROM recall_entries WHERE seq = ?');
      const deleteUnindexed = connection.prepare('DELETE FROM recall_unindexed WHERE seq = ?');
      for (const { seq } of rows) {
        deleteFts.run(seq);
        deleteEntry.run(seq);
        if (deleteUnindexed.run(seq).changes > 0 && unindexed !== undefined) unindexed -= 1;
      }
      // Forgotten means gone from every index: the vector and its cached copy too.
      vectors.remove(
        rows.map((row) => row.seq),
        rows.map((row) => contentHash(embeddedText({ speaker: row.speaker ?? undefined, text: row.text }))),
      );
      if (rows.length > 0) documentCounts.removed();
      total -= rows.length;
      return rows.length;
    });
  const toHits = (found: readonly { seq: number; similarity: number }[]): RecallHit[] => {
    const lookup = database.statement(`SELECT ${COLUMNS} FROM recall_entries WHERE seq = ?`);
    return found.flatMap(({ seq, similarity }) => {
      const row = lookup.get(seq) as Row | undefined;
      return row ? [{ ...fromRow(row), score: similarity }] : [];
    });
  };
  return {
    async add(entries) {
      if (entries.length === 0) return 0;
      // Tokenising is the costly part: done before the write lock is taken.
      const prepared = entries.map((entry) => {
        const { terms, context } = tokeniser.of(entry);
        return { entry, terms, scope: scopeTokens(entry), context: context.join(' ') };
      });
      const added = database.write(() => {
        const insert = database.statement(
          `INSERT INTO recall_entries (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(message_id) DO NOTHING`,
        );
        const insertFts = database.statement(
          'INSERT INTO recall_fts (rowid, terms, scope, context) VALUES (?, ?, ?, ?)',
        );
        let count = 0;
        for (const { entry, terms, scope, context } of prepared) {
          const result = insert.run(
            entry.messageId,
            entry.sessionId,
            entry.audience,
            entry.person ?? null,
            entry.speaker ?? null,
            entry.role,
            entry.turnId ?? null,
            entry.at,
            entry.text,
          );
          if (result.changes === 0) continue;
          insertFts.run(result.lastInsertRowid, terms.join(' '), scope, context);
          documentCounts.added(terms);
          count += 1;
        }
        return count;
      });
      total += added;
      return added;
    },
    async search({ terms, scope, limit, context = false }) {
      if (terms.length === 0 || limit <= 0) return [];
      const chosen = chooseTerms(terms, documentCounts.of(terms, total), total);
      if (chosen.length === 0) return [];
      const columns = context ? '{terms context}' : 'terms';
      const match = `${columns} : (${fts5AnyOf(chosen)}) AND scope : (${scopeMatch(scope)})`;
      const rows = database
        .statement(
          `SELECT ${COLUMNS}, hits.rank AS rank FROM (
             SELECT rowid, bm25(recall_fts, 1.0, 0.0, ${CONTEXT_WEIGHT}) AS rank FROM recall_fts WHERE recall_fts MATCH ?
             ORDER BY rank LIMIT ?
           ) AS hits JOIN recall_entries ON recall_entries.seq = hits.rowid ORDER BY hits.rank`,
        )
        .all(match, limit) as (Row & { rank: number })[];
      return rows.map((row): RecallHit => ({ ...fromRow(row), score: -row.rank }));
    },
    async around(messageIds, before, after) {
      const found = new Map<string, RecallEntry[]>();
      if (messageIds.length === 0) return found;
      const rows = database.statement(AROUND).all({
        ids: JSON.stringify(messageIds),
        before: Math.max(0, before),
        after: Math.max(0, after),
      }) as (Row & { anchor_id: string })[];
      for (const row of rows) {
        const entries = found.get(row.anchor_id);
        if (entries) entries.push(fromRow(row));
        else found.set(row.anchor_id, [fromRow(row)]);
      }
      return found;
    },
    async get(messageIds) {
      const lookup = database.statement(`SELECT ${COLUMNS} FROM recall_entries WHERE message_id = ?`);
      return messageIds.flatMap((id) => {
        const row = lookup.get(id) as Row | undefined;
        return row ? [fromRow(row)] : [];
      });
    },
    async deleteSessions(sessionIds) {
      if (sessionIds === undefined) return removeWhere('1 = 1', []);
      let removed = 0;
      for (const id of sessionIds) removed += removeWhere('session_id = ?', [id]);
      return removed;
    },
    async deleteTurn(sessionId, turnId) {
      return removeWhere('session_id = ? AND turn_id = ?', [sessionId, turnId]);
    },
    async deleteMessages(messageIds) {
      let removed = 0;
      for (const id of messageIds) removed += removeWhere('message_id = ?', [id]);
      return removed;
    },
    async count() {
      return total;
    },
    async backfill(limit) {
      // Entries listed by migration 3, oldest first, each with the words said before it in its session.
      return database.write((connection) => {
        const rows = connection
          .prepare(
            `SELECT recall_entries.seq AS seq, ${COLUMNS} FROM recall_unindexed
             JOIN recall_entries ON recall_entries.seq = recall_unindexed.seq ORDER BY recall_unindexed.seq LIMIT ?`,
          )
          .all(limit) as (Row & { seq: number })[];
        if (rows.length === 0) return undefined;
        // Counted once (a count reads the whole list), then kept.
        unindexed ??= (connection.prepare('SELECT count(*) AS n FROM recall_unindexed').get() as { n: number }).n;
        const before = connection.prepare(
          // Row values: with `at < ? OR (at = ? AND …)` the index gave no range (each lookup walked the session).
          `SELECT text FROM recall_entries WHERE session_id = ? AND (at, seq) < (?, ?)
           ORDER BY at DESC, seq DESC LIMIT 1`,
        );
        const insert = connection.prepare('INSERT INTO recall_fts (rowid, terms, scope, context) VALUES (?, ?, ?, ?)');
        const done = connection.prepare('DELETE FROM recall_unindexed WHERE seq = ?');
        for (const row of rows) {
          const entry = fromRow(row);
          const previous = before.get(row.session_id, row.at, row.seq) as { text: string } | undefined;
          const { terms, context } = tokeniser.of(
            previous === undefined ? entry : { ...entry, context: contextText(previous.text) },
          );
          insert.run(row.seq, terms.join(' '), scopeTokens(entry), context.join(' '));
          documentCounts.added(terms);
          done.run(row.seq);
        }
        unindexed = Math.max(0, (unindexed ?? 0) - rows.length);
        return { indexed: rows.length, left: unindexed };
      });
    },
    async vectorModel() {
      return vectors.current();
    },
    async resetVectors(model) {
      vectors.reset(model);
    },
    async unembedded(after, limit) {
      const rows = database
        .statement(
          'SELECT seq, message_id, speaker, text FROM recall_entries WHERE seq > ? AND embedded = 0 ORDER BY seq LIMIT ?',
        )
        .all(after, limit) as { seq: number; message_id: string; speaker: string | null; text: string }[];
      return rows.map((row) => ({
        position: row.seq,
        messageId: row.message_id,
        text: embeddedText({ speaker: row.speaker ?? undefined, text: row.text }),
      }));
    },
    async addVectors(list) {
      const model = vectors.current();
      if (!model || list.length === 0) return 0;
      return database.write((connection) => {
        const find = connection.prepare(
          'SELECT seq, audience, person, session_id, embedded FROM recall_entries WHERE message_id = ?',
        );
        const markEmbedded = connection.prepare('UPDATE recall_entries SET embedded = 1 WHERE seq = ?');
        let stored = 0;
        for (const { messageId, hash, vector } of list) {
          if (vector.length !== model.dimensions) continue;
          vectors.cache(hash, vector);
          const row = find.get(messageId) as
            | { seq: number; audience: string; person: string | null; session_id: string; embedded: number }
            | undefined;
          if (!row || row.embedded === 1) continue;
          vectors.insert(row.seq, vector, { audience: row.audience, person: row.person, session: row.session_id });
          markEmbedded.run(row.seq);
          stored += 1;
        }
        return stored;
      });
    },
    async cachedVectors(hashes) {
      return vectors.cached(hashes);
    },
    async nearest({ vector, scope, limit }) {
      return toHits(vectors.nearest(vector, scope, limit));
    },
    async vectorCount() {
      return vectors.count();
    },
    async mark(key) {
      return (
        database.statement('SELECT value FROM recall_marks WHERE key = ?').get(key) as { value: string } | undefined
      )?.value;
    },
    async setMark(key, value) {
      database.write((connection) =>
        connection
          .prepare(
            'INSERT INTO recall_marks (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          )
          .run(key, value),
      );
    },
  };
}
