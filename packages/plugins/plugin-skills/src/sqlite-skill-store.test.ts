import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { describeSkillStoreConformance } from './skill-store.case.js';
import { sqliteSkillStore } from './sqlite-skill-store.js';

describeSkillStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-skills-'));
  const database = new SqliteDatabase(join(dir, 'aalis.db'));
  return {
    store: sqliteSkillStore(database),
    async dispose() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
