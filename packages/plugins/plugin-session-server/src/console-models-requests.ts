// Routes the console's model, platform and persona requests (owner-only; run-request has checked the account).
import {
  type Account,
  CONSOLE_MODELS_REQUESTS,
  type ConsoleModelsRequests,
  type RequestType,
  type ResultOf,
} from '@aalis/session-client';
import { personasAdminDelete, personasAdminGet, personasAdminList, personasAdminSave } from './personas-requests.js';
import { adminPlatforms } from './platforms-request.js';
import { modelsSave, providersDelete, providersList, providersSave } from './providers-requests.js';
import { providersTest } from './providers-test.js';
import type { ServerDeps } from './server-deps.js';

export function isConsoleModelsRequest(type: RequestType): type is keyof ConsoleModelsRequests {
  return (CONSOLE_MODELS_REQUESTS as readonly string[]).includes(type);
}

export function consoleModelsRequest<T extends keyof ConsoleModelsRequests>(
  deps: ServerDeps,
  account: Account,
  type: T,
  params: Record<string, unknown>,
): Promise<ResultOf<T>> | ResultOf<T>;
export function consoleModelsRequest(
  deps: ServerDeps,
  account: Account,
  type: keyof ConsoleModelsRequests,
  params: Record<string, unknown>,
): unknown {
  switch (type) {
    case 'admin.providers.list':
      return providersList(deps);
    case 'admin.providers.test':
      return providersTest(deps, params);
    case 'admin.providers.save':
      return providersSave(deps, account, params);
    case 'admin.providers.delete':
      return providersDelete(deps, account, params);
    case 'admin.models.save':
      return modelsSave(deps, account, params);
    case 'admin.platforms':
      return adminPlatforms(deps);
    case 'admin.personas.list':
      return personasAdminList(deps);
    case 'admin.personas.get':
      return personasAdminGet(deps, params);
    case 'admin.personas.save':
      return personasAdminSave(deps, account, params);
    case 'admin.personas.delete':
      return personasAdminDelete(deps, account, params);
  }
}
