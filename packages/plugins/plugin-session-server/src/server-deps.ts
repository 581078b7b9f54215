// What every request handler reaches: the host's services (through handles, so provider switches need no re-wiring),
// the config, the live sessions, the login store, and the peers (sockets) to push frames to.
import type { BoundAgent } from '@aalis/api-agent';
import type { AuthorityService } from '@aalis/api-authority';
import type { CommandsService } from '@aalis/api-commands';
import type { GatewayService } from '@aalis/api-gateway';
import type { HostConfigService } from '@aalis/api-host-config';
import type { LlmService } from '@aalis/api-llm';
import type { McpService } from '@aalis/api-mcp';
import type { MemoryService } from '@aalis/api-memory';
import type { PluginsService } from '@aalis/api-plugins';
import type { SessionInfo, SessionManagerService } from '@aalis/api-session-manager';
import type { SessionFieldsService } from '@aalis/api-session-settings';
import type { Events, Locale, Logger, LogRecord, Services, TextRef } from '@aalis/core';
import type { Account, SendRouting, ServerFrame } from '@aalis/session-client';
import type { AccountStore } from './accounts/account-store.js';
import type { LoginThrottle } from './accounts/login-throttle.js';
import type { AuditStore } from './audit-store.js';
import type { LiveSession } from './live-session.js';
import type { LoginStore } from './login-store.js';
import type { LogArchive } from './logs/log-archive.js';
import type { ActiveLogFilter } from './logs/log-filter.js';
import type { ServerConfig } from './server-config.js';
import type { UsageStore } from './usage/usage-store.js';

/** A handle as plugins get it: `available` and the selected provider's `use`. */
export interface Handle<T> {
  readonly available: boolean;
  readonly use: T;
}

/** A connected socket of one login. */
export interface Peer {
  readonly account: Account;
  /** The login this socket belongs to (cookie hash). */
  readonly loginKey: string;
  send(frame: ServerFrame): void;
  /** Sends a frame already serialised (one serialisation, and one UTF-8 encoding, for every socket it goes to). */
  sendText(text: string | Buffer): void;
  /** Sessions this socket subscribed to (active once their timeline or replay went out). */
  readonly subscriptions: Set<string>;
  logLevel: LogRecord['level'] | undefined;
  /** What the owner follows in the live logs (logs.subscribe's filter). */
  logFilter?: ActiveLogFilter;
  /** The connection's locale (the socket URL's ?locale=, then locale.set); the host's when absent. */
  locale?: Locale;
  close(code: number, reason: string): void;
}

export interface ServerDeps {
  config: ServerConfig;
  locale: Locale;
  log: Logger;
  events: Events;
  services: Services;
  translate(text: string | TextRef): string;
  agent: Handle<BoundAgent>;
  gateway: Handle<GatewayService>;
  sessionManager: Handle<SessionManagerService>;
  memory: Handle<MemoryService>;
  sessionFields: Handle<SessionFieldsService>;
  authority: Handle<AuthorityService>;
  commands: Handle<CommandsService>;
  llm: Handle<LlmService>;
  plugins: Handle<PluginsService>;
  /** The MCP client, when it runs: its servers' states for the admin area. */
  mcp: Handle<McpService>;
  /** The console's configuration changes (the runtime's hostConfig), when the host offers them. */
  hostConfig: Handle<HostConfigService>;
  /** The console's audit log (recordAudit, admin.audit.list). */
  audit: AuditStore;
  logins: LoginStore;
  live(sessionId: string): LiveSession;
  peers: Set<Peer>;
  /** Raw texts of messages sent through this server, by messageId (bounded). */
  rawTexts: BoundedMap<string, string>;
  /** The clientMessageId of messages sent through this server, by messageId (bounded). */
  clientIds: BoundedMap<string, string>;
  /** Tool call durations seen, by callId (bounded). */
  durations: BoundedMap<string, number>;
  /** clientMessageId → messageId, per account (bounded; an hour). */
  sentIds: BoundedMap<string, { messageId: string; at: number; routed?: SendRouting }>;
  /** Session kinds seen (rooms mark unsent words). */
  kinds: Map<string, SessionInfo['kind']>;
  recentLogs: LogRecord[];
  /** Accounts made from the page and every account's password hash (accounts/account-store.ts). */
  accounts: AccountStore;
  loginThrottle: LoginThrottle;
  /** Closes the sockets of a login that ended (revoked, its account deleted). */
  closeLogin(loginKey: string): void;
  /** Every model call, for the usage page. */
  usageStore: UsageStore;
  /** The latest log records, for logs.query. */
  logArchive: LogArchive;
  serverId: string;
}

/** A Map that forgets its oldest entries past a size. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.entries.get(key);
  }
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}

/** The account's identity on platform webui. */
export function identityOf(account: Account): { platform: 'webui'; userId: string } {
  return { platform: 'webui', userId: account.userId };
}

export const WEBUI_PLATFORM = 'webui';
