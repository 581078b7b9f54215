// The recall store on PostgreSQL (shared by every process of a deployment): entries with their terms as a tsvector
// built by array_to_tsvector (the shared tokeniser's terms taken as they are, no parser or dictionary between), a
// GIN index, the terms of the words said just before each entry in a tsvector of their own (a turn's recall finds
// by them at a lower weight), and the scope as plain columns.
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { MAX_CHOSEN_TERMS } from './choose-terms.js';
import { contentHash } from './content-hash.js';
import { EntryTerms } from './entry-terms.js';
import {
  CONTEXT_WEIGHT,
  embeddedText,
  RECALL_NAMESPACE,
  type RecallEntry,
  type RecallHit,
  type RecallStore,
  type VectorModel,
} from './recall-store.js';
import { fromRow } from './sqlite-recall-store.js';

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'recall entries and their full-text index',
    up: `CREATE TABLE recall_entries (
      seq BIGSERIAL PRIMARY KEY,
      message_id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      audience TEXT NOT NULL,
      person TEXT,
      speaker TEXT,
      role TEXT NOT NULL,
      turn_id TEXT,
      at BIGINT NOT NULL,
      text TEXT NOT NULL,
      terms TSVECTOR NOT NULL
    );
    CREATE INDEX recall_entries_session ON recall_entries(session_id, at, seq);
    CREATE INDEX recall_entries_turn ON recall_entries(session_id, turn_id);
    CREATE INDEX recall_entries_audience ON recall_entries(audience);
    CREATE INDEX recall_entries_person ON recall_entries(person) WHERE person IS NOT NULL;
    CREATE INDEX recall_entries_terms ON recall_entries USING GIN (terms);
    CREATE TABLE recall_marks (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    version: 2,
    name: 'dense vectors: a float array per entry, and the cache by content hash',
    // Debian's PostgreSQL packages here have no pgvector: the vector is a real[] and the distance is computed in
    // SQL (docs/decisions/embeddings.md has the figures). The partial index finds what still needs a vector.
    up: `ALTER TABLE recall_entries ADD COLUMN embedding REAL[];
    CREATE INDEX recall_entries_unembedded ON recall_entries(seq) WHERE embedding IS NULL;
    CREATE TABLE recall_vector_cache (hash TEXT PRIMARY KEY, vector REAL[] NOT NULL);`,
  },
  {
    version: 3,
    name: 'the terms of the words said before each entry',
    // Entries stored before have none (NULL): they are found by their own words as before.
    up: `ALTER TABLE recall_entries ADD COLUMN context_terms TSVECTOR;
    CREATE INDEX recall_entries_context_terms ON recall_entries USING GIN (context_terms);`,
  },
];

const MODEL_MARK = 'vector-model';

const COLUMNS = 'message_id, session_id, audience, person, speaker, role, turn_id, at, text';

/** A tsquery for any of the terms, each a quoted lexeme (terms are letters and digits only). */
function anyOf(terms: readonly string[]): string {
  return terms.map((term) => `'${term.replaceAll("'", "''")}'`).join(' | ');
}

/** PostgreSQL text cannot hold NUL: it is stored as U+FFFD (the archive keeps the original). */
function storable(value: string): string;
function storable(value: string | undefined): string | null;
function storable(value: string | undefined): string | null {
  return value === undefined ? null : value.replaceAll('\u0000', '\uFFFD');
}

type Row = Parameters<typeof fromRow>[0] & Record<string, unknown>;

/** A vector as PostgreSQL's array literal (exact for float32 values). */
function vectorLiteral(vector: Float32Array): string {
  return `{${Array.from(vector).join(',')}}`;
}

async function readModel(database: PostgresDatabase): Promise<VectorModel | undefined> {
  const rows = await database.query<{ value: string }>('SELECT value FROM recall_marks WHERE key = $1', [MODEL_MARK]);
  return rows[0] ? (JSON.parse(rows[0].value) as VectorModel) : undefined;
}

export async function postgresRecallStore(database: PostgresDatabase): Promise<RecallStore> {
  await database.migrate(RECALL_NAMESPACE, MIGRATIONS);
  // Forgotten means gone from every index: the row holds the vector, and its cached copy goes too.
  const removed = async (sql: string, params: unknown[]): Promise<number> => {
    const rows = await database.query<{ speaker: string | null; text: string }>(
      `${sql} RETURNING speaker, text`,
      params,
    );
    const hashes = rows.map((row) =>
      contentHash(embeddedText({ ...(row.speaker === null ? {} : { speaker: row.speaker }), text: row.text })),
    );
    if (hashes.length > 0) {
      await database.query('DELETE FROM recall_vector_cache WHERE hash = ANY($1::text[])', [hashes]);
    }
    return rows.length;
  };
  let model = await readModel(database);
  const tokeniser = new EntryTerms();
  return {
    async add(entries) {
      if (entries.length === 0) return 0;
      const column = <T>(pick: (entry: RecallEntry) => T) => entries.map(pick);
      const tokenised = entries.map((entry) => tokeniser.of(entry));
      const rows = await database.query<{ n: string }>(
        `WITH added AS (
           INSERT INTO recall_entries (${COLUMNS}, terms, context_terms)
           SELECT m, s, a, p, sp, r, t, at, tx, array_to_tsvector(te), array_to_tsvector(ce)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::bigint[], $9::text[]) WITH ORDINALITY AS v(m, s, a, p, sp, r, t, at, tx, i)
           CROSS JOIN LATERAL (SELECT coalesce(string_to_array(($10::text[])[i], ' '), '{}') AS te,
                                      coalesce(string_to_array(($11::text[])[i], ' '), '{}') AS ce) AS split
           ON CONFLICT (message_id) DO NOTHING RETURNING 1)
         SELECT count(*) AS n FROM added`,
        [
          column((entry) => storable(entry.messageId)),
          column((entry) => storable(entry.sessionId)),
          column((entry) => storable(entry.audience)),
          column((entry) => storable(entry.person)),
          column((entry) => storable(entry.speaker)),
          column((entry) => entry.role),
          column((entry) => storable(entry.turnId)),
          column((entry) => entry.at),
          column((entry) => storable(entry.text)),
          tokenised.map(({ terms }) => [...new Set(terms)].join(' ')),
          tokenised.map(({ context }) => [...new Set(context)].join(' ')),
        ],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async search({ terms, scope, limit, context = false }) {
      if (terms.length === 0 || limit <= 0) return [];
      const found = context ? '(terms @@ q OR context_terms @@ q)' : 'terms @@ q';
      const score = context
        ? `ts_rank(terms, q) + ${CONTEXT_WEIGHT} * coalesce(ts_rank(context_terms, q), 0)`
        : 'ts_rank(terms, q)';
      const rows = await database.query<Row & { score: number }>(
        `SELECT ${COLUMNS}, ${score} AS score
         FROM recall_entries, CAST($1 AS tsquery) AS q
         WHERE ${found} AND (session_id = $2 OR audience = ANY($3::text[]) OR person = ANY($4::text[]))
         ORDER BY score DESC, at DESC LIMIT $5`,
        [anyOf(terms.slice(0, MAX_CHOSEN_TERMS)), scope.sessionId, scope.audiences, scope.persons, limit],
      );
      return rows.map((row): RecallHit => ({ ...fromRow(row), score: Number(row.score) }));
    },
    async around(messageIds, before, after) {
      const found = new Map<string, RecallEntry[]>();
      if (messageIds.length === 0) return found;
      // Each anchor's nearest entries on either side, through the session index, in one statement.
      const near = COLUMNS.split(', ')
        .map((column) => `near.${column}`)
        .join(', ');
      const side = (compare: '<' | '>', order: 'ASC' | 'DESC', limit: '$2' | '$3') =>
        `(SELECT ${COLUMNS}, seq FROM recall_entries AS near
          WHERE near.session_id = anchor.session_id AND (near.at, near.seq) ${compare} (anchor.at, anchor.seq)
          ORDER BY near.at ${order}, near.seq ${order} LIMIT ${limit})`;
      const rows = await database.query<Row & { anchor_id: string }>(
        `SELECT anchor.message_id AS anchor_id, ${near} FROM recall_entries AS anchor
         CROSS JOIN LATERAL (${side('<', 'DESC', '$2')} UNION ALL ${side('>', 'ASC', '$3')}) AS near
         WHERE anchor.message_id = ANY($1::text[])
         ORDER BY anchor.message_id, near.at, near.seq`,
        [messageIds, Math.max(0, before), Math.max(0, after)],
      );
      for (const row of rows) {
        const entries = found.get(row.anchor_id);
        if (entries) entries.push(fromRow(row));
        else found.set(row.anchor_id, [fromRow(row)]);
      }
      return found;
    },
    async get(messageIds) {
      if (messageIds.length === 0) return [];
      const rows = await database.query<Row>(
        `SELECT ${COLUMNS} FROM recall_entries WHERE message_id = ANY($1::text[])`,
        [messageIds],
      );
      const byId = new Map(rows.map((row) => [row.message_id, fromRow(row)]));
      return messageIds.flatMap((id) => {
        const entry = byId.get(id);
        return entry ? [entry] : [];
      });
    },
    async deleteSessions(sessionIds) {
      if (sessionIds === undefined) {
        const rows = await database.query<{ n: string }>(
          'WITH gone AS (DELETE FROM recall_entries RETURNING 1) SELECT count(*) AS n FROM gone',
        );
        await database.query('DELETE FROM recall_vector_cache');
        return Number(rows[0]?.n ?? 0);
      }
      return removed('DELETE FROM recall_entries WHERE session_id = ANY($1::text[])', [sessionIds]);
    },
    async deleteTurn(sessionId, turnId) {
      return removed('DELETE FROM recall_entries WHERE session_id = $1 AND turn_id = $2', [sessionId, turnId]);
    },
    async deleteMessages(messageIds) {
      return removed('DELETE FROM recall_entries WHERE message_id = ANY($1::text[])', [messageIds]);
    },
    async count() {
      return Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM recall_entries'))[0]?.n ?? 0);
    },
    async vectorModel() {
      // Another process may have re-indexed with another model.
      model = await readModel(database);
      return model;
    },
    async resetVectors(next) {
      await database.transaction(async (client) => {
        await client.query('UPDATE recall_entries SET embedding = NULL WHERE embedding IS NOT NULL');
        await client.query('DELETE FROM recall_vector_cache');
        await client.query(
          'INSERT INTO recall_marks (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          [MODEL_MARK, JSON.stringify(next)],
        );
      });
      model = next;
    },
    async unembedded(after, limit) {
      const rows = await database.query<{ seq: string; message_id: string; speaker: string | null; text: string }>(
        'SELECT seq, message_id, speaker, text FROM recall_entries WHERE embedding IS NULL AND seq > $1 ORDER BY seq LIMIT $2',
        [after, limit],
      );
      return rows.map((row) => ({
        position: Number(row.seq),
        messageId: row.message_id,
        text: embeddedText({ ...(row.speaker === null ? {} : { speaker: row.speaker }), text: row.text }),
      }));
    },
    async addVectors(list) {
      const current = model;
      if (!current || list.length === 0) return 0;
      const fitting = list.filter((item) => item.vector.length === current.dimensions);
      if (fitting.length === 0) return 0;
      const literals = fitting.map((item) => vectorLiteral(item.vector));
      await database.query(
        `INSERT INTO recall_vector_cache (hash, vector)
         SELECT h, v::real[] FROM unnest($1::text[], $2::text[]) AS t(h, v) ON CONFLICT (hash) DO NOTHING`,
        [fitting.map((item) => item.hash), literals],
      );
      const rows = await database.query<{ n: string }>(
        `WITH stored AS (
           UPDATE recall_entries SET embedding = t.v::real[]
           FROM unnest($1::text[], $2::text[]) AS t(m, v)
           WHERE recall_entries.message_id = t.m AND recall_entries.embedding IS NULL RETURNING 1)
         SELECT count(*) AS n FROM stored`,
        [fitting.map((item) => storable(item.messageId)), literals],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async cachedVectors(hashes) {
      const found = new Map<string, Float32Array>();
      if (!model || hashes.length === 0) return found;
      const rows = await database.query<{ hash: string; vector: number[] }>(
        'SELECT hash, vector FROM recall_vector_cache WHERE hash = ANY($1::text[])',
        [hashes],
      );
      for (const row of rows) found.set(row.hash, Float32Array.from(row.vector));
      return found;
    },
    async nearest({ vector, scope, limit }) {
      if (!model || vector.length !== model.dimensions || limit <= 0) return [];
      // No vector index without pgvector: the scope's rows are scanned and the dot product (cosine similarity of
      // unit vectors) computed in SQL.
      const rows = await database.query<Row & { score: number }>(
        `SELECT ${COLUMNS}, (SELECT sum(a * b) FROM unnest(embedding, $1::real[]) AS t(a, b)) AS score
         FROM recall_entries
         WHERE embedding IS NOT NULL AND (session_id = $2 OR audience = ANY($3::text[]) OR person = ANY($4::text[]))
         ORDER BY score DESC, at DESC LIMIT $5`,
        [vectorLiteral(vector), scope.sessionId, scope.audiences, scope.persons, limit],
      );
      return rows.map((row): RecallHit => ({ ...fromRow(row), score: Number(row.score) }));
    },
    async vectorCount() {
      return Number(
        (await database.query<{ n: string }>('SELECT count(*) AS n FROM recall_entries WHERE embedding IS NOT NULL'))[0]
          ?.n ?? 0,
      );
    },
    async mark(key) {
      return (await database.query<{ value: string }>('SELECT value FROM recall_marks WHERE key = $1', [key]))[0]
        ?.value;
    },
    async setMark(key, value) {
      await database.query(
        'INSERT INTO recall_marks (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [key, value],
      );
    },
  };
}
