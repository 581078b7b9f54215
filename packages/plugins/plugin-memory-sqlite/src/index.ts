// @aalis/plugin-memory-sqlite: the memory service on the storage engine: the data directory's SQLite database or
// PostgreSQL (table namespace 'memory'), with index-backed window reads and clearing through the 'memory:clear' hook chain.
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { storage } from '@aalis/api-storage';
import { definePlugin, events, lifecycle, optional, provide } from '@aalis/core';
import type { SqliteDatabase } from '@aalis/sqlite';
import { GroupedAppends } from './grouped-appends.js';
import { PostgresMemoryStore } from './postgres-memory-store.js';
import { createSqliteMemory } from './sqlite-memory.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

export { GroupedAppends } from './grouped-appends.js';
export { MEMORY_NAMESPACE, memoryMigrations } from './memory-migrations.js';
export type { MemoryStore } from './memory-store.js';
export { PostgresMemoryStore } from './postgres-memory-store.js';
export { createSqliteMemory, type SqliteMemoryOptions } from './sqlite-memory.js';
export { SqliteMemoryStore } from './sqlite-memory-store.js';

/** The SQLite store with appends of one loop turn committed together (grouped-appends.ts). */
function groupedSqliteStore(database: SqliteDatabase, onDispose: (dispose: () => void) => void): GroupedAppends {
  const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
  // Appends still queued when the plugin goes are committed before the database can close.
  onDispose(() => grouped.flush());
  return grouped;
}

export default definePlugin({
  name: '@aalis/plugin-memory-sqlite',
  provides: [memory],
  uses: { storage, hooks: optional(hooks), events, provide, lifecycle },
  async apply({ storage, hooks, events, provide, lifecycle }) {
    const store =
      storage.use.engine === 'postgres'
        ? await PostgresMemoryStore.open(storage.use.postgres())
        : groupedSqliteStore(storage.use.database(), (dispose) => lifecycle.use.onDispose(dispose));
    provide.use.service(
      memory,
      createSqliteMemory({ store, events: events.use, hooks: () => (hooks.available ? hooks.use : undefined) }),
    );
  },
});
