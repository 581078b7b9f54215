// @aalis/plugin-agent: the default AgentService — the turn engine of plugin-agent.zh.md.
import { agent } from '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { contributions } from '@aalis/api-contributions';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { ownHostConfig } from '@aalis/api-host-config';
import { createFallbackReporter, llm } from '@aalis/api-llm';
import { media } from '@aalis/api-media';
import { memory } from '@aalis/api-memory';
import { messageArchive } from '@aalis/api-message-archive';
import { persona } from '@aalis/api-persona';
import { platform } from '@aalis/api-platform';
import { pluginsService } from '@aalis/api-plugins';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { contextBudgetMessages } from '@aalis/context-budget';
import {
  config,
  defineCatalogue,
  definePlugin,
  events,
  lifecycle,
  logger,
  optional,
  provide,
  services,
  translate,
} from '@aalis/core';
import { agentCommands } from './agent-commands.js';
import { agentConfigSchema } from './agent-config.js';
import type { AgentDeps } from './agent-deps.js';
import { agentFields, THINKING_SOURCE, thinkingOptions } from './agent-fields.js';
import { Orchestrator } from './channel/orchestrator.js';
import { HistoryCache } from './turn/history-cache.js';
import { StorageRetry } from './turn/storage-retry.js';
import { answerTokenRequest } from './turn/token-snapshot.js';
import './agent-catalogue.js';

defineCatalogue(contextBudgetMessages);

export { agentConfigSchema } from './agent-config.js';
export { thinkingNote } from './agent-fields.js';
export { SessionChannel } from './channel/session-channel.js';
export { formatUsageLine, usageTag } from './turn/usage-report.js';

export default definePlugin({
  name: '@aalis/plugin-agent',
  provides: [agent],
  uses: {
    logger,
    config,
    events,
    hooks,
    contributions,
    lifecycle,
    provide,
    commands: optional(commands),
    tools: optional(tools),
    llm: optional(llm),
    memory: optional(memory),
    persona: optional(persona),
    messageArchive: optional(messageArchive),
    sessionManager: optional(sessionManager),
    authority: optional(authority),
    platform: optional(platform),
    media: optional(media),
    storage: optional(storage),
    gateway: optional(gateway),
    plugins: optional(pluginsService),
    sessionFields: optional(sessionFields),
    document: optional(ownHostConfig),
    services,
  },
  config: agentConfigSchema,
  apply(handles) {
    const log = handles.logger.use;
    const cfg = handles.config.use;
    if (cfg.llm !== undefined) {
      log.warn(
        'The `llm` key in @aalis/plugin-agent\'s config has no effect: the model is this plugin\'s llm service preference (pluginServicePreferences["@aalis/plugin-agent"].llm) or a session setting.',
      );
    }
    let archiveWarned = false;
    const historyCache = new HistoryCache();
    handles.events.use.on('memory:appended', ({ sessionId, messages }) => historyCache.appended(sessionId, messages));
    handles.events.use.on('memory:deleted', ({ sessionId }) => historyCache.forget([sessionId]));
    handles.events.use.on('memory:cleared', ({ sessionIds }) => historyCache.forget(sessionIds));
    // The logger is named after this plugin instance.
    const instanceId = log.name;
    const deps: AgentDeps = {
      instanceId,
      config: cfg,
      log,
      i18n: { locale: handles.services.use.locale, t: (text) => translate(text, handles.services.use.locale) },
      events: handles.events.use,
      services: handles.services.use,
      hooks: handles.hooks,
      contributions: handles.contributions,
      llm: handles.llm,
      tools: handles.tools,
      memory: handles.memory,
      persona: handles.persona,
      messageArchive: handles.messageArchive,
      sessionManager: handles.sessionManager,
      authority: handles.authority,
      gateway: handles.gateway,
      platform: handles.platform,
      sessionFields: handles.sessionFields,
      leases: () => (handles.storage.available ? handles.storage.use.leases() : undefined),
      // Every input is stored in its session's hand-over queue before it is acknowledged, on SQLite as on
      // PostgreSQL: an acknowledged input outlives a full disk, a crash or a restart (docs/decisions/durable-acknowledgement.md).
      handOver: () => (handles.storage.available ? handles.storage.use.handOver() : undefined),
      historyCache,
      storageRetry: new StorageRetry(log),
      fallbacks: createFallbackReporter({ warn: (text) => log.warn(translate(text, handles.services.use.locale)) }),
      warnArchiveAbsent() {
        if (archiveWarned) return;
        archiveWarned = true;
        log.warn(
          'message-archive is absent: new messages are not stored in memory; the agent builds their content itself. Enable @aalis/plugin-message-archive to keep history.',
        );
      },
    };
    const orchestrator = new Orchestrator(deps);
    handles.provide.use.service(agent, orchestrator);
    for (const field of agentFields(deps)) handles.sessionFields.use.register(field);
    handles.sessionFields.use.registerOptionSource(THINKING_SOURCE, thinkingOptions(deps));
    for (const command of agentCommands(deps, orchestrator)) handles.commands.use.register(command);
    handles.events.use.on('session:deleted', ({ sessionId }) => orchestrator.onSessionDeleted(sessionId));
    handles.events.use.on('token:request', (request) =>
      answerTokenRequest(deps, request).catch((error: unknown) =>
        log.warn('token:request snapshot failed', { sessionId: request.sessionId, error: String(error) }),
      ),
    );
    handles.lifecycle.use.onDrain(() => {
      // A reply held for a database that is gone is given up (logged): the drain does not wait minutes for it.
      deps.storageRetry.stop();
      return orchestrator.drain();
    });
    // Sessions whose process died mid-turn are recovered by any live process.
    handles.lifecycle.use.onDispose(orchestrator.placement.startRecovery());
  },
});
