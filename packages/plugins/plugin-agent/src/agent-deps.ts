// What the turn engine needs from the plugin host: the handles of plugin-agent's `uses`, its config, and a few
// once-per-activation reporters.

import type { AuthorityService } from '@aalis/api-authority';
import type { ContributionsService } from '@aalis/api-contributions';
import type { GatewayService } from '@aalis/api-gateway';
import type { HooksService } from '@aalis/api-hooks';
import type { FallbackReporter, LlmService } from '@aalis/api-llm';
import type { MemoryService } from '@aalis/api-memory';
import type { MessageArchiveService } from '@aalis/api-message-archive';
import type { PersonaService } from '@aalis/api-persona';
import type { PlatformService } from '@aalis/api-platform';
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { SessionFieldsService } from '@aalis/api-session-settings';
import type { HandOverService, LeasesService } from '@aalis/api-storage';
import type { ToolsService } from '@aalis/api-tools';
import type { Events, I18n, Logger, ServiceHandle, Services } from '@aalis/core';
import type { AgentConfig } from './agent-config.js';
import type { HistoryCache } from './turn/history-cache.js';
import type { StorageRetry } from './turn/storage-retry.js';

export interface AgentDeps {
  instanceId: string;
  config: AgentConfig;
  log: Logger;
  i18n: I18n;
  events: Events;
  services: Services;
  hooks: ServiceHandle<HooksService>;
  contributions: ServiceHandle<ContributionsService>;
  llm: ServiceHandle<LlmService>;
  tools: ServiceHandle<ToolsService>;
  memory: ServiceHandle<MemoryService>;
  persona: ServiceHandle<PersonaService>;
  messageArchive: ServiceHandle<MessageArchiveService>;
  sessionManager: ServiceHandle<SessionManagerService>;
  authority: ServiceHandle<AuthorityService>;
  gateway: ServiceHandle<GatewayService>;
  platform: ServiceHandle<PlatformService>;
  sessionFields: ServiceHandle<SessionFieldsService>;
  /** The database's leases: a session's turn runs only while this process holds its lease (session-lease.ts). */
  leases(): LeasesService | undefined;
  /**
   * The hand-over queues on a shared engine (PostgreSQL): inputs go to their session's owner through them
   * (session-owners.ts). Undefined on SQLite, where inputs wait for the lease on the process they reached.
   */
  handOver(): HandOverService | undefined;
  /** The sessions' active histories, kept current by memory events. */
  historyCache: HistoryCache;
  /** Holds a turn's reply or record while the database cannot be written, and writes it again (bounded). */
  storageRetry: StorageRetry;
  /** Warns once per (preference, actual model). */
  fallbacks: FallbackReporter;
  /** Warns (once per activation) that the archive is absent and inputs are not stored. */
  warnArchiveAbsent(): void;
}
