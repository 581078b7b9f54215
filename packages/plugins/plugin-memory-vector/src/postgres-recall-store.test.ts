import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { postgresRecallStore } from './postgres-recall-store.js';
import { describeRecallStoreConformance } from './recall-store.case.js';

describeRecallStoreConformance('postgres', async () => {
  const database = new PostgresDatabase(await throwawayDatabase());
  return {
    store: await postgresRecallStore(database),
    async dispose() {
      await database.close();
    },
  };
});
