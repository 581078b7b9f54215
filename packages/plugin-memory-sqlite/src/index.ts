// @aalis/plugin-memory-sqlite: the memory service on the storage engine: the data directory's SQLite database or
// PostgreSQL (table namespace 'memory'), with index-backed window reads and clearing through the 'memory:clear' hook chain.
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { storage } from '@aalis/api-storage';
import { definePlugin, events, optional, provide } from '@aalis/core';
import { PostgresMemoryStore } from './postgres-memory-store.js';
import { createSqliteMemory } from './sqlite-memory.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

export { MEMORY_NAMESPACE, memoryMigrations } from './memory-migrations.js';
export type { MemoryStore } from './memory-store.js';
export { PostgresMemoryStore } from './postgres-memory-store.js';
export { createSqliteMemory, type SqliteMemoryOptions } from './sqlite-memory.js';
export { SqliteMemoryStore } from './sqlite-memory-store.js';

export default definePlugin({
  name: '@aalis/plugin-memory-sqlite',
  provides: [memory],
  uses: { storage, hooks: optional(hooks), events, provide },
  async apply({ storage, hooks, events, provide }) {
    const store =
      storage.use.engine === 'postgres'
        ? await PostgresMemoryStore.open(storage.use.postgres())
        : new SqliteMemoryStore(storage.use.database());
    provide.use.service(
      memory,
      createSqliteMemory({ store, events: events.use, hooks: () => (hooks.available ? hooks.use : undefined) }),
    );
  },
});
