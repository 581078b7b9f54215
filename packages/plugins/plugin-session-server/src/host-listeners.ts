// Wires the host's hooks and events to the live sessions and the peers: turn events through the event bridge, the
// session list frames, fresh timelines when a history changes as a whole, settings changes, and log records.
import { performance } from 'node:perf_hooks';
import type { HooksService } from '@aalis/api-hooks';
import type { SessionInfo } from '@aalis/api-session-manager';
import { type LogRecord, levelAtLeast } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import type { SessionSummary } from '@aalis/session-client';
import { logView, preferencesView, RECENT_LOGS } from './admin-requests.js';
import { stateView } from './console-config-plugins.js';
import * as bridge from './event-bridge.js';
import { matchesLogFilter } from './logs/log-filter.js';
import type { Handle, Peer, ServerDeps } from './server-deps.js';
import { canSee, summaryOf } from './session-access.js';
import { subscriberOf } from './session-requests.js';
import { timelineInput } from './timeline-builder.js';
import { attachmentUrl, prepareTimeline } from './timeline-snapshot.js';

export function bridgeContext(deps: ServerDeps): bridge.BridgeContext {
  return {
    live: deps.live,
    translate: deps.translate,
    isRoom: (sessionId) => deps.kinds.get(sessionId) === 'room',
    rawText: (messageId) => deps.rawTexts.get(messageId),
    clientIdOf: (messageId) => deps.clientIds.get(messageId),
    attachmentUrl,
    recordDuration: (callId, durationMs) => deps.durations.set(callId, durationMs),
  };
}

export function listenToHost(deps: ServerDeps, hooks: Handle<HooksService>, redact: (text: string) => string) {
  const context = bridgeContext(deps);
  const on = deps.events.on.bind(deps.events);

  hooks.use.middleware('agent:turn:before', async (turn, next) => {
    bridge.onTurnStarted(context, turn.sessionId, turn.turnId, turn.inputs[0]?.message);
    void announceById(deps, turn.sessionId);
    try {
      await next();
    } finally {
      // A turn stopped by a middleware never reaches agent:turn:after: end it for the subscribers all the same.
      if (deps.live(turn.sessionId).turn?.turnId === turn.turnId) {
        bridge.onTurnEnded(context, { sessionId: turn.sessionId, turnId: turn.turnId, outcome: 'silent' });
      }
    }
  });
  hooks.use.middleware('agent:turn:after', async (turn, next) => {
    try {
      await next();
    } finally {
      bridge.onTurnEnded(context, turn);
      void announceById(deps, turn.sessionId);
      markReadByWatchers(deps, turn.sessionId);
    }
  });

  on('outbound:stream', (fragment) => bridge.onStream(context, fragment));
  on('tool:execute', (event) => bridge.onToolExecute(context, event));
  on('outbound:message', (message) => bridge.onOutbound(context, message));
  on('outbound:failed', (failure) => bridge.onDeliveryFailed(context, failure));
  on('agent:queue', (event) => bridge.onQueue(context, event));
  on('llm:usage', (event) => bridge.onLlmUsage(context, event));
  on('token:usage', (event) => bridge.onTokenUsage(context, event));
  on('memory:appended', ({ sessionId, messages }) => {
    bridge.onAppended(context, sessionId, messages);
    const firstInput = messages.find((message) => message.role === 'user' && message.kind === undefined);
    if (firstInput) void titleFromFirstInput(deps, sessionId, firstInput);
    if (messages.some((message) => message.kind === 'compression-divider')) {
      deps.live(sessionId).archiveRewritten();
      refreshTimeline(deps, sessionId);
    }
  });
  on('memory:deleted', ({ sessionId }) => {
    deps.live(sessionId).archiveRewritten();
    refreshTimeline(deps, sessionId);
  });
  on('memory:cleared', ({ sessionIds }) => {
    const targets = sessionIds ?? [...subscribedSessions(deps)];
    for (const sessionId of targets) {
      deps.live(sessionId).archiveRewritten();
      refreshTimeline(deps, sessionId);
    }
  });

  on('session:created', ({ session }) => {
    void announce(deps, session);
    deps.live(session.id).listed();
  });
  on('session:updated', ({ session }) => {
    void announceById(deps, session.id, session);
    deps.live(session.id).emit({ type: 'session.updated', session: neutralSummary(deps, session) });
  });
  on('session:deleted', ({ sessionId }) => {
    const live = deps.live(sessionId);
    live.emit({ type: 'session.deleted', sessionId });
    for (const peer of deps.peers) {
      if (peer.subscriptions.delete(sessionId)) live.subscribers.delete(subscriberOf(peer));
      if (canSee(peer.account, sessionId)) peer.send({ type: 'sessions', change: 'removed', sessionId });
    }
    deps.logins.forgetSession(sessionId);
    deps.kinds.delete(sessionId);
    forgetAnnounce(deps, sessionId);
  });
  on('plugin:state', (state) => {
    for (const peer of deps.peers) {
      if (peer.account.owner) peer.send({ type: 'admin', change: 'plugin', plugin: stateView(deps, state) });
    }
  });
  on('preferences:changed', () => {
    const preferences = preferencesView(deps);
    for (const peer of deps.peers)
      if (peer.account.owner) peer.send({ type: 'admin', change: 'preferences', preferences });
    // A model field left unset follows the service preference (「跟随服务偏好(此刻:…)」): its note, and the
    // notes of what depends on it (深度思考), change in every session.
    const followers = deps.sessionFields.available
      ? deps.sessionFields.use
          .fields()
          .filter((info) => info.field.type === 'llm-ref')
          .map((info) => info.field.key)
      : [];
    for (const sessionId of subscribedSessions(deps))
      for (const key of followers) deps.live(sessionId).emit({ type: 'settings.changed', key });
  });
  on('settings:changed', ({ layer, target, key }) => {
    for (const sessionId of subscribedSessions(deps)) {
      if (layer !== 'session' || target === sessionId) deps.live(sessionId).emit({ type: 'settings.changed', key });
    }
  });

  return {
    /** The log sink: recent records kept for logs.subscribe, each pushed to the owners who asked. */
    logSink: {
      // Debug lines are built only while an owner watches them (LogHub asks each sink's level before formatting).
      get level(): LogRecord['level'] {
        let lowest: LogRecord['level'] = 'info';
        for (const peer of deps.peers) {
          if (peer.logLevel && peer.account.owner && !levelAtLeast(peer.logLevel, lowest)) lowest = peer.logLevel;
        }
        return lowest;
      },
      write(record: LogRecord) {
        if (levelAtLeast(record.level, 'info')) {
          deps.recentLogs.push(record);
          if (deps.recentLogs.length > RECENT_LOGS) deps.recentLogs.shift();
          deps.logArchive.add(record);
        }
        for (const peer of deps.peers) {
          if (
            peer.logLevel &&
            peer.account.owner &&
            matchesLogFilter(record, peer.logFilter ?? { level: peer.logLevel })
          ) {
            peer.send({ type: 'log', record: logView(record, redact) });
          }
        }
      },
    },
  };
}

function subscribedSessions(deps: ServerDeps): Set<string> {
  const sessions = new Set<string>();
  for (const peer of deps.peers) for (const sessionId of peer.subscriptions) sessions.add(sessionId);
  return sessions;
}

const TITLE_CHARS = 40;

/** A WebUI session created without a title takes its first input's text (cut), so the list tells sessions apart. */
async function titleFromFirstInput(deps: ServerDeps, sessionId: string, message: Message): Promise<void> {
  if (!deps.sessionManager.available || deps.kinds.get(sessionId) !== 'web') return;
  try {
    const session = await deps.sessionManager.use.get(sessionId);
    if (!session || session.title !== undefined) return;
    const text = timelineInput(message, { attachmentUrl: () => '', rawText: (id) => deps.rawTexts.get(id) })
      .text.replace(/\s+/g, ' ')
      .trim();
    if (text === '') return;
    const characters = Array.from(text);
    const title = characters.length > TITLE_CHARS ? `${characters.slice(0, TITLE_CHARS).join('')}…` : text;
    await deps.sessionManager.use.update(sessionId, { title });
  } catch (error) {
    deps.log.debug('could not title a session', { sessionId, error: String(error) });
  }
}

/** Announces asked for and not sent yet, by server and session: sent together with the latest row of each. */
const announcing = new Map<string, { deps: ServerDeps; sessionId: string; session: SessionInfo | undefined }>();
/** Waiting for the flush of `announcing` (and the promises of those who asked). */
let flushing: { done: Promise<void> } | undefined;
let lastFlush = Number.NEGATIVE_INFINITY;

/**
 * Shortest time between two sendings of list rows. Every list row goes to every socket of every account that may
 * see the session, so with many sessions running their rows are gathered: a socket gets at most one write of list
 * rows per interval, however many turns start and end meanwhile (a turn quicker than this shows its outcome without
 * first showing it running). While the list is quiet a change still goes out in the next turn of the event loop.
 */
export const LIST_INTERVAL_MS = 50;

/**
 * The list row again, e.g. when `running` changed (session:updated comes while the turn still runs). Coalesced:
 * a turn's end asks twice (its end, then its recorded outcome) and every socket gets one row; rows asked for within
 * LIST_INTERVAL_MS of the last sending wait for the next one.
 */
export function announceById(deps: ServerDeps, sessionId: string, session?: SessionInfo): Promise<void> {
  if (deps.peers.size === 0) return Promise.resolve();
  const key = `${deps.serverId}\u0000${sessionId}`;
  const pending = announcing.get(key);
  if (pending) {
    if (session) pending.session = session;
  } else announcing.set(key, { deps, sessionId, session });
  if (flushing) return flushing.done;
  const wait = lastFlush + LIST_INTERVAL_MS - performance.now();
  const done = new Promise<void>((resolve) => {
    const flush = () => {
      flushing = undefined;
      lastFlush = performance.now();
      const batch = [...announcing.values()];
      announcing.clear();
      void Promise.all(batch.map((entry) => announceNow(entry.deps, entry.sessionId, entry.session))).finally(resolve);
    };
    if (wait <= 0) setImmediate(flush);
    else setTimeout(flush, wait).unref();
  });
  flushing = { done };
  return done;
}

/** A deleted session's row is not sent again after its removal. */
function forgetAnnounce(deps: ServerDeps, sessionId: string): void {
  announcing.delete(`${deps.serverId}\u0000${sessionId}`);
}

async function announceNow(deps: ServerDeps, sessionId: string, known: SessionInfo | undefined): Promise<void> {
  try {
    const session = known ?? (deps.sessionManager.available ? await deps.sessionManager.use.get(sessionId) : undefined);
    if (session) await announce(deps, session);
  } catch (error) {
    deps.log.debug('could not announce a session', { sessionId, error: String(error) });
  }
}

/**
 * Tells every socket that may see the session its new list row. Computed once per change: the children in one
 * query, then one row (and one serialised frame) per account watching, whatever its number of sockets — a row per
 * socket with two queries each stalled every turn once a login held a few hundred sockets.
 */
async function announce(deps: ServerDeps, session: SessionInfo): Promise<void> {
  deps.kinds.set(session.id, session.kind);
  const viewers = new Map<string, Peer[]>();
  for (const peer of deps.peers) {
    if (!canSee(peer.account, session.id)) continue;
    const peers = viewers.get(peer.account.userId);
    if (peers) peers.push(peer);
    else viewers.set(peer.account.userId, [peer]);
  }
  if (viewers.size === 0) return;
  try {
    const children = deps.sessionManager.available ? await deps.sessionManager.use.children(session.id) : [];
    const childIds = children.map((child) => child.id);
    for (const [userId, peers] of viewers) {
      const mark = deps.logins.readMark(userId, session.id);
      const marks = new Map(mark === undefined ? [] : [[session.id, mark]]);
      const summary = summaryOf(deps, session, childIds, marks, peers[0]!.account);
      const text = Buffer.from(
        JSON.stringify({ type: 'sessions', change: 'upsert', sessionId: session.id, session: summary }),
      );
      for (const peer of peers) peer.sendText(text);
    }
  } catch (error) {
    deps.log.debug('could not announce a session', { sessionId: session.id, error: String(error) });
  }
}

/** The accounts with a socket subscribed to the session have read it: one mark per account, not per socket. */
export function markReadByWatchers(deps: ServerDeps, sessionId: string): void {
  const marked = new Set<string>();
  for (const peer of deps.peers) {
    if (!peer.subscriptions.has(sessionId) || marked.has(peer.account.userId)) continue;
    marked.add(peer.account.userId);
    deps.logins.markRead(peer.account.userId, sessionId);
  }
}

function neutralSummary(deps: ServerDeps, session: SessionInfo): SessionSummary {
  return {
    id: session.id,
    kind: session.kind,
    platform: session.platform,
    children: [],
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    unread: false,
    running: deps.live(session.id).turn !== undefined,
    writable: true,
    canSend: session.kind !== 'room',
    pinned: session.pinnedAt !== undefined,
    archived: session.archivedAt !== undefined,
    ...(session.venue !== undefined ? { venue: session.venue } : {}),
    ...(session.title !== undefined ? { title: session.title } : {}),
    ...(session.parentId !== undefined ? { parentId: session.parentId } : {}),
    ...(session.lastTurn ? { lastTurn: { ...session.lastTurn } } : {}),
  };
}

const refreshing = new Map<string, Promise<void>>();
/** Refreshes asked for while one was being built: built once more after it (it may have read the archive before). */
const again = new Set<string>();
const refreshKey = (deps: ServerDeps, sessionId: string) => `${deps.serverId}\u0000${sessionId}`;

/** Sends every subscriber of the session a fresh timeline (coalesced while one is being built). */
export function refreshTimeline(deps: ServerDeps, sessionId: string): void {
  const key = refreshKey(deps, sessionId);
  if (!subscribedSessions(deps).has(sessionId)) return;
  if (refreshing.has(key)) {
    again.add(key);
    return;
  }
  const run = (async () => {
    try {
      const complete = await prepareTimeline(deps, sessionId);
      const { timeline, seq } = complete();
      for (const peer of deps.peers) {
        if (peer.subscriptions.has(sessionId)) peer.send({ type: 'timeline', sessionId, seq, timeline });
      }
    } catch (error) {
      deps.log.warn('could not rebuild a timeline', { sessionId, error: String(error) });
    } finally {
      refreshing.delete(key);
      if (again.delete(key)) refreshTimeline(deps, sessionId);
    }
  })();
  refreshing.set(key, run);
}
