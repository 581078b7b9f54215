// The session manager: sessions in SQLite, deletion generations in memory, and deletion handed to the agent's
// clearing chain (children first, session:deleted, memory clear, rows).
import type { AgentService } from '@aalis/api-agent';
import type { MemoryService } from '@aalis/api-memory';
import {
  assertSessionId,
  assertValidLastTurn,
  assertValidPatch,
  assertValidSessionInit,
  type DeleteSessionOptions,
  type DeleteSessionReport,
  type LastTurn,
  type SessionFilter,
  type SessionInfo,
  type SessionInit,
  type SessionManagerService,
  type SessionPatch,
  sessionErrors,
} from '@aalis/api-session-manager';
import type { Events, Logger } from '@aalis/core';
import type { SqliteSessionStore } from './sqlite-session-store.js';

export interface SessionManagerOptions {
  store: SqliteSessionStore;
  events: Pick<Events, 'emit' | 'emitAsync'>;
  logger: Logger;
  /** The agent now, if present: deletion goes through its clearing(). */
  agent(): AgentService | undefined;
  /** The memory service now, if present: its clear chain runs for deleted sessions. */
  memory(): MemoryService | undefined;
  now?(): number;
}

const PATCH_FIELDS = ['title', 'originChat', 'originPlatform', 'venue'] as const;

export class SessionManager implements SessionManagerService {
  /** Per process: compared only within one lifetime (an input in flight never outlives the process). */
  private readonly generations = new Map<string, number>();
  /** Session id → the deletion in progress that covers it (its own, or an ancestor's). */
  private readonly deletions = new Map<string, Promise<DeleteSessionReport>>();
  private readonly now: () => number;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
  }

  async ensure(init: SessionInit): Promise<SessionInfo> {
    assertValidSessionInit(init);
    // A session (or the parent of one) being deleted is created anew only once the deletion finished.
    while (this.isDeleting(init.id) || (init.parentId !== undefined && this.isDeleting(init.parentId))) {
      await this.settled(init.id);
      if (init.parentId !== undefined) await this.settled(init.parentId);
    }
    const { store } = this.options;
    const existing = store.get(init.id);
    if (existing) {
      this.assertSame(existing, init);
      return existing;
    }
    let originPlatform = init.originPlatform ?? init.platform;
    if (init.parentId !== undefined) {
      const parent = store.get(init.parentId);
      if (!parent) throw sessionErrors.AALIS_SESSION_PARENT_UNKNOWN({ id: init.id, parentId: init.parentId });
      const root = this.rootOfSync(parent);
      originPlatform = init.originPlatform ?? root.originPlatform ?? root.platform;
    }
    const now = this.now();
    const session: SessionInfo = {
      id: init.id,
      kind: init.kind,
      platform: init.platform,
      originPlatform,
      createdAt: now,
      updatedAt: now,
    };
    if (init.venue !== undefined) session.venue = init.venue;
    if (init.parentId !== undefined) session.parentId = init.parentId;
    if (init.originChat !== undefined) session.originChat = { multiParty: init.originChat.multiParty };
    if (init.title !== undefined) session.title = init.title;
    if (!store.insert(session)) return store.get(init.id)!;
    this.options.events.emit('session:created', { session });
    return session;
  }

  async get(sessionId: string): Promise<SessionInfo | undefined> {
    assertSessionId(sessionId);
    return this.options.store.get(sessionId);
  }

  async list(filter: SessionFilter = {}): Promise<SessionInfo[]> {
    return this.options.store.list(filter);
  }

  async children(sessionId: string): Promise<SessionInfo[]> {
    assertSessionId(sessionId);
    return this.options.store.children(sessionId);
  }

  async rootOf(sessionId: string): Promise<SessionInfo | undefined> {
    assertSessionId(sessionId);
    const session = this.options.store.get(sessionId);
    return session ? this.rootOfSync(session) : undefined;
  }

  async update(sessionId: string, patch: SessionPatch): Promise<SessionInfo> {
    assertSessionId(sessionId);
    assertValidPatch(sessionId, patch);
    const existing = this.options.store.get(sessionId);
    if (!existing) throw sessionErrors.AALIS_SESSION_UNKNOWN({ id: sessionId });
    const next: SessionInfo = { ...existing };
    const changes: string[] = [];
    for (const field of PATCH_FIELDS) {
      if (!(field in patch)) continue;
      const value = patch[field];
      if (value === undefined) continue;
      if (JSON.stringify(existing[field]) === JSON.stringify(value ?? undefined)) continue;
      changes.push(field);
      if (value === null) delete next[field];
      else if (field === 'originChat') next.originChat = { multiParty: (value as { multiParty: boolean }).multiParty };
      else next[field] = value as string;
    }
    if (changes.length === 0) return existing;
    next.updatedAt = this.now();
    this.options.store.save(next);
    this.options.events.emit('session:updated', { session: next, changes });
    return next;
  }

  async recordTurn(sessionId: string, lastTurn: LastTurn): Promise<void> {
    assertSessionId(sessionId);
    assertValidLastTurn(sessionId, lastTurn);
    const existing = this.options.store.get(sessionId);
    if (!existing) {
      this.options.logger.debug('turn of an unknown session not recorded', { sessionId, turnId: lastTurn.turnId });
      return;
    }
    const recorded: LastTurn = { turnId: lastTurn.turnId, outcome: lastTurn.outcome, at: lastTurn.at };
    if (lastTurn.error !== undefined) recorded.error = lastTurn.error;
    const next: SessionInfo = { ...existing, lastTurn: recorded, updatedAt: this.now() };
    this.options.store.save(next);
    this.options.events.emit('session:updated', { session: next, changes: ['lastTurn'] });
  }

  generationOf(sessionId: string): number {
    return this.generations.get(sessionId) ?? 0;
  }

  isDeleting(sessionId: string): boolean {
    return this.deletions.has(sessionId);
  }

  async settled(sessionId: string): Promise<void> {
    const running = this.deletions.get(sessionId);
    if (running)
      await running.then(
        () => undefined,
        () => undefined,
      );
  }

  async deleteSession(sessionId: string, options: DeleteSessionOptions = {}): Promise<DeleteSessionReport> {
    assertSessionId(sessionId);
    for (;;) {
      const running = this.deletions.get(sessionId);
      if (running) return running; // joins the deletion of this session or of an ancestor
      const subtree = this.options.store.subtreeDeepestFirst(sessionId);
      if (subtree.length === 0) throw sessionErrors.AALIS_SESSION_UNKNOWN({ id: sessionId });
      // A descendant already being deleted on its own: let that finish, then take what is left.
      const busy = subtree.flatMap((session) => this.deletions.get(session.id) ?? []);
      if (busy.length > 0) {
        await Promise.allSettled(busy);
        continue;
      }
      const ids = subtree.map((session) => session.id);
      // Bumped before anything else: inputs recorded with the old generation are from before the deletion.
      for (const id of ids) this.generations.set(id, this.generationOf(id) + 1);
      const deletion = this.runDeletion({ rootId: sessionId, subtree, reason: options.reason });
      for (const id of ids) this.deletions.set(id, deletion);
      try {
        return await deletion;
      } finally {
        for (const id of ids) if (this.deletions.get(id) === deletion) this.deletions.delete(id);
      }
    }
  }

  private async runDeletion({
    rootId,
    subtree,
    reason,
  }: {
    rootId: string;
    subtree: SessionInfo[];
    reason: string | undefined;
  }): Promise<DeleteSessionReport> {
    // Let the synchronous part of deleteSession mark the sessions before anything runs.
    await Promise.resolve();
    const { events, logger, store } = this.options;
    const ids = subtree.map((session) => session.id);
    const clear = async () => {
      for (const session of subtree) {
        const payload = { sessionId: session.id, session, rootId, ...(reason === undefined ? {} : { reason }) };
        await events.emitAsync('session:deleted', payload);
      }
      const memory = this.options.memory();
      if (memory) {
        try {
          await memory.clear(ids);
        } catch (error) {
          // The session goes anyway; its history rows stay behind until a later /clear of every session.
          logger.error('clearing the history of deleted sessions failed', { sessions: ids, error: String(error) });
        }
      }
      store.deleteAll(ids);
    };
    const agent = this.options.agent();
    if (agent) await agent.clearing(ids, clear, reason);
    else await clear();
    logger.info('session deleted', { session: rootId, sessions: ids.length, reason });
    return { deleted: ids };
  }

  private rootOfSync(session: SessionInfo): SessionInfo {
    let current = session;
    const seen = new Set([current.id]);
    while (current.parentId !== undefined) {
      const parent = this.options.store.get(current.parentId);
      if (!parent || seen.has(parent.id)) break;
      seen.add(parent.id);
      current = parent;
    }
    return current;
  }

  private assertSame(existing: SessionInfo, init: SessionInit): void {
    const pairs: [string, string | undefined, string | undefined][] = [
      ['kind', existing.kind, init.kind],
      ['platform', existing.platform, init.platform],
      ['parentId', existing.parentId, init.parentId],
    ];
    for (const [field, have, want] of pairs) {
      if (have !== want) {
        throw sessionErrors.AALIS_SESSION_CONFLICT({
          id: existing.id,
          field,
          existing: have ?? '(none)',
          requested: want ?? '(none)',
        });
      }
    }
  }
}
