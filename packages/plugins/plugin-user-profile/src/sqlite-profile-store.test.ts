import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { describeProfileStoreConformance } from './profile-store.case.js';
import { sqliteProfileStore } from './sqlite-profile-store.js';

describeProfileStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-profile-'));
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  return {
    store: sqliteProfileStore(database),
    async dispose() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
