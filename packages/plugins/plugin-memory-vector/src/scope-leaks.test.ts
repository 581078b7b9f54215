import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { describeScopeLeaks } from './scope-leaks.case.js';

describeScopeLeaks('sqlite', async () => undefined);
describeScopeLeaks('postgres', async () => ({ database: await throwawayDatabase() }));
