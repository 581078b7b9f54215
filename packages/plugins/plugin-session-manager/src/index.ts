// @aalis/plugin-session-manager: the session manager on the storage engine (SQLite or PostgreSQL). Records each
// session's last turn from agent:turn:after (when hooks are present).
import { agent } from '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { sessionManager } from '@aalis/api-session-manager';
import { storage } from '@aalis/api-storage';
import { definePlugin, events, i18n, lifecycle, logger, optional, provide } from '@aalis/core';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionManager } from './session-manager.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

export { PostgresSessionStore, postgresSessionMigrations } from './postgres-session-store.js';
export { SessionManager, type SessionManagerOptions } from './session-manager.js';
export { SESSION_NAMESPACE, sessionMigrations } from './session-migrations.js';
export type { SessionStore } from './session-store.js';
export { SqliteSessionStore } from './sqlite-session-store.js';

export default definePlugin({
  name: '@aalis/plugin-session-manager',
  provides: [sessionManager],
  uses: {
    storage,
    provide,
    events,
    logger,
    i18n,
    lifecycle,
    hooks: optional(hooks),
    agent: optional(agent),
    memory: optional(memory),
  },
  async apply({ storage, provide, events, logger, i18n, lifecycle, hooks, agent, memory }) {
    const manager = new SessionManager({
      store:
        storage.use.engine === 'postgres'
          ? await PostgresSessionStore.open(storage.use.postgres())
          : new SqliteSessionStore(storage.use.database()),
      events: events.use,
      logger: logger.use,
      agent: () => (agent.available ? agent.use : undefined),
      memory: () => (memory.available ? memory.use : undefined),
    });
    provide.use.service(sessionManager, manager);
    // Deletions made by other processes on the same database (PostgreSQL) bump the generations here too.
    lifecycle.use.onDispose(await manager.watchOtherProcesses());
    // Registrar: attached when a hooks provider is present, withdrawn with this plugin.
    hooks.use.middleware('agent:turn:after', async (context, next) => {
      try {
        await manager.recordTurn(context.sessionId, {
          turnId: context.turnId,
          outcome: context.outcome,
          ...(context.error === undefined ? {} : { error: i18n.use.t(context.error) }),
          at: Date.now(),
        });
      } catch (error) {
        logger.use.error('recording the last turn failed', { sessionId: context.sessionId, error: String(error) });
      }
      await next();
    });
  },
});
