// Service preferences in SQLite (table service_preferences): one row per (plugin or '' for global, service).
import type { PreferenceSnapshot } from '@aalis/core';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export const PREFERENCE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'service preferences',
    up: `CREATE TABLE service_preferences (
      plugin TEXT NOT NULL,
      service TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (plugin, service)
    ) WITHOUT ROWID`,
  },
];

const GLOBAL = '';

export class PreferenceStore {
  constructor(private readonly database: SqliteDatabase) {
    database.migrate('service-preferences', PREFERENCE_MIGRATIONS);
  }

  load(): PreferenceSnapshot {
    const rows = this.database.statement('SELECT plugin, service, value FROM service_preferences').all() as {
      plugin: string;
      service: string;
      value: string;
    }[];
    const snapshot: PreferenceSnapshot = { global: {}, plugins: {} };
    for (const row of rows) {
      if (row.plugin === GLOBAL) snapshot.global[row.service] = row.value;
      else (snapshot.plugins[row.plugin] ??= {})[row.service] = row.value;
    }
    return snapshot;
  }

  /** Replaces every stored preference with the snapshot, in one transaction. */
  save(snapshot: PreferenceSnapshot): void {
    this.database.write((connection) => {
      connection.prepare('DELETE FROM service_preferences').run();
      const insert = connection.prepare('INSERT INTO service_preferences (plugin, service, value) VALUES (?, ?, ?)');
      for (const [service, value] of Object.entries(snapshot.global)) insert.run(GLOBAL, service, value);
      for (const [plugin, entries] of Object.entries(snapshot.plugins)) {
        for (const [service, value] of Object.entries(entries)) insert.run(plugin, service, value);
      }
    });
  }
}
