// Budget counters in the storage engine's database, shared by every process of a deployment: what was used per
// scope (a person, a room, the deployment) and period (a day or a month), the limits adjusted with /budget, and
// which 80 % warnings were sent (claimed by one INSERT, so the owner is told once whichever process saw it).
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export interface BudgetUsage {
  tokens: number;
  cost: number;
}

export interface BudgetStore {
  /** Adds to each (scope, period) counter in one transaction. */
  add(entries: readonly { scope: string; period: string }[], usage: BudgetUsage): Promise<void>;
  used(scope: string, period: string): Promise<BudgetUsage>;
  /** The limit set with /budget for a scope kind ('person', 'room', 'deployment'); undefined = the configured one. */
  limit(kind: string): Promise<number | undefined>;
  setLimit(kind: string, amount: number | undefined): Promise<void>;
  /** True only for the first caller (any process) claiming this warning. */
  claimWarning(scope: string, period: string): Promise<boolean>;
  /** The scopes starting with `prefix` ('room:', 'person:') in a period, most used (in `by`) first. */
  top(
    prefix: string,
    period: string,
    by: keyof BudgetUsage,
    limit: number,
  ): Promise<(BudgetUsage & { scope: string })[]>;
}

export const BUDGET_NAMESPACE = 'budget';

const tables = (bigint: string, real: string) => `
CREATE TABLE budget_usage (
  scope TEXT NOT NULL,
  period TEXT NOT NULL,
  tokens ${bigint} NOT NULL,
  cost ${real} NOT NULL,
  PRIMARY KEY (scope, period)
);
CREATE TABLE budget_limits (
  kind TEXT PRIMARY KEY,
  amount ${real} NOT NULL
);
CREATE TABLE budget_warnings (
  scope TEXT NOT NULL,
  period TEXT NOT NULL,
  PRIMARY KEY (scope, period)
);`;

const SQLITE: readonly Migration[] = [{ version: 1, name: 'budgets', up: tables('INTEGER', 'REAL') }];
const POSTGRES: readonly PostgresMigration[] = [
  { version: 1, name: 'budgets', up: tables('BIGINT', 'DOUBLE PRECISION') },
];

const ADD = `INSERT INTO budget_usage (scope, period, tokens, cost) VALUES (?, ?, ?, ?)
  ON CONFLICT (scope, period) DO UPDATE SET tokens = budget_usage.tokens + excluded.tokens,
  cost = budget_usage.cost + excluded.cost`;

/** Prefixes are ours ('room:', 'person:'): no LIKE wildcard in them. */
const TOP = (by: keyof BudgetUsage) => `SELECT scope, tokens, cost FROM budget_usage
  WHERE period = ? AND scope LIKE ? ORDER BY ${by === 'cost' ? 'cost' : 'tokens'} DESC, scope LIMIT ?`;

const numbered = (sql: string) => {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
};

export function sqliteBudgetStore(database: SqliteDatabase): BudgetStore {
  database.migrate(BUDGET_NAMESPACE, SQLITE);
  return {
    async add(entries, usage) {
      database.write((connection) => {
        const statement = connection.prepare(ADD);
        for (const { scope, period } of entries) statement.run(scope, period, usage.tokens, usage.cost);
      });
    },
    async used(scope, period) {
      const row = database
        .statement('SELECT tokens, cost FROM budget_usage WHERE scope = ? AND period = ?')
        .get(scope, period) as { tokens: number; cost: number } | undefined;
      return { tokens: row?.tokens ?? 0, cost: row?.cost ?? 0 };
    },
    async limit(kind) {
      const row = database.statement('SELECT amount FROM budget_limits WHERE kind = ?').get(kind) as
        | { amount: number }
        | undefined;
      return row?.amount;
    },
    async setLimit(kind, amount) {
      database.write((connection) => {
        if (amount === undefined) connection.prepare('DELETE FROM budget_limits WHERE kind = ?').run(kind);
        else
          connection
            .prepare(
              'INSERT INTO budget_limits (kind, amount) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET amount = excluded.amount',
            )
            .run(kind, amount);
      });
    },
    async claimWarning(scope, period) {
      return (
        database.write((connection) =>
          connection
            .prepare('INSERT INTO budget_warnings (scope, period) VALUES (?, ?) ON CONFLICT DO NOTHING')
            .run(scope, period),
        ).changes > 0
      );
    },
    async top(prefix, period, by, limit) {
      const rows = database.statement(TOP(by)).all(period, `${prefix}%`, limit) as {
        scope: string;
        tokens: number;
        cost: number;
      }[];
      return rows.map((row) => ({ scope: row.scope, tokens: Number(row.tokens), cost: Number(row.cost) }));
    },
  };
}

export async function postgresBudgetStore(database: PostgresDatabase): Promise<BudgetStore> {
  await database.migrate(BUDGET_NAMESPACE, POSTGRES);
  return {
    async add(entries, usage) {
      await database.transaction(async (client) => {
        for (const { scope, period } of entries) {
          await client.query(numbered(ADD), [scope, period, usage.tokens, usage.cost]);
        }
      });
    },
    async used(scope, period) {
      const rows = await database.query<{ tokens: string; cost: number }>(
        'SELECT tokens, cost FROM budget_usage WHERE scope = $1 AND period = $2',
        [scope, period],
      );
      return { tokens: Number(rows[0]?.tokens ?? 0), cost: Number(rows[0]?.cost ?? 0) };
    },
    async limit(kind) {
      const rows = await database.query<{ amount: number }>('SELECT amount FROM budget_limits WHERE kind = $1', [kind]);
      return rows[0] ? Number(rows[0].amount) : undefined;
    },
    async setLimit(kind, amount) {
      if (amount === undefined) await database.query('DELETE FROM budget_limits WHERE kind = $1', [kind]);
      else
        await database.query(
          'INSERT INTO budget_limits (kind, amount) VALUES ($1, $2) ON CONFLICT (kind) DO UPDATE SET amount = excluded.amount',
          [kind, amount],
        );
    },
    async claimWarning(scope, period) {
      const rows = await database.query(
        'INSERT INTO budget_warnings (scope, period) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING scope',
        [scope, period],
      );
      return rows.length > 0;
    },
    async top(prefix, period, by, limit) {
      const rows = await database.query<{ scope: string; tokens: string; cost: number }>(numbered(TOP(by)), [
        period,
        `${prefix}%`,
        limit,
      ]);
      return rows.map((row) => ({ scope: row.scope, tokens: Number(row.tokens), cost: Number(row.cost) }));
    },
  };
}
