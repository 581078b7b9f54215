// One entry for every request, over the socket and over HTTP: reads the frame, refuses owner-only requests for
// other accounts, runs the handler, and answers a result or a coded error (never a stack trace).
import { type Locale, translate } from '@aalis/core';
import type { RequestType } from '@aalis/session-client';
import { OWNER_REQUESTS, REQUEST_TYPES } from '@aalis/session-client';
import {
  accountLoginRevoke,
  accountLogins,
  accountsCreate,
  accountsDelete,
  accountsList,
  accountsUpdate,
  loginSessionRevoke,
  loginSessionsList,
  passwordSet,
} from './accounts/account-requests.js';
import { adminMcp, adminPlugins, adminPreferencesSet, logsSubscribe, preferencesView } from './admin-requests.js';
import { auditList } from './audit.js';
import { backgroundList, backgroundStop, backgroundStopAll } from './background-requests.js';
import { budgetsGet, budgetsSet, sessionBudget } from './budget-requests.js';
import { clientLocale } from './client-locale.js';
import { commandsListRequest } from './commands-list-request.js';
import { configGet, configSet, pluginSwitch } from './console-config-requests.js';
import { CONSOLE_MODELS_ROUTES } from './console-models-requests.js';
import { logsQuery } from './logs/logs-query.js';
import { MEMORY_ROUTES } from './memory-requests.js';
import { messageSpeech } from './message-speech.js';
import { badParam } from './params.js';
import { PLUGIN_INSTALL_ROUTES } from './plugin-install-requests.js';
import type { Handler, RequestOrigin, Routes } from './request-handler.js';
import { searchRequest } from './search-request.js';
import type { ServerDeps } from './server-deps.js';
import { frameMalformed, serverErrors } from './server-errors.js';
import { sessionEditRequest } from './session-edit-requests.js';
import { exportRequest } from './session-export.js';
import {
  commandRequest,
  createRequest,
  deleteRequest,
  listRequest,
  readRequest,
  sendRequest,
  stopRequest,
  subscribeRequest,
  unsubscribeRequest,
} from './session-requests.js';
import { modelsList, personasList, settingsGet, settingsOptions, settingsWrite } from './settings-requests.js';
import { rollbackRequest } from './turn-requests.js';
import { usageReport } from './usage/usage-report.js';
import { usageGetRequest } from './usage-request.js';
import { WORKFLOW_ROUTES } from './workflow-requests.js';

export type { RequestOrigin };

/** Reads `{ id?, type, ...params }`; throws AALIS_WEBUI_FRAME_MALFORMED / AALIS_WEBUI_UNKNOWN_REQUEST. */
export function readRequestFrame(
  value: unknown,
  needsId: boolean,
  locale: Locale,
): { id?: string; type: RequestType; params: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw frameMalformed('not a JSON object', locale);
  }
  const { id, type, ...params } = value as Record<string, unknown>;
  if (needsId && (typeof id !== 'string' || id === '' || id.length > 64)) throw frameMalformed('id', locale);
  if (typeof type !== 'string') throw frameMalformed('type', locale);
  if (!(REQUEST_TYPES as readonly string[]).includes(type)) {
    throw serverErrors.AALIS_WEBUI_UNKNOWN_REQUEST({ type: type.slice(0, 64), known: REQUEST_TYPES.join(', ') });
  }
  return { ...(typeof id === 'string' ? { id } : {}), type: type as RequestType, params };
}

const ROUTES: Routes<RequestType> = {
  ...CONSOLE_MODELS_ROUTES,
  ...PLUGIN_INSTALL_ROUTES,
  ...MEMORY_ROUTES,
  ...WORKFLOW_ROUTES,
  ping: () => ({ at: Date.now() }),
  'sessions.list': listRequest,
  'session.create': createRequest,
  subscribe: (deps, account, params, { origin }) => subscribeRequest(deps, origin.peer, account, params),
  unsubscribe: (deps, _account, params, { origin }) => unsubscribeRequest(deps, origin.peer, params),
  send: sendRequest,
  stop: stopRequest,
  clear: (deps, account, params) => commandRequest(deps, account, params, 'clear'),
  compact: (deps, account, params) => commandRequest(deps, account, params, 'compact'),
  delete: deleteRequest,
  read: readRequest,
  'settings.get': settingsGet,
  'settings.options': settingsOptions,
  'settings.set': (deps, account, params) => settingsWrite(deps, account, params, 'set'),
  'settings.reset': (deps, account, params) => settingsWrite(deps, account, params, 'reset'),
  'models.list': modelsList,
  'personas.list': personasList,
  'background.list': backgroundList,
  'background.stop': backgroundStop,
  'background.stopAll': backgroundStopAll,
  'turn.edit': (deps, account, params) => rollbackRequest(deps, account, params, 'edit'),
  'turn.regenerate': (deps, account, params) => rollbackRequest(deps, account, params, 'regenerate'),
  'turn.retry': (deps, account, params) => rollbackRequest(deps, account, params, 'retry'),
  'sessions.rename': (deps, account, params, { type }) => sessionEditRequest(deps, account, params, type),
  'sessions.pin': (deps, account, params, { type }) => sessionEditRequest(deps, account, params, type),
  'sessions.archive': (deps, account, params, { type }) => sessionEditRequest(deps, account, params, type),
  search: searchRequest,
  'sessions.export': exportRequest,
  'commands.list': (deps, account) => commandsListRequest(deps, account, deps.locale),
  'locale.set': (_deps, _account, params, { origin, hostLocale }) => {
    const chosen = clientLocale(params.locale, hostLocale);
    if (typeof params.locale !== 'string') badParam('locale.set', 'locale', 'string', params.locale, { max: '35' });
    if (origin.peer) origin.peer.locale = chosen;
    return { locale: chosen };
  },
  'usage.get': usageGetRequest,
  'admin.budgets.get': budgetsGet,
  'admin.budgets.set': budgetsSet,
  'message.speech': messageSpeech,
  'session.budget': sessionBudget,
  'admin.plugins': adminPlugins,
  'admin.config.get': configGet,
  'admin.config.set': configSet,
  'admin.plugins.enable': (deps, account, params) => pluginSwitch(deps, account, params, true),
  'admin.plugins.disable': (deps, account, params) => pluginSwitch(deps, account, params, false),
  'admin.audit.list': auditList,
  'admin.mcp': adminMcp,
  'admin.preferences.get': (deps) => ({ preferences: preferencesView(deps) }),
  'admin.preferences.set': adminPreferencesSet,
  'logs.subscribe': (deps, _account, params, { origin }) => logsSubscribe(deps, origin.peer, params, origin.redact),
  'logs.unsubscribe': (_deps, _account, _params, { origin }) => {
    if (origin.peer) origin.peer.logLevel = undefined;
    return {};
  },
  'logs.query': (deps, _account, params, { origin }) => logsQuery(deps.logArchive, params, origin.redact),
  'admin.accounts.list': accountsList,
  'admin.accounts.create': accountsCreate,
  'admin.accounts.update': accountsUpdate,
  'admin.accounts.delete': accountsDelete,
  'admin.accounts.logins': accountLogins,
  'admin.accounts.logins.revoke': accountLoginRevoke,
  'account.sessions.list': loginSessionsList,
  'account.sessions.revoke': loginSessionRevoke,
  'account.password.set': passwordSet,
  'admin.usage': (deps, _account, params) => usageReport(deps.usageStore, params),
};

/** The handler of one request type (the table's entry, typed by its own type). */
function handlerOf<T extends RequestType>(type: T): Handler<T> {
  return ROUTES[type];
}

export async function runRequest(
  hostDeps: ServerDeps,
  origin: RequestOrigin,
  type: RequestType,
  params: Record<string, unknown>,
): Promise<unknown> {
  const { account, peer } = origin;
  const locale = origin.locale ?? peer?.locale ?? hostDeps.locale;
  // Everything a handler writes (setting labels and notes, refusal reasons, attachment problems) in the connection's
  // locale: the same services, another language.
  const deps: ServerDeps =
    locale === hostDeps.locale ? hostDeps : { ...hostDeps, locale, translate: (text) => translate(text, locale) };
  if ((OWNER_REQUESTS as readonly string[]).includes(type) && !account.owner) {
    throw serverErrors.AALIS_WEBUI_FORBIDDEN({ reason: deps.translate({ key: 'sessionServer.forbidden.owner' }) });
  }
  return handlerOf(type)(deps, account, params, { type, origin, hostLocale: hostDeps.locale });
}
