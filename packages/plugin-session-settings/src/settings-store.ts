// Layer values in SQLite: table `session_settings` (namespace 'session-settings'), one JSON value per
// (layer, target, key).
import type { SettingsLayer } from '@aalis/api-session-settings';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export const SETTINGS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'session settings layers',
    up: `CREATE TABLE session_settings (
      layer TEXT NOT NULL,
      target TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (layer, target, key)
    ) WITHOUT ROWID`,
  },
];

export interface StoredValue {
  layer: SettingsLayer;
  target: string;
  key: string;
  value: unknown;
}

/**
 * Reads go through an in-process copy of each (layer, target) loaded on first use; every write goes through this
 * store and updates the copy after its transaction commits, so the copy never differs from the table.
 */
export class SettingsStore {
  private readonly targets = new Map<string, Map<string, unknown>>();

  constructor(private readonly database: SqliteDatabase) {
    database.migrate('session-settings', SETTINGS_MIGRATIONS);
  }

  /** Every stored value on the given layer targets (optionally of one key). */
  read(targets: readonly { layer: SettingsLayer; target: string }[], key?: string): StoredValue[] {
    const values: StoredValue[] = [];
    for (const { layer, target } of targets) {
      for (const [storedKey, value] of this.valuesOf(layer, target)) {
        if (key !== undefined && key !== storedKey) continue;
        // Callers get their own copy: the cached value must not change behind the table's back.
        values.push({
          layer,
          target,
          key: storedKey,
          value: typeof value === 'object' ? structuredClone(value) : value,
        });
      }
    }
    return values;
  }

  private valuesOf(layer: SettingsLayer, target: string): Map<string, unknown> {
    const id = `${layer}\u0000${target}`;
    let values = this.targets.get(id);
    if (values) return values;
    values = new Map();
    const rows = this.database
      .statement('SELECT key, value FROM session_settings WHERE layer = ? AND target = ?')
      .all(layer, target) as { key: string; value: string }[];
    for (const row of rows) {
      try {
        values.set(row.key, JSON.parse(row.value) as unknown);
      } catch {
        // a hand-edited row that is not JSON is ignored, like a value that no longer fits its field
      }
    }
    this.targets.set(id, values);
    return values;
  }

  write({ layer, target, key, value }: StoredValue): void {
    this.database.write((connection) => {
      connection
        .prepare(
          `INSERT INTO session_settings (layer, target, key, value, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (layer, target, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        )
        .run(layer, target, key, JSON.stringify(value), Date.now());
    });
    this.valuesOf(layer, target).set(key, structuredClone(value));
  }

  /** Deletes one value; returns whether there was one. */
  remove({ layer, target, key }: Omit<StoredValue, 'value'>): boolean {
    const removed = this.database.write(
      (connection) =>
        connection
          .prepare('DELETE FROM session_settings WHERE layer = ? AND target = ? AND key = ?')
          .run(layer, target, key).changes > 0,
    );
    this.valuesOf(layer, target).delete(key);
    return removed;
  }
}
