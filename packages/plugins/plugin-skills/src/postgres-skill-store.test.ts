import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { postgresSkillStore } from './postgres-skill-store.js';
import { describeSkillStoreConformance } from './skill-store.case.js';

describeSkillStoreConformance('postgres', async () => {
  const database = new PostgresDatabase(await throwawayDatabase());
  return {
    store: await postgresSkillStore(database),
    async dispose() {
      await database.close();
    },
  };
});
