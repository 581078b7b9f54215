// Every completed model call (`llm:usage`) as one row, for the usage page: when, which session, platform, account
// and model, the tokens and the cost. In the storage engine's database (SQLite or PostgreSQL, shared by every
// process, each recording the calls it made). Rows older than the longest period asked for are pruned.
import type { StorageService } from '@aalis/api-storage';
import type { UsageGroupBy, UsageRow } from '@aalis/session-client';
import type { SqliteDatabase } from '@aalis/sqlite';

type PostgresDatabase = ReturnType<StorageService['postgres']>;

export interface UsageCall {
  at: number;
  sessionId: string;
  platform: string;
  /** `<platform>:<userId>` of the person the call answered; '' when none (an injection, a room without one). */
  account: string;
  model: string;
  purpose: string;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** In `currency`; undefined when no price was known for the model. */
  cost?: number;
  currency?: string;
}

export interface UsageStore {
  record(call: UsageCall): Promise<void>;
  /**
   * Sums of the calls in [from, to) grouped by `groupBy` (day: by the day of `at + offsetMs`, as YYYY-MM-DD), at
   * most `limit` groups, the largest first (days: in order). `currency`: when calls of one group carried several,
   * the first one's (mixed currencies are the owner's to sort out; the page says which).
   */
  sums(query: {
    from: number;
    to: number;
    groupBy: UsageGroupBy;
    offsetMs: number;
    limit: number;
  }): Promise<UsageRow[]>;
  /** Deletes rows before `before`; returns how many. */
  prune(before: number): Promise<number>;
}

export const USAGE_NAMESPACE = 'session-server-usage';

const TABLE = (bigint: string, real: string) => `CREATE TABLE webui_usage_calls (
  at ${bigint} NOT NULL,
  session_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  account TEXT NOT NULL,
  model TEXT NOT NULL,
  purpose TEXT NOT NULL,
  prompt_tokens ${bigint} NOT NULL,
  completion_tokens ${bigint} NOT NULL,
  cached_tokens ${bigint} NOT NULL,
  cost ${real},
  currency TEXT
);
CREATE INDEX webui_usage_calls_at ON webui_usage_calls (at)`;

const INSERT = `INSERT INTO webui_usage_calls (at, session_id, platform, account, model, purpose, prompt_tokens,
  completion_tokens, cached_tokens, cost, currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const valuesOf = (call: UsageCall) => [
  call.at,
  call.sessionId,
  call.platform,
  call.account,
  call.model,
  call.purpose,
  call.promptTokens,
  call.completionTokens,
  call.cachedPromptTokens,
  call.cost ?? null,
  call.currency ?? null,
];

/** The grouping expression per engine; the day is computed from milliseconds the same way in both. */
function keyOf(groupBy: UsageGroupBy, engine: 'sqlite' | 'postgres'): string {
  switch (groupBy) {
    case 'day':
      return engine === 'sqlite'
        ? "strftime('%Y-%m-%d', (at + ?) / 1000, 'unixepoch')"
        : "to_char(to_timestamp((at + ?) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
    case 'model':
      return 'model';
    case 'account':
      return 'account';
    case 'session':
      return 'session_id';
    case 'platform':
      return 'platform';
  }
}

function sumsSql(groupBy: UsageGroupBy, engine: 'sqlite' | 'postgres'): string {
  const key = keyOf(groupBy, engine);
  const order = groupBy === 'day' ? '1' : 'SUM(prompt_tokens) + SUM(completion_tokens) DESC, 1';
  // The day's offset is a parameter of the key only; other groupings take a dummy one, so the parameters line up.
  const offset = groupBy === 'day' ? '' : ', CAST(? AS BIGINT) AS unused';
  return `SELECT ${key} AS key, COUNT(*) AS calls, SUM(prompt_tokens) AS prompt_tokens,
    SUM(completion_tokens) AS completion_tokens, SUM(cached_tokens) AS cached_tokens,
    COALESCE(SUM(cost), 0) AS cost, SUM(CASE WHEN cost IS NULL THEN 1 ELSE 0 END) AS unpriced,
    MIN(currency) AS currency${offset}
    FROM webui_usage_calls WHERE at >= ? AND at < ? GROUP BY 1 ORDER BY ${order} LIMIT ?`;
}

interface SumRow {
  key: string;
  calls: number | string;
  prompt_tokens: number | string;
  completion_tokens: number | string;
  cached_tokens: number | string;
  cost: number | string;
  unpriced: number | string;
  currency: string | null;
}

function sumOf(row: SumRow): UsageRow {
  const sum: UsageRow = {
    key: row.key,
    calls: Number(row.calls),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedPromptTokens: Number(row.cached_tokens),
    cost: Number(row.cost),
    unpriced: Number(row.unpriced),
  };
  if (row.currency !== null) sum.currency = row.currency;
  return sum;
}

export function sqliteUsageStore(database: SqliteDatabase): UsageStore {
  database.migrate(USAGE_NAMESPACE, [{ version: 1, name: 'usage calls', up: TABLE('INTEGER', 'REAL') }]);
  return {
    async record(call) {
      // Off the turn's path: grouped with the next commit instead of a commit of its own.
      await database.writeSoon((connection) => connection.prepare(INSERT).run(...valuesOf(call)));
    },
    async sums({ from, to, groupBy, offsetMs, limit }) {
      const rows = database.statement(sumsSql(groupBy, 'sqlite')).all(offsetMs, from, to, limit) as SumRow[];
      return rows.map(sumOf);
    },
    async prune(before) {
      return database.write(
        (connection) => connection.prepare('DELETE FROM webui_usage_calls WHERE at < ?').run(before).changes,
      );
    },
  };
}

const numbered = (sql: string) => {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
};

export async function postgresUsageStore(database: PostgresDatabase): Promise<UsageStore> {
  await database.migrate(USAGE_NAMESPACE, [
    { version: 1, name: 'usage calls', up: TABLE('BIGINT', 'DOUBLE PRECISION') },
  ]);
  return {
    async record(call) {
      await database.query(numbered(INSERT), valuesOf(call));
    },
    async sums({ from, to, groupBy, offsetMs, limit }) {
      const rows = await database.query<SumRow>(numbered(sumsSql(groupBy, 'postgres')), [offsetMs, from, to, limit]);
      return rows.map(sumOf);
    },
    async prune(before) {
      const rows = await database.query<{ n: string }>(
        'WITH gone AS (DELETE FROM webui_usage_calls WHERE at < $1 RETURNING 1) SELECT COUNT(*) AS n FROM gone',
        [before],
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}
