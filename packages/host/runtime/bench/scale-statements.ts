// For `npm run bench scale`: which statements PostgreSQL spent its time on while a run measured (pg_stat_statements,
// loaded by the throwaway server with statementStatistics), per turn.
import type { PostgresDatabase } from '@aalis/postgres';

export interface StatementFigures {
  /** Statements run, BEGIN and COMMIT included. */
  calls: number;
  /** Milliseconds planning and executing them (the backends' CPU also goes to parsing, the protocol and commits). */
  ms: number;
  top: Array<{ calls: number; ms: number; query: string }>;
}

/** The statistics of this database start again from nothing (the view and its reset are the extension's). */
export async function resetStatements(stats: PostgresDatabase): Promise<void> {
  await stats.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await stats.query('SELECT pg_stat_statements_reset()');
}

/** What ran since `resetStatements`, without the benchmark's own sampling queries. */
export async function statementFigures(stats: PostgresDatabase, top = 8): Promise<StatementFigures> {
  const rows = await stats.query<{ calls: string; ms: number; query: string }>(
    `SELECT calls, total_exec_time + total_plan_time AS ms, query FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat%' ORDER BY total_exec_time + total_plan_time DESC`,
  );
  const figures = rows.map((row) => ({
    calls: Number(row.calls),
    ms: Number(row.ms),
    query: row.query.replace(/\s+/g, ' ').trim(),
  }));
  return {
    calls: figures.reduce((sum, row) => sum + row.calls, 0),
    ms: figures.reduce((sum, row) => sum + row.ms, 0),
    top: figures.slice(0, top),
  };
}

/** The figures per turn, one statement a line (its text cut). */
export function formatStatements(figures: StatementFigures, turns: number): string {
  const perTurn = (value: number) => (value / turns).toFixed(2);
  return (
    `    statements per turn: ${perTurn(figures.calls)} (${perTurn(figures.ms)} ms planning and executing); most time:\n` +
    figures.top
      .map((row) => `      ${perTurn(row.calls)}× ${perTurn(row.ms)} ms  ${row.query.slice(0, 110)}`)
      .join('\n')
  );
}
