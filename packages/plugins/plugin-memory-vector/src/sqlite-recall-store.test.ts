import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { describeRecallStoreConformance } from './recall-store.case.js';
import { sqliteRecallStore } from './sqlite-recall-store.js';

describeRecallStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-recall-'));
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  return {
    store: sqliteRecallStore(database),
    async dispose() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
