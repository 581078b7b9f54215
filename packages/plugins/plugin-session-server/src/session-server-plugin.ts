// @aalis/plugin-session-server: one HTTP + WebSocket server in the host (Hono on @hono/node-server, ws for the
// socket) speaking the session protocol (docs/session-protocol.md), with one-time link login, serving the WebUI.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { agent } from '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { hostConfig } from '@aalis/api-host-config';
import { llm } from '@aalis/api-llm';
import { mcp } from '@aalis/api-mcp';
import { memory } from '@aalis/api-memory';
import { platform } from '@aalis/api-platform';
import { pluginsService } from '@aalis/api-plugins';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { storage } from '@aalis/api-storage';
import '@aalis/api-tools';
import {
  config,
  definePlugin,
  events,
  type LogSink,
  lifecycle,
  logger,
  optional,
  redactor,
  services,
  translate,
} from '@aalis/core';
import { openDatabase } from '@aalis/sqlite';
import { createAdaptorServer } from '@hono/node-server';
import { type AccountStore, postgresAccountStore, sqliteAccountStore } from './accounts/account-store.js';
import { LoginThrottle } from './accounts/login-throttle.js';
import { type AuditStore, postgresAuditStore, sqliteAuditStore } from './audit-store.js';
import { ConnectionLimits } from './connection-limits.js';
import { listenToHost } from './host-listeners.js';
import { createHttpApp } from './http-app.js';
import { LiveRelay, relayHeartbeatMs } from './live-relay.js';
import { dropIdle, LiveSession, type RelayNote } from './live-session.js';
import { acceptedHosts } from './login-checks.js';
import { loadOrCreateSecret, loginLink, mintLinkToken, removeServerAddress, writeServerAddress } from './login-link.js';
import { LoginStore } from './login-store.js';
import { LogArchive } from './logs/log-archive.js';
import { relayable, relayListener } from './relayed-changes.js';
import { serverConfigSchema } from './server-config.js';
import { BoundedMap, type ServerDeps, WEBUI_PLATFORM } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { attachSocketServer } from './socket-server.js';
import { createPageServer } from './static-page.js';
import { recordUsage } from './usage/usage-recorder.js';
import { postgresUsageStore, sqliteUsageStore, type UsageStore } from './usage/usage-store.js';
import './server-texts.js';

export const SESSION_SERVER_PLUGIN = '@aalis/plugin-session-server';

export interface SessionServerOptions {
  /** Where log records come from for the owner's live logs (the runtime passes app.logs). */
  logs?: { addSink(sink: LogSink): () => void };
  /** Values never shown in logs sent to the page (API keys). */
  secrets?: readonly string[];
}

export interface SessionServerHandle {
  /** The origin the server answers at, once it listens (e.g. http://127.0.0.1:8420). */
  url(): string | undefined;
  /** A fresh one-time login link for the owner (or another configured account), once the server listens. */
  loginLink(userId?: string): string | undefined;
}

/** A live session nobody watches and nothing happened in this long is dropped (its next event starts afresh). */
const LIVE_IDLE_MS = 15 * 60_000;

export function createSessionServerPlugin(options: SessionServerOptions = {}) {
  let current: { url: string; mint: (userId?: string) => string } | undefined;
  const redact = redactor(options.secrets ?? []);

  const plugin = definePlugin({
    name: SESSION_SERVER_PLUGIN,
    uses: {
      config,
      events,
      logger,
      lifecycle,
      services,
      storage,
      hooks,
      agent: optional(agent),
      gateway: optional(gateway),
      sessionManager: optional(sessionManager),
      memory: optional(memory),
      sessionFields: optional(sessionFields),
      authority: optional(authority),
      commands: optional(commands),
      llm: optional(llm),
      plugins: optional(pluginsService),
      mcp: optional(mcp),
      hostConfig: optional(hostConfig),
      platform: optional(platform),
    },
    config: serverConfigSchema,
    async apply(handles) {
      const settings = handles.config.use;
      const log = handles.logger.use;
      const locale = handles.services.use.locale;
      const dataDir = handles.storage.use.dataDir;
      const lives = new Map<string, LiveSession>();
      /** The sequence numbers live sessions dropped for idleness had reached (their next one goes on from there). */
      const lastSeqs = new Map<string, number>();
      // On PostgreSQL every process's session server relays its sessions' live changes to the others'.
      let relay: LiveRelay | undefined;
      const publish = (sessionId: string, note: RelayNote) => {
        if (relay && relayable(note)) relay.publish(sessionId, note);
      };
      // Logins are kept in this host's own SQLite database, also when the stores are in PostgreSQL: a login stays on
      // the host it was made on (docs/scaling.md: sticky sessions for the WebUI).
      const loginDatabase =
        handles.storage.use.engine === 'sqlite' ? undefined : openDatabase(handles.storage.use.dataDir);
      if (loginDatabase) handles.lifecycle.use.onDispose(() => loginDatabase.release());
      const storageService = handles.storage.use;
      let accounts: AccountStore;
      let usageStore: UsageStore;
      if (storageService.engine === 'postgres') {
        const shared = await postgresAccountStore(storageService.postgres());
        handles.lifecycle.use.onDispose(() => shared.close());
        accounts = shared;
        usageStore = await postgresUsageStore(storageService.postgres());
      } else {
        accounts = sqliteAccountStore(storageService.database());
        usageStore = sqliteUsageStore(storageService.database());
      }
      // The console's audit log, in the storage engine's database (shared by every process on PostgreSQL).
      const audit: AuditStore =
        handles.storage.use.engine === 'postgres'
          ? await postgresAuditStore(handles.storage.use.postgres())
          : sqliteAuditStore(handles.storage.use.database());
      const deps: ServerDeps = {
        config: settings,
        locale,
        log,
        events: handles.events.use,
        services: handles.services.use,
        translate: (text) => translate(text, locale),
        agent: handles.agent,
        gateway: handles.gateway,
        sessionManager: handles.sessionManager,
        memory: handles.memory,
        sessionFields: handles.sessionFields,
        authority: handles.authority,
        commands: handles.commands,
        llm: handles.llm,
        plugins: handles.plugins,
        mcp: handles.mcp,
        hostConfig: handles.hostConfig,
        audit,
        logins: new LoginStore(loginDatabase?.database ?? handles.storage.use.database()),
        live(sessionId) {
          let live = lives.get(sessionId);
          if (!live) {
            live = new LiveSession(sessionId, publish, lastSeqs.get(sessionId), {
              events: settings.replayEvents,
              bytes: settings.replayBytes,
            });
            lives.set(sessionId, live);
          }
          return live;
        },
        peers: new Set(),
        rawTexts: new BoundedMap(5000),
        clientIds: new BoundedMap(5000),
        durations: new BoundedMap(5000),
        sentIds: new BoundedMap(5000),
        kinds: new Map(),
        recentLogs: [],
        accounts,
        loginThrottle: new LoginThrottle(),
        closeLogin: (loginKey) => closeLogin(loginKey),
        usageStore,
        logArchive: new LogArchive(),
        serverId: `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
      };
      const secret = loadOrCreateSecret(dataDir);
      const { logSink } = listenToHost(deps, handles.hooks, redact);
      handles.lifecycle.use.onDispose(recordUsage(deps, handles.hooks, usageStore));
      if (options.logs) handles.lifecycle.use.onDispose(options.logs.addSink(logSink));
      if (handles.storage.use.engine === 'postgres') {
        const opened = await LiveRelay.open({
          database: handles.storage.use.postgres(),
          origin: deps.serverId,
          listener: relayListener(deps),
          log,
          heartbeatMs: relayHeartbeatMs(handles.storage.use.leases().ttlMs),
        });
        relay = opened;
        handles.lifecycle.use.onDispose(() => opened.close());
      }
      handles.events.use.on('session:deleted', ({ sessionId }) => {
        // After the deletion's own events went out: the next activity starts a fresh sequence.
        queueMicrotask(() => lives.delete(sessionId));
      });
      const pruning = setInterval(() => dropIdle(lives, lastSeqs, LIVE_IDLE_MS), LIVE_IDLE_MS / 10);
      pruning.unref();
      handles.lifecycle.use.onDispose(() => clearInterval(pruning));

      /** A login ended (logged out, revoked, its account deleted): its sockets say goodbye and close. */
      function closeLogin(loginKey: string) {
        for (const peer of deps.peers) {
          if (peer.loginKey !== loginKey) continue;
          peer.send({ type: 'goodbye', reason: 'logged-out' });
          peer.close(4401, 'AALIS_WEBUI_LOGIN_EXPIRED');
        }
      }
      let address = { accepted: new Set<string>(), expected: '' };
      const limits = () => ({
        maxMessageChars: settings.maxMessageChars,
        maxAttachmentBytes: settings.maxAttachmentBytes,
        maxAttachments: settings.maxAttachments,
        maxFrameBytes: settings.maxFrameBytes,
      });
      const page = createPageServer({
        webRoot: settings.webRoot,
        locale,
        warn: (text, fields) => log.warn(text, fields),
      });
      const connections = new ConnectionLimits(settings, locale);
      const app = createHttpApp({
        deps,
        connections,
        secret,
        hosts: () => address,
        page,
        redact,
        limits,
        loggedOut: (loginKey) => closeLogin(loginKey),
      });
      const server = createAdaptorServer({ fetch: app.fetch, serverOptions: connections.serverOptions() }) as Server;
      connections.guard(server);
      const sockets = attachSocketServer(server, { deps, hosts: () => address, limits, redact, connections });
      const port = await listen(server, settings.host, settings.port);
      const shownHost = settings.host === '0.0.0.0' || settings.host === '::' ? '127.0.0.1' : settings.host;
      const hostPart = shownHost.includes(':') ? `[${shownHost}]` : shownHost;
      const url = `http://${hostPart}:${port}`;
      address = {
        accepted: acceptedHosts(settings.host, port, settings.allowedHosts),
        expected: `${hostPart}:${port}`,
      };
      writeServerAddress(dataDir, { url, pid: process.pid, startedAt: Date.now() });
      current = {
        url,
        mint: (userId = settings.ownerUserId) => loginLink(url, mintLinkToken({ secret, userId })),
      };
      if (handles.platform.available) {
        handles.platform.use.register({
          id: WEBUI_PLATFORM,
          type: 'web',
          capabilities: { streaming: true, quoting: false, rooms: false },
        });
      }
      log.info(translate({ key: 'sessionServer.started', params: { url } }, 'en'));

      handles.lifecycle.use.onDispose(async () => {
        current = undefined;
        sockets.close();
        removeServerAddress(dataDir);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections?.();
        });
      });
    },
  });

  const handle: SessionServerHandle = {
    url: () => current?.url,
    loginLink: (userId) => current?.mint(userId),
  };
  return { plugin, ...handle };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const params = { host, port, reason: error.code ?? error.message };
      // A name that does not resolve, or an address not on this machine: the host is wrong, not the port.
      const badHost = ['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL'].includes(error.code ?? '');
      reject(
        badHost
          ? serverErrors.AALIS_WEBUI_HOST_UNAVAILABLE(params, { cause: error })
          : serverErrors.AALIS_WEBUI_LISTEN_FAILED(params, { cause: error }),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
