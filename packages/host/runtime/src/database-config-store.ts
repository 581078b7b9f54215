// The console's configuration changes on a PostgreSQL deployment: kept in the database every process shares
// (aalis_config), not in one host's file. Each change is a row — a path, its value, and a hash of the value it
// replaced — applied in order over the host's own aalis.config.yaml; a row whose path the file has changed since
// (by hand) no longer applies, so the most recent intent wins, as for run-time preferences
// (docs/decisions/shared-preferences.md). A write NOTIFYs aalis_config and the other processes apply it live.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ConfigPath } from '@aalis/api-host-config';
import { hostConfigErrors } from '@aalis/api-host-config';
import { type Locale, textRef, translate } from '@aalis/core';
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { revisionOf, setInText, valueAt } from './config-document.js';
import type { ConfigStore } from './config-store.js';

export const CONFIG_CHANNEL = 'aalis_config';

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'console configuration changes',
    up: `CREATE TABLE aalis_config (
      id BIGSERIAL PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      value TEXT,
      over TEXT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE TABLE aalis_config_kept (alias TEXT PRIMARY KEY, section TEXT NOT NULL)`,
  },
];

interface Row {
  path: string;
  /** JSON; null = the key removed. */
  value: string | null;
  over: string;
}

/** A hash of the value at a path of a text (what a row replaced). */
function hashOf(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex')
    .slice(0, 20);
}

/** The file's text with the rows applied in order, each only while the text still holds what it replaced. */
export function effectiveText(file: string, rows: readonly Row[]): string {
  let text = file;
  for (const row of rows) {
    const path = JSON.parse(row.path) as string[];
    if (hashOf(valueAt(text, path)) !== row.over) continue;
    text = setInText(text, path, row.value === null ? undefined : (JSON.parse(row.value) as unknown));
  }
  return text;
}

export class DatabaseConfigStore implements ConfigStore {
  readonly source = 'database' as const;
  private last = '';
  private readonly self = `${process.pid}:${Math.random().toString(36).slice(2)}`;

  private constructor(
    private readonly database: PostgresDatabase,
    private readonly file: string,
  ) {}

  /** Migrates and reads the current text once. */
  static async open(database: PostgresDatabase, file: string): Promise<DatabaseConfigStore> {
    await database.migrate('config', MIGRATIONS);
    const store = new DatabaseConfigStore(database, file);
    await store.read();
    return store;
  }

  async read(): Promise<string> {
    const file = existsSync(this.file) ? await readFile(this.file, 'utf8') : '';
    this.last = effectiveText(file, await this.rows(this.database));
    return this.last;
  }

  readSync(): string {
    return this.last;
  }

  async write(_text: string, expectedRevision: string, change?: { path: ConfigPath; value: unknown }): Promise<void> {
    if (!change) throw new Error('a database store writes one change at a time');
    const file = existsSync(this.file) ? readFileSync(this.file, 'utf8') : '';
    const key = JSON.stringify(change.path);
    await this.database.transaction(async (client) => {
      // One writer at a time across processes: the revision check and the write are one step.
      await client.query('LOCK TABLE aalis_config IN EXCLUSIVE MODE');
      const rows = (await client.query('SELECT path, value, over FROM aalis_config ORDER BY id'))
        .rows as unknown as Row[];
      if (revisionOf(effectiveText(file, rows)) !== expectedRevision) {
        throw hostConfigErrors.AALIS_HOST_CONFIG_CHANGED({ source: CONFIG_CHANNEL });
      }
      // The new row supersedes rows at its path and under it; it applies over what the others make of the file.
      const under = (path: string) => path === key || path.startsWith(`${key.slice(0, -1)},`);
      const kept = rows.filter((row) => !under(row.path));
      await client.query('DELETE FROM aalis_config WHERE path = ANY($1::text[])', [
        rows.filter((row) => under(row.path)).map((row) => row.path),
      ]);
      const base = effectiveText(file, kept);
      await client.query('INSERT INTO aalis_config (path, value, over, updated_at) VALUES ($1, $2, $3, $4)', [
        key,
        change.value === undefined ? null : JSON.stringify(change.value),
        hashOf(valueAt(base, change.path)),
        Date.now(),
      ]);
      await client.query('SELECT pg_notify($1, $2)', [CONFIG_CHANNEL, JSON.stringify({ by: this.self })]);
    });
    await this.read();
  }

  describe(locale: Locale): string {
    return translate(textRef('runtime.console.database'), locale);
  }

  async keepSection(alias: string, section: unknown): Promise<void> {
    if (section === undefined) await this.database.query('DELETE FROM aalis_config_kept WHERE alias = $1', [alias]);
    else {
      await this.database.query(
        `INSERT INTO aalis_config_kept (alias, section) VALUES ($1, $2)
         ON CONFLICT (alias) DO UPDATE SET section = excluded.section`,
        [alias, JSON.stringify(section)],
      );
    }
  }

  async keptSection(alias: string): Promise<Record<string, unknown> | undefined> {
    const rows = await this.database.query<{ section: string }>(
      'SELECT section FROM aalis_config_kept WHERE alias = $1',
      [alias],
    );
    return rows[0] ? (JSON.parse(rows[0].section) as Record<string, unknown>) : undefined;
  }

  /**
   * Calls `fn` when another process changed the configuration, and after the listening connection came back.
   * Returns the remover.
   */
  async onChanged(fn: () => void): Promise<() => void> {
    const stop = await this.database.listen(CONFIG_CHANNEL, (payload) => {
      try {
        if ((JSON.parse(payload) as { by?: unknown }).by === this.self) return;
      } catch {
        return;
      }
      fn();
    });
    const reconnected = this.database.onReconnect(fn);
    return () => {
      stop();
      reconnected();
    };
  }

  private async rows(database: Pick<PostgresDatabase, 'query'>): Promise<Row[]> {
    return database.query<Row & Record<string, unknown>>('SELECT path, value, over FROM aalis_config ORDER BY id');
  }
}
