// For `BENCH_STATEMENTS=1 npm run bench peers`: which SQLite statements a tool turn of Aalis runs (better-sqlite3's
// Statement methods counted by SQL text while some extra rounds run; COMMIT counts the transactions).
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface StatementLike {
  source: string;
}
type Method = (this: StatementLike, ...args: unknown[]) => unknown;

/** Starts counting every statement run in this process; the function returned stops and gives the counts. */
export function countStatements(): () => Map<string, number> {
  // The workspace's better-sqlite3, the one the product loads (resolved from the runtime package).
  const require = createRequire(join(import.meta.dirname, '..', '..', '..', 'host', 'runtime', 'package.json'));
  const Database = require('better-sqlite3') as new (
    path: string,
  ) => {
    prepare(sql: string): object;
    close(): void;
  };
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, Method>;
  probe.close();
  const counts = new Map<string, number>();
  const originals = new Map<string, Method>();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = prototype[name]!;
    originals.set(name, original);
    prototype[name] = function counted(this: StatementLike, ...args: unknown[]) {
      const sql = this.source.replace(/\s+/g, ' ').trim();
      counts.set(sql, (counts.get(sql) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [name, original] of originals) prototype[name] = original;
    return counts;
  };
}

/** The counts per turn, most frequent first, one statement a line (its text cut). */
export function formatStatementCounts(counts: Map<string, number>, turns: number): string {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const commits = counts.get('COMMIT') ?? 0;
  const lines = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([sql, count]) => `  ${(count / turns).toFixed(2).padStart(6)}×  ${sql.slice(0, 110)}`);
  return [
    `SQLite per Aalis tool turn: ${(total / turns).toFixed(2)} statements, ${(commits / turns).toFixed(2)} commits`,
    ...lines,
  ].join('\n');
}
