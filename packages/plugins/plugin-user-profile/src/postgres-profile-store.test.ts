import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { postgresProfileStore } from './postgres-profile-store.js';
import { describeProfileStoreConformance } from './profile-store.case.js';

describeProfileStoreConformance('postgres', async () => {
  const database = new PostgresDatabase(await throwawayDatabase());
  return {
    store: await postgresProfileStore(database),
    async dispose() {
      await database.close();
    },
  };
});
