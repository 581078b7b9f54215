// Session search on PostgreSQL (docs/decisions/session-search.md): each searchable message's terms in a tsvector
// column with a GIN index, filled by the searches themselves from each session's mark on (appends stay one
// statement); every process may catch up, the updates are the same whoever makes them.
import type { MemorySearchHit, MemorySearchOptions } from '@aalis/api-memory';
import type { PostgresDatabase } from '@aalis/postgres';
import { searchTerms } from '@aalis/util-text-search';
import { COLUMNS } from './memory-session-state.js';
import { decodeMessage, type MessageRow } from './message-row.js';
import {
  clampLimit,
  INDEX_BATCH_ROWS,
  likePattern,
  MAX_SEARCH_SESSIONS,
  searchableText,
  searchPlan,
} from './search-text.js';

type Row = MessageRow & { session_id: string };

export async function catchUpPostgres(database: PostgresDatabase): Promise<void> {
  const pending = await database.query<{ session_id: string; mark: string | number }>(
    `SELECT s.session_id, coalesce(k.seq, -1) AS mark FROM memory_sessions s
     LEFT JOIN memory_search_marks k ON k.session_id = s.session_id WHERE s.next_seq - 1 > coalesce(k.seq, -1)`,
  );
  let budget = INDEX_BATCH_ROWS;
  for (const { session_id: sessionId, mark } of pending) {
    if (budget <= 0) break;
    const rows = await database.query<{
      seq: string | number;
      role: string;
      kind: string | null;
      content: string;
      extra: string | null;
    }>(
      `SELECT seq, role, kind, content, extra FROM memory_messages WHERE session_id = $1 AND seq > $2
       ORDER BY seq LIMIT $3`,
      [sessionId, Number(mark), budget],
    );
    budget -= rows.length;
    const terms = rows.flatMap((row) => {
      const text = searchableText(row);
      const words = text === undefined ? [] : [...new Set(searchTerms(text))];
      return words.length > 0 ? [{ seq: Number(row.seq), terms: words }] : [];
    });
    const last = rows.at(-1);
    if (!last) continue;
    await database.transaction(async (client) => {
      if (terms.length > 0) {
        await client.query(
          `UPDATE memory_messages AS m SET search_terms = array_to_tsvector(v.terms)
           FROM json_to_recordset($2::json) AS v(seq bigint, terms text[])
           WHERE m.session_id = $1 AND m.seq = v.seq`,
          [sessionId, JSON.stringify(terms)],
        );
      }
      await client.query(
        `INSERT INTO memory_search_marks (session_id, seq) VALUES ($1, $2)
         ON CONFLICT (session_id) DO UPDATE SET seq = GREATEST(memory_search_marks.seq, excluded.seq)`,
        [sessionId, Number(last.seq)],
      );
    });
  }
}

export async function searchPostgres(
  database: PostgresDatabase,
  query: string,
  options: MemorySearchOptions,
): Promise<MemorySearchHit[]> {
  const plan = searchPlan(query);
  if (!plan) return [];
  await catchUpPostgres(database);
  const limit = clampLimit(options.limit);
  const params: unknown[] = [
    'terms' in plan ? plan.terms.map((term) => `'${term}'`).join(' & ') : likePattern(plan.substring),
  ];
  const scope: string[] = [];
  if (options.sessionIds !== undefined) {
    params.push(options.sessionIds.slice(0, MAX_SEARCH_SESSIONS));
    scope.push(`session_id = ANY($${params.length}::text[])`);
  }
  if (options.sessionPrefix !== undefined) {
    params.push(options.sessionPrefix.length, options.sessionPrefix);
    scope.push(`left(session_id, $${params.length - 1}) = $${params.length}`);
  }
  params.push(limit);
  const where = scope.map((condition) => ` AND ${condition}`).join('');
  const rows =
    'terms' in plan
      ? await database.query<Row>(
          `SELECT session_id, ${COLUMNS} FROM memory_messages, CAST($1 AS tsquery) AS q
           WHERE search_terms @@ q${where} ORDER BY ts_rank(search_terms, q) DESC, seq DESC LIMIT $${params.length}`,
          params,
        )
      : (
          await database.query<Row>(
            `SELECT session_id, ${COLUMNS} FROM memory_messages
             WHERE content LIKE $1 AND (role IN ('user', 'assistant') OR kind = 'command-reply')${where}
             ORDER BY timestamp DESC LIMIT $${params.length}`,
            params,
          )
        ).filter((row) => searchableText(row) !== undefined);
  return rows.map((row) => ({
    sessionId: row.session_id,
    message: decodeMessage({ ...row, timestamp: Number(row.timestamp) }),
  }));
}
