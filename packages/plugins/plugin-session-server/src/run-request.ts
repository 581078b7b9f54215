// One entry for every request, over the socket and over HTTP: reads the frame, refuses owner-only requests for
// other accounts, runs the handler, and answers a result or a coded error (never a stack trace).
import { type Locale, translate } from '@aalis/core';
import type { Account, RequestType } from '@aalis/session-client';
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
import { consoleModelsRequest, isConsoleModelsRequest } from './console-models-requests.js';
import { logsQuery } from './logs/logs-query.js';
import { memoryRequest } from './memory-requests.js';
import { messageSpeech } from './message-speech.js';
import { badParam } from './params.js';
import { isPluginInstallRequest, pluginInstallRequest } from './plugin-install-requests.js';
import { searchRequest } from './search-request.js';
import type { Peer, ServerDeps } from './server-deps.js';
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
import { workflowRequest } from './workflow-requests.js';

export interface RequestOrigin {
  account: Account;
  /** The socket, when the request came over one. */
  peer?: Peer;
  redact: (text: string) => string;
  /** The connection's locale (docs/session-protocol.md 「Locale」); the host's when absent. */
  locale?: Locale;
  /** The login the request came with (its key) and the client's address: account.* requests need them. */
  loginKey?: string;
  address?: string;
}

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
  if (isConsoleModelsRequest(type)) return consoleModelsRequest(deps, account, type, params);
  if (isPluginInstallRequest(type)) return pluginInstallRequest(deps, account, type, params);
  switch (type) {
    case 'ping':
      return { at: Date.now() };
    case 'sessions.list':
      return listRequest(deps, account, params);
    case 'session.create':
      return createRequest(deps, account, params);
    case 'subscribe':
      return subscribeRequest(deps, peer, account, params);
    case 'unsubscribe':
      return unsubscribeRequest(deps, peer, params);
    case 'send':
      return sendRequest(deps, account, params);
    case 'stop':
      return stopRequest(deps, account, params);
    case 'clear':
      return commandRequest(deps, account, params, 'clear');
    case 'compact':
      return commandRequest(deps, account, params, 'compact');
    case 'delete':
      return deleteRequest(deps, account, params);
    case 'read':
      return readRequest(deps, account, params);
    case 'settings.get':
      return settingsGet(deps, account, params);
    case 'settings.options':
      return settingsOptions(deps, account, params);
    case 'settings.set':
      return settingsWrite(deps, account, params, 'set');
    case 'settings.reset':
      return settingsWrite(deps, account, params, 'reset');
    case 'models.list':
      return modelsList(deps);
    case 'personas.list':
      return personasList(deps, account, params);
    case 'background.list':
      return backgroundList(deps, account, params);
    case 'background.stop':
      return backgroundStop(deps, account, params);
    case 'background.stopAll':
      return backgroundStopAll(deps, account, params);
    case 'turn.edit':
      return rollbackRequest(deps, account, params, 'edit');
    case 'turn.regenerate':
      return rollbackRequest(deps, account, params, 'regenerate');
    case 'turn.retry':
      return rollbackRequest(deps, account, params, 'retry');
    case 'sessions.rename':
    case 'sessions.pin':
    case 'sessions.archive':
      return sessionEditRequest(deps, account, params, type);
    case 'search':
      return searchRequest(deps, account, params);
    case 'sessions.export':
      return exportRequest(deps, account, params, locale);
    case 'commands.list':
      return commandsListRequest(deps, account, locale);
    case 'locale.set': {
      const chosen = clientLocale(params.locale, hostDeps.locale);
      if (typeof params.locale !== 'string') badParam('locale.set', 'locale', 'string', params.locale, { max: '35' });
      if (peer) peer.locale = chosen;
      return { locale: chosen };
    }
    case 'memory.list':
    case 'memory.search':
    case 'memory.update':
    case 'memory.delete':
      return memoryRequest(deps, account, type, params);
    case 'usage.get':
      return usageGetRequest(deps, account, params);
    case 'admin.budgets.get':
      return budgetsGet(deps, params);
    case 'admin.budgets.set':
      return budgetsSet(deps, account, params);
    case 'message.speech':
      return messageSpeech(deps, account, params);
    case 'session.budget':
      return sessionBudget(deps, account, params);
    case 'admin.plugins':
      return adminPlugins(deps);
    case 'admin.config.get':
      return configGet(deps, params);
    case 'admin.config.set':
      return configSet(deps, account, params);
    case 'admin.plugins.enable':
      return pluginSwitch(deps, account, params, true);
    case 'admin.plugins.disable':
      return pluginSwitch(deps, account, params, false);
    case 'admin.audit.list':
      return auditList(deps, params);
    case 'admin.mcp':
      return adminMcp(deps);
    case 'admin.preferences.get':
      return { preferences: preferencesView(deps) };
    case 'admin.preferences.set':
      return adminPreferencesSet(deps, params);
    case 'logs.subscribe':
      return logsSubscribe(deps, peer, params, origin.redact);
    case 'logs.query':
      return logsQuery(deps.logArchive, params, origin.redact);
    case 'admin.accounts.list':
      return accountsList(deps);
    case 'admin.accounts.create':
      return accountsCreate(deps, account, params);
    case 'admin.accounts.update':
      return accountsUpdate(deps, account, params);
    case 'admin.accounts.delete':
      return accountsDelete(deps, account, params);
    case 'admin.accounts.logins':
      return accountLogins(deps, params);
    case 'admin.accounts.logins.revoke':
      return accountLoginRevoke(deps, account, params);
    case 'account.sessions.list':
      return loginSessionsList(deps, account, peer?.loginKey ?? origin.loginKey);
    case 'account.sessions.revoke':
      return loginSessionRevoke(deps, account, params);
    case 'account.password.set':
      return passwordSet(deps, account, params, origin.address ?? '');
    case 'admin.usage':
      return usageReport(deps.usageStore, params);
    case 'logs.unsubscribe':
      if (peer) peer.logLevel = undefined;
      return {};
    case 'workflows.list':
    case 'workflows.get':
    case 'workflows.validate':
    case 'workflows.save':
    case 'workflows.delete':
    case 'workflows.run':
    case 'runs.list':
    case 'runs.get':
    case 'runs.cancel':
      return workflowRequest(deps, account, type, params);
  }
}
