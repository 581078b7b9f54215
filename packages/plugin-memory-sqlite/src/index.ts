// @aalis/plugin-memory-sqlite: the memory service on the data directory's SQLite database (table namespace
// 'memory'), with index-backed window reads and clearing through the 'memory:clear' hook chain.
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { storage } from '@aalis/api-storage';
import { definePlugin, events, optional, provide } from '@aalis/core';
import { createSqliteMemory } from './sqlite-memory.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

export { MEMORY_NAMESPACE, memoryMigrations } from './memory-migrations.js';
export { createSqliteMemory, type SqliteMemoryOptions } from './sqlite-memory.js';
export { SqliteMemoryStore } from './sqlite-memory-store.js';

export default definePlugin({
  name: '@aalis/plugin-memory-sqlite',
  provides: [memory],
  uses: { storage, hooks: optional(hooks), events, provide },
  apply({ storage, hooks, events, provide }) {
    const store = new SqliteMemoryStore(storage.use.database());
    provide.use.service(
      memory,
      createSqliteMemory({ store, events: events.use, hooks: () => (hooks.available ? hooks.use : undefined) }),
    );
  },
});
