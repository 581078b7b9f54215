// Routes the console's model, platform and persona requests (owner-only; run-request has checked the account).
import type { ConsoleModelsRequests } from '@aalis/session-client';
import { personasAdminDelete, personasAdminGet, personasAdminList, personasAdminSave } from './personas-requests.js';
import { adminPlatforms } from './platforms-request.js';
import { modelsSave, providersDelete, providersList, providersSave } from './providers-requests.js';
import { providersTest } from './providers-test.js';
import type { Routes } from './request-handler.js';

export const CONSOLE_MODELS_ROUTES: Routes<keyof ConsoleModelsRequests> = {
  'admin.providers.list': providersList,
  'admin.providers.test': providersTest,
  'admin.providers.save': providersSave,
  'admin.providers.delete': providersDelete,
  'admin.models.save': modelsSave,
  'admin.platforms': adminPlatforms,
  'admin.personas.list': personasAdminList,
  'admin.personas.get': personasAdminGet,
  'admin.personas.save': personasAdminSave,
  'admin.personas.delete': personasAdminDelete,
};
