// The run-time service preference changes of a deployment in PostgreSQL (aalis_preferences), shared by every process:
// one row per changed preference with the configured value it replaced, written in one transaction that NOTIFYs
// aalis_preferences, so the other processes apply the change without a restart. What a row means (which value wins)
// is the host's to decide (@aalis/runtime's preference-changes); this file only stores and signals.
import type { PostgresDatabase, PostgresMigration } from './postgres-database.js';

export const PREFERENCES_NAMESPACE = 'preferences';
export const PREFERENCES_CHANNEL = 'aalis_preferences';

/** One changed preference. `plugin` '' is the global preference of `service`. */
export interface PreferenceRow {
  plugin: string;
  service: string;
  /** The value set at run time; null = removed at run time. */
  value: string | null;
  /** The configured value it replaced (null = none was configured). */
  over: string | null;
}

/** A write: the row to keep, or `remove` when the preference is back at its configured value. */
export type PreferenceWrite = PreferenceRow | { plugin: string; service: string; remove: true };

/** Which preferences changed on another process ('all': notifications may have been missed, read everything). */
export type PreferencesChanged = readonly { plugin: string; service: string }[] | 'all';

export const PREFERENCES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'run-time service preferences',
    up: `CREATE TABLE aalis_preferences (
      plugin TEXT NOT NULL,
      service TEXT NOT NULL,
      value TEXT,
      over TEXT,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (plugin, service)
    );
    CREATE TABLE aalis_preferences_imports (
      source TEXT PRIMARY KEY,
      rows INTEGER NOT NULL,
      imported_at BIGINT NOT NULL
    )`,
  },
];

/** NOTIFY payloads stay far below PostgreSQL's 8000-byte limit: past this many keys, readers re-read everything. */
const NOTIFY_KEYS_LIMIT = 50;

export class PostgresPreferences {
  /** Tells this store's own notifications from the other processes'. */
  private readonly self = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  private readonly removers: (() => void)[] = [];

  private constructor(private readonly database: PostgresDatabase) {}

  /** Applies the migrations (once per database) and returns the store. */
  static async open(database: PostgresDatabase): Promise<PostgresPreferences> {
    await database.migrate(PREFERENCES_NAMESPACE, PREFERENCES_MIGRATIONS);
    return new PostgresPreferences(database);
  }

  async read(): Promise<PreferenceRow[]> {
    return this.database.query<PreferenceRow>(
      'SELECT plugin, service, value, over FROM aalis_preferences ORDER BY plugin, service',
    );
  }

  /** Upserts and removes in one transaction; the other processes are notified when it commits. */
  async write(writes: readonly PreferenceWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const now = Date.now();
    await this.database.transaction(async (client) => {
      for (const write of writes) {
        if ('remove' in write) {
          await client.query('DELETE FROM aalis_preferences WHERE plugin = $1 AND service = $2', [
            write.plugin,
            write.service,
          ]);
        } else {
          await client.query(
            `INSERT INTO aalis_preferences (plugin, service, value, over, updated_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (plugin, service) DO UPDATE
               SET value = excluded.value, over = excluded.over, updated_at = excluded.updated_at`,
            [write.plugin, write.service, write.value, write.over, now],
          );
        }
      }
      await client.query('SELECT pg_notify($1, $2)', [PREFERENCES_CHANNEL, this.payload(writes)]);
    });
  }

  /**
   * Imports `rows` (a host's former preferences.json) when the database holds no preference change and none was
   * imported before, so the first host to start on PostgreSQL brings its changes and no later start brings them back.
   * Returns whether it imported.
   */
  async importOnce(source: string, rows: readonly PreferenceRow[]): Promise<boolean> {
    if (rows.length === 0) return false;
    return this.database.transaction(async (client) => {
      // Processes starting together: one imports, the others see its rows.
      await client.query('LOCK TABLE aalis_preferences_imports IN EXCLUSIVE MODE');
      const imported = await client.query('SELECT 1 FROM aalis_preferences_imports LIMIT 1');
      const present = await client.query('SELECT 1 FROM aalis_preferences LIMIT 1');
      if (imported.rows.length > 0 || present.rows.length > 0) return false;
      const now = Date.now();
      for (const row of rows) {
        await client.query(
          'INSERT INTO aalis_preferences (plugin, service, value, over, updated_at) VALUES ($1, $2, $3, $4, $5)',
          [row.plugin, row.service, row.value, row.over, now],
        );
      }
      await client.query('INSERT INTO aalis_preferences_imports (source, rows, imported_at) VALUES ($1, $2, $3)', [
        source,
        rows.length,
        now,
      ]);
      await client.query('SELECT pg_notify($1, $2)', [PREFERENCES_CHANNEL, this.payload(rows)]);
      return true;
    });
  }

  /**
   * Calls `fn` when another process wrote preferences, and with 'all' after the listening connection came back
   * (notifications sent meanwhile were missed). Resolves once listening; rejects when it cannot listen.
   */
  async onChanged(fn: (changed: PreferencesChanged) => void): Promise<void> {
    const stopListening = await this.database.listen(PREFERENCES_CHANNEL, (payload) => {
      let parsed: { by?: unknown; keys?: unknown };
      try {
        parsed = JSON.parse(payload) as { by?: unknown; keys?: unknown };
      } catch {
        return; // not ours
      }
      if (parsed.by === this.self) return; // our own write: already applied here
      if (!Array.isArray(parsed.keys)) return fn('all');
      const keys = parsed.keys.filter(
        (key): key is [string, string] =>
          Array.isArray(key) && typeof key[0] === 'string' && typeof key[1] === 'string',
      );
      fn(keys.map(([plugin, service]) => ({ plugin, service })));
    });
    this.removers.push(
      stopListening,
      this.database.onReconnect(() => fn('all')),
    );
  }

  /** Stops listening (the database itself belongs to whoever opened it). */
  close(): void {
    for (const remove of this.removers.splice(0)) remove();
  }

  private payload(writes: readonly { plugin: string; service: string }[]): string {
    const keys = writes.length > NOTIFY_KEYS_LIMIT ? undefined : writes.map((write) => [write.plugin, write.service]);
    const text = JSON.stringify({ by: this.self, ...(keys ? { keys } : {}) });
    // Preference names are short, but a payload past the limit would fail the whole transaction.
    return text.length > 7000 ? JSON.stringify({ by: this.self }) : text;
  }
}
