// Requests a client sends and what each answers (docs/session-protocol.md 「Requests」). The same requests go over
// the socket (`{ id, type, ...params }`) and over HTTP (`POST /api/v1/call` with `{ type, ...params }`).
import { BUDGET_OWNER_REQUESTS, type BudgetRequests } from './budget-types.js';
import type { AccountRequests, LogFilter } from './console-accounts-types.js';
import { CONFIG_REQUESTS, type ConfigRequests } from './console-config-types.js';
import { CONSOLE_MODELS_REQUESTS, type ConsoleModelsRequests } from './console-models-types.js';
import type { LastCallUsage, SessionSummary } from './event-types.js';
import { MEDIA_REQUESTS, type MediaRequests } from './media-types.js';
import { MEMORY_REQUESTS, type MemoryRequests } from './memory-types.js';
import { PLUGIN_INSTALL_REQUESTS, type PluginInstallRequests } from './plugin-install-types.js';
import type { TimelineEntry } from './timeline-types.js';
import type {
  RunDetailView,
  RunView,
  WorkflowProblemView,
  WorkflowSummaryView,
  WorkflowView,
} from './workflow-types.js';

export const PROTOCOL_VERSION = 1;

/**
 * The settings layer a write goes to: this session (default), its venue (an IM group or chat: every session there)
 * or its platform (every session of that platform).
 */
export type WritableLayer = 'session' | 'venue' | 'platform';

export interface Account {
  /** The account id on platform `webui`. */
  userId: string;
  displayName: string;
  owner: boolean;
  /** The authority level (owners: above every level). */
  level: number;
}

export interface Limits {
  /** Most characters of one message's text. */
  maxMessageChars: number;
  /** Most bytes of one attachment (decoded). */
  maxAttachmentBytes: number;
  maxAttachments: number;
  /** Most bytes of one socket frame or HTTP body. */
  maxFrameBytes: number;
}

/** An image sent with a message: base64 bytes (no data: prefix) or a data: URL. */
export interface OutgoingAttachment {
  type: 'image';
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  data: string;
  name?: string;
}

/**
 * A file or voice recording a message carries, of any type: the file reader and the media plugin read it by its
 * content. `data` is base64 or a data: URL.
 */
export interface OutgoingFileAttachment {
  type: 'file' | 'audio';
  mimeType?: string;
  data: string;
  name?: string;
}

export interface SettingOption {
  value: string;
  label: string;
}

/** One session setting as the settings panel draws it. */
export interface SettingView {
  key: string;
  type: 'llm-ref' | 'select' | 'number' | 'boolean' | 'string[]' | 'string';
  label: string;
  description?: string;
  visibility: 'composer' | 'common' | 'advanced';
  /** Level needed to write it: a number or 'owner'. */
  level: number | 'owner';
  /** This account may write it. */
  writable: boolean;
  /** The effective value (llm-ref values as `<provider>/<model>`). */
  value: unknown;
  /** Where it comes from: a layer, the field's default, or unset. */
  source: 'global' | 'platformType' | 'platform' | 'venue' | 'session' | 'default' | 'unset';
  /** The note shown beside the value (e.g. 「跟随服务偏好(此刻:…)」, 「当前模型没有这一档…」), translated. */
  note?: string;
  /** Fixed options of a select. */
  options?: SettingOption[];
  /** Options come from `settings.options`; refetch when one of these keys changes. */
  dynamicOptions?: { dependsOn: string[] };
}

export interface ModelView {
  id: string;
  name: string;
  contextWindow: number;
  maxOutputTokens: number;
  vision: boolean;
  tools: boolean;
  offline: boolean;
}

export interface PluginView {
  id: string;
  name: string;
  state: 'active' | 'pending' | 'error' | 'disabled' | (string & {});
  /** Pending: the services it waits for. */
  missing: string[];
  /** Failed: why (translated). */
  error?: string;
  /** What it is for, one line (the connection's locale). */
  description?: string;
  /** It has a settings form (admin.config.get). */
  configurable?: boolean;
  /** The on/off switch (plugins.<alias>: false turns it off). */
  enabled?: boolean;
  /** It can be turned off from the console. */
  canDisable?: boolean;
  /** Installed from the registry into the deployment: admin.plugins.remove takes it out. */
  removable?: boolean;
}

/** A configured MCP server as the admin area shows it (@aalis/api-mcp's McpServerState). */
export interface McpServerView {
  name: string;
  transport: 'stdio' | 'streamable-http' | 'sse';
  status: 'starting' | 'connected' | 'reconnecting' | 'disabled' | 'invalid' | 'stopped';
  /** The tools it offers now (mcp__<server>__<tool>). */
  tools: string[];
  error?: string;
  restarts: number;
  since: number;
}

export interface LogView {
  time: number;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  name: string;
  message: string;
  fields?: Record<string, unknown>;
}

export interface PreferencesView {
  /** service → provider or item (e.g. llm → openai/gpt-4o-mini). */
  global: Record<string, string>;
  /** plugin instance id → service → value. */
  plugins: Record<string, Record<string, string>>;
  /** The model turns use now when no session sets one. */
  defaultModel?: { id: string; name: string };
}

/** A task that runs on its own for a session (the 「后台」 tab): a subtask or a scheduled task. */
export interface BackgroundTaskView {
  id: string;
  /** 'subtask', 'schedule', or another provider's kind. */
  kind: string;
  sessionId: string;
  title: string;
  status: 'running' | 'scheduled' | 'done' | 'failed' | 'stopped' | 'cancelled';
  createdAt: number;
  endedAt?: number;
  /** A scheduled task's next firing. */
  nextAt?: number;
  tokens?: number;
  cost?: number;
  currency?: string;
  /** The stop button does something now. */
  stoppable: boolean;
  /** A subtask's child session. */
  childSessionId?: string;
  summary?: string;
}

/** How `send` routed the input: into a turn, to a slash command, or nowhere (the gateway let it go). */
export type SendRouting = 'turn' | 'command' | 'dropped';

/** The answer of `turn.edit`, `turn.regenerate` and `turn.retry`. */
export interface RollbackResult {
  /** The new input that runs as the new turn (its `input` event carries it). */
  messageId: string;
  /** The turns taken out of the active history, oldest first. */
  rolledBack: string[];
  rollbackId: string;
}

/** A slash command this account may run (the `/` palette). */
export interface CommandView {
  name: string;
  /** The whole usage line, e.g. `/remind <time> <text>`. */
  usage?: string;
  description: string;
  /** The level needed to run it: a number or 'owner'. */
  level: number | 'owner';
}

/** One message found by `search`. */
export interface SearchHit {
  sessionId: string;
  sessionTitle?: string;
  archived: boolean;
  /** Storage id of the message (TimelineInput.id / TimelineText.id / TimelineCommand.id). */
  messageId: string;
  turnId?: string;
  role: 'user' | 'assistant' | 'system' | 'tool';
  at: number;
  /** At most 160 characters around the first match; the match is between \u0002 and \u0003. */
  snippet: string;
  /** The message belongs to a version replaced by edit / regenerate / retry. */
  superseded: boolean;
}

/** The locales a connection can have. */
export type ClientLocale = 'zh-CN' | 'en';

/** `sessions.export` in JSON: what the `content` string holds. */
export interface SessionExport {
  format: 'aalis-session';
  version: 1;
  session: SessionSummary;
  exportedAt: number;
  timeline: TimelineEntry[];
  messages: unknown[];
}

/** Every request type with its parameters and its result. */
export interface RequestMap
  extends AccountRequests,
    BudgetRequests,
    ConfigRequests,
    ConsoleModelsRequests,
    MediaRequests,
    MemoryRequests,
    PluginInstallRequests {
  ping: { params: Record<string, never>; result: { at: number } };
  'sessions.list': { params: { search?: string; archived?: boolean }; result: { sessions: SessionSummary[] } };
  'session.create': { params: { title?: string }; result: { session: SessionSummary } };
  subscribe: {
    params: { sessionId: string; resume?: { serverId: string; seq: number } };
    /** `resumed`: the missed events were replayed; otherwise a `timeline` frame came first. */
    result: { sessionId: string; seq: number; resumed: boolean };
  };
  unsubscribe: { params: { sessionId: string }; result: Record<string, never> };
  send: {
    params: {
      sessionId: string;
      text: string;
      attachments?: (OutgoingAttachment | OutgoingFileAttachment)[];
      clientMessageId?: string;
    };
    /**
     * `duplicate`: this clientMessageId was sent before; nothing was sent again. `routed`: where the input went;
     * `reply`: a command's answer (Markdown).
     */
    result: { messageId: string; duplicate: boolean; routed: SendRouting; reply?: string };
  };
  stop: { params: { sessionId: string }; result: { stopped: boolean } };
  clear: { params: { sessionId: string }; result: { reply: string } };
  compact: { params: { sessionId: string }; result: { reply: string } };
  delete: { params: { sessionId: string }; result: { deleted: string[] } };
  read: { params: { sessionId: string }; result: Record<string, never> };
  'settings.get': { params: { sessionId: string }; result: { settings: SettingView[] } };
  'settings.options': {
    params: { sessionId: string; key: string; values?: Record<string, unknown> };
    result: { options: SettingOption[] };
  };
  'settings.set': {
    params: { sessionId: string; key: string; value: unknown; layer?: WritableLayer };
    result: { setting: SettingView };
  };
  'settings.reset': {
    params: { sessionId: string; key: string; layer?: WritableLayer };
    result: { setting: SettingView };
  };
  'models.list': { params: Record<string, never>; result: { models: ModelView[]; defaultModel?: string } };
  'personas.list': { params: { sessionId?: string }; result: { personas: SettingOption[] } };
  'admin.plugins': { params: Record<string, never>; result: { plugins: PluginView[] } };
  'admin.mcp': { params: Record<string, never>; result: { servers: McpServerView[] } };
  'admin.preferences.get': { params: Record<string, never>; result: { preferences: PreferencesView } };
  'admin.preferences.set': {
    /** `value` null removes the preference; `plugin` sets a per-plugin preference. */
    params: { service: string; value: string | null; plugin?: string };
    result: { preferences: PreferencesView };
  };
  'background.list': { params: { sessionId: string }; result: { tasks: BackgroundTaskView[] } };
  'background.stop': { params: { sessionId: string; taskId: string }; result: { stopped: boolean } };
  'background.stopAll': { params: { sessionId: string }; result: { stopped: number } };
  'turn.edit': {
    params: { sessionId: string; turnId: string; text: string; clientMessageId?: string };
    result: RollbackResult;
  };
  'turn.regenerate': { params: { sessionId: string; turnId: string }; result: RollbackResult };
  'turn.retry': { params: { sessionId: string; turnId: string }; result: RollbackResult };
  'sessions.rename': { params: { sessionId: string; title: string }; result: { session: SessionSummary } };
  'sessions.pin': { params: { sessionId: string; pinned: boolean }; result: { session: SessionSummary } };
  'sessions.archive': { params: { sessionId: string; archived: boolean }; result: { session: SessionSummary } };
  search: { params: { query: string; limit?: number }; result: { hits: SearchHit[]; truncated: boolean } };
  'sessions.export': {
    params: { sessionId: string; format: 'markdown' | 'json' };
    result: { filename: string; mimeType: string; content: string };
  };
  'commands.list': { params: { sessionId?: string }; result: { commands: CommandView[] } };
  'locale.set': { params: { locale: string }; result: { locale: ClientLocale } };
  'usage.get': { params: { sessionId: string }; result: { lastCall?: LastCallUsage } };
  'workflows.list': { params: Record<string, never>; result: { workflows: WorkflowSummaryView[] } };
  'workflows.get': { params: { name: string }; result: { workflow: WorkflowView } };
  'workflows.validate': { params: { name: string; source: string }; result: { problems: WorkflowProblemView[] } };
  'workflows.save': { params: { name: string; source: string }; result: { workflow: WorkflowView } };
  'workflows.delete': { params: { name: string }; result: { deleted: boolean } };
  'workflows.run': { params: { name: string; inputs?: Record<string, unknown> }; result: { run: RunView } };
  'runs.list': { params: { workflow?: string; limit?: number }; result: { runs: RunView[] } };
  'runs.get': { params: { runId: string }; result: { run: RunDetailView } };
  'runs.cancel': { params: { runId: string }; result: { cancelled: boolean } };
  /** Live logs matching the filter (the records before it too: `recent`). */
  'logs.subscribe': { params: LogFilter; result: { recent: LogView[] } };
  'logs.unsubscribe': { params: Record<string, never>; result: Record<string, never> };
}

export type RequestType = keyof RequestMap;
export type ParamsOf<T extends RequestType> = RequestMap[T]['params'];
export type ResultOf<T extends RequestType> = RequestMap[T]['result'];

/** Requests only an owner may make. */
export const OWNER_REQUESTS: readonly RequestType[] = [
  'admin.plugins',
  'admin.mcp',
  'admin.preferences.get',
  'admin.preferences.set',
  ...BUDGET_OWNER_REQUESTS,
  ...CONFIG_REQUESTS,
  ...CONSOLE_MODELS_REQUESTS,
  ...PLUGIN_INSTALL_REQUESTS,
  'logs.subscribe',
  'logs.unsubscribe',
  'logs.query',
  'admin.accounts.list',
  'admin.accounts.create',
  'admin.accounts.update',
  'admin.accounts.delete',
  'admin.accounts.logins',
  'admin.accounts.logins.revoke',
  'admin.usage',
  'workflows.list',
  'workflows.get',
  'workflows.validate',
  'workflows.save',
  'workflows.delete',
  'workflows.run',
  'runs.list',
  'runs.get',
  'runs.cancel',
];

export const REQUEST_TYPES: readonly RequestType[] = [
  'ping',
  'sessions.list',
  'session.create',
  'subscribe',
  'unsubscribe',
  'send',
  'stop',
  'clear',
  'compact',
  'delete',
  'read',
  'settings.get',
  'settings.options',
  'settings.set',
  'settings.reset',
  'models.list',
  'personas.list',
  'background.list',
  'background.stop',
  'background.stopAll',
  'turn.edit',
  'turn.regenerate',
  'turn.retry',
  'sessions.rename',
  'sessions.pin',
  'sessions.archive',
  'search',
  'sessions.export',
  'commands.list',
  'locale.set',
  'usage.get',
  ...MEMORY_REQUESTS,
  ...MEDIA_REQUESTS,
  'session.budget',
  'account.sessions.list',
  'account.sessions.revoke',
  'account.password.set',
  ...OWNER_REQUESTS,
];
