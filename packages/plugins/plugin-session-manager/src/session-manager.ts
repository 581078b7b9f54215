// The session manager: sessions in the storage engine (SQLite or PostgreSQL; on PostgreSQL copies of the rows in
// memory, kept current by the store's change notices), deletion generations in memory (kept current across processes
// by the store's deletion notices), and deletion handed to the agent's clearing chain (children first,
// session:deleted, memory clear, rows).
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
import { SessionRowCache } from './session-row-cache.js';
import type { DeletionNotice, SessionStore } from './session-store.js';

export interface SessionManagerOptions {
  store: SessionStore;
  events: Pick<Events, 'emit' | 'emitAsync'>;
  logger: Logger;
  /** The agent now, if present: deletion goes through its clearing(). */
  agent(): AgentService | undefined;
  /** The memory service now, if present: its clear chain runs for deleted sessions. */
  memory(): MemoryService | undefined;
  now?(): number;
}

const PATCH_FIELDS = ['title', 'originChat', 'originPlatform', 'venue', 'pinnedAt', 'archivedAt'] as const;

export class SessionManager implements SessionManagerService {
  /** Per process: compared only within one lifetime (an input in flight never outlives the process). */
  private readonly generations = new Map<string, number>();
  /** Session id → the deletion in progress that covers it (its own, or an ancestor's). */
  private readonly deletions = new Map<string, Promise<DeleteSessionReport>>();
  /** Session id → parent id, of every session this process has read (parents never change). */
  private readonly parents = new Map<string, string>();
  private readonly now: () => number;
  /** Tells this manager's deletion notices from other processes' (the store's channel carries both). */
  private readonly origin = globalThis.crypto.randomUUID();
  /** Notices of other processes are applied one after another, in the order they came. */
  private noticesDone: Promise<void> = Promise.resolve();
  private announced: Promise<void> = Promise.resolve();
  /**
   * Rows and children lists read or written here, for stores whose other writers send change notices (PostgreSQL:
   * a turn asks for its session a dozen times). Without notices (SQLite, which a second process on the data
   * directory may write) every read goes to the store, which answers in microseconds there.
   */
  private readonly rows: SessionRowCache | undefined;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
    this.rows = options.store.watchChanges ? new SessionRowCache() : undefined;
  }

  async ensure(init: SessionInit): Promise<SessionInfo> {
    assertValidSessionInit(init);
    // A session (or the parent of one) being deleted is created anew only once the deletion finished.
    while (this.isDeleting(init.id) || (init.parentId !== undefined && this.isDeleting(init.parentId))) {
      await this.settled(init.id);
      if (init.parentId !== undefined) await this.settled(init.parentId);
    }
    const { store } = this.options;
    const existing = await this.read(init.id);
    if (existing) {
      this.assertSame(existing, init);
      return existing;
    }
    let originPlatform = init.originPlatform ?? init.platform;
    if (init.parentId !== undefined) {
      const parent = await this.read(init.parentId);
      if (!parent) throw sessionErrors.AALIS_SESSION_PARENT_UNKNOWN({ id: init.id, parentId: init.parentId });
      const root = await this.rootOfStored(parent);
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
    this.remember(session);
    const inserted = await this.write(session.id, async () => ((await store.insert(session)) ? session : undefined));
    if (!inserted) return (await this.read(init.id))!;
    this.options.events.emit('session:created', { session });
    return session;
  }

  async get(sessionId: string): Promise<SessionInfo | undefined> {
    assertSessionId(sessionId);
    return this.read(sessionId);
  }

  /** The row, from the copies when held, else from the store (and then kept, unless it changed meanwhile). */
  private async read(sessionId: string): Promise<SessionInfo | undefined> {
    const { store } = this.options;
    if (!this.rows) return this.remember(await store.get(sessionId));
    return this.remember(await this.rows.row(sessionId, async () => store.get(sessionId)));
  }

  /** A write of the row through the copies (when kept): see SessionRowCache.write. */
  private write<T extends SessionInfo | undefined>(sessionId: string, write: () => Promise<T>): Promise<T> {
    return this.rows ? this.rows.write(sessionId, write) : write();
  }

  async list(filter: SessionFilter = {}): Promise<SessionInfo[]> {
    return this.options.store.list(filter);
  }

  async children(sessionId: string): Promise<SessionInfo[]> {
    assertSessionId(sessionId);
    const { store } = this.options;
    const children = this.rows
      ? await this.rows.children(sessionId, async () => store.children(sessionId))
      : await store.children(sessionId);
    return children.map((child) => this.remember(child));
  }

  async rootOf(sessionId: string): Promise<SessionInfo | undefined> {
    assertSessionId(sessionId);
    const session = await this.read(sessionId);
    return session ? this.rootOfStored(session) : undefined;
  }

  async update(sessionId: string, patch: SessionPatch): Promise<SessionInfo> {
    assertSessionId(sessionId);
    assertValidPatch(sessionId, patch);
    const existing = await this.options.store.get(sessionId);
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
      else if (field === 'pinnedAt' || field === 'archivedAt') next[field] = value as number;
      else next[field] = value as string;
    }
    if (changes.length === 0) return existing;
    next.updatedAt = this.now();
    // The row as saved: its last turn as it is now (the save leaves that column to recordTurn).
    const saved = await this.write(sessionId, async () => this.options.store.save(next));
    if (!saved) throw sessionErrors.AALIS_SESSION_UNKNOWN({ id: sessionId });
    this.options.events.emit('session:updated', { session: saved, changes });
    return saved;
  }

  async recordTurn(sessionId: string, lastTurn: LastTurn): Promise<void> {
    assertSessionId(sessionId);
    assertValidLastTurn(sessionId, lastTurn);
    const recorded: LastTurn = { turnId: lastTurn.turnId, outcome: lastTurn.outcome, at: lastTurn.at };
    if (lastTurn.error !== undefined) recorded.error = lastTurn.error;
    // One statement that changes only these columns (it used to read the row and write all of it back).
    const next = await this.write(sessionId, async () =>
      this.options.store.saveLastTurn(sessionId, recorded, this.now()),
    );
    if (!next) {
      this.options.logger.debug('turn of an unknown session not recorded', { sessionId, turnId: lastTurn.turnId });
      return;
    }
    this.options.events.emit('session:updated', { session: next, changes: ['lastTurn'] });
  }

  generationOf(sessionId: string): number {
    return this.generations.get(sessionId) ?? 0;
  }

  isDeleting(sessionId: string): boolean {
    return this.deletionCovering(sessionId) !== undefined;
  }

  async settled(sessionId: string): Promise<void> {
    const running = this.deletionCovering(sessionId);
    if (running)
      await running.then(
        () => undefined,
        () => undefined,
      );
  }

  /**
   * The deletion of the session or of a known ancestor. Parents never change, so the ancestry this process has seen
   * answers at once, before a deletion has read its subtree from the store.
   */
  private deletionCovering(sessionId: string): Promise<DeleteSessionReport> | undefined {
    const seen = new Set<string>();
    for (let id: string | undefined = sessionId; id !== undefined && !seen.has(id); id = this.parents.get(id)) {
      seen.add(id);
      const running = this.deletions.get(id);
      if (running) return running;
    }
    return undefined;
  }

  private remember<T extends SessionInfo | undefined>(session: T): T {
    if (session?.parentId !== undefined) this.parents.set(session.id, session.parentId);
    return session;
  }

  async deleteSession(sessionId: string, options: DeleteSessionOptions = {}): Promise<DeleteSessionReport> {
    assertSessionId(sessionId);
    const running = this.deletionCovering(sessionId);
    if (running) return running; // joins the deletion of this session or of an ancestor
    // Marked (and its generation bumped) at once: inputs recorded with the old generation are from before it.
    this.generations.set(sessionId, this.generationOf(sessionId) + 1);
    // Every other process on the database bumps it too, so what they collected is released as well.
    void this.announce({ phase: 'deleting', rootId: sessionId, ...(options.reason ? { reason: options.reason } : {}) });
    let ids: string[] = [sessionId];
    // Assigned before the first await below, so the body can register itself under every id.
    let deletion!: Promise<DeleteSessionReport>;
    deletion = (async () => {
      for (;;) {
        const subtree = (await this.options.store.subtreeDeepestFirst(sessionId)).map((s) => this.remember(s));
        if (subtree.length === 0) throw sessionErrors.AALIS_SESSION_UNKNOWN({ id: sessionId });
        // A descendant already being deleted on its own: let that finish, then take what is left.
        const busy = subtree.flatMap((session) => {
          const other = this.deletions.get(session.id);
          return other && other !== deletion ? [other] : [];
        });
        if (busy.length > 0) {
          await Promise.allSettled(busy);
          continue;
        }
        ids = subtree.map((session) => session.id);
        for (const id of ids) {
          if (id !== sessionId) this.generations.set(id, this.generationOf(id) + 1);
          this.deletions.set(id, deletion);
        }
        return this.runDeletion({ rootId: sessionId, subtree, reason: options.reason });
      }
    })();
    this.deletions.set(sessionId, deletion);
    try {
      return await deletion;
    } finally {
      for (const id of ids) if (this.deletions.get(id) === deletion) this.deletions.delete(id);
      if (this.deletions.get(sessionId) === deletion) this.deletions.delete(sessionId);
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
    const { events, logger, store } = this.options;
    const ids = subtree.map((session) => session.id);
    const clear = async () => {
      for (const session of subtree) {
        const payload = { sessionId: session.id, session, rootId, ...(reason === undefined ? {} : { reason }) };
        await this.announce({ phase: 'deleted', rootId, session, ...(reason === undefined ? {} : { reason }) });
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
      await store.deleteAll(ids);
      // The rows, and the children lists that held them.
      this.rows?.drop([...ids, ...subtree.flatMap((session) => (session.parentId ? [session.parentId] : []))]);
    };
    const agent = this.options.agent();
    if (agent) await agent.clearing(ids, clear, reason);
    else await clear();
    logger.info('session deleted', { session: rootId, sessions: ids.length, reason });
    return { deleted: ids };
  }

  /**
   * Applies other processes' deletions here (engines shared by several processes): the generations move on as
   * they did there, the agent here stops the session's turn and drops what it collected, unarchived (「会话删除」),
   * through its clearing chain as a deletion here would, and session:deleted goes out here so listeners forget it.
   */
  async watchOtherProcesses(): Promise<() => void> {
    const { store } = this.options;
    const stopChanges = store.watchChanges
      ? await store.watchChanges((change) => {
          if (change.kind === 'changed') this.rows?.dropChanged(change.rows, change.lists);
          else this.rows?.reset(change.kind === 'watching');
        })
      : () => {};
    if (!store.watchDeletions) return stopChanges;
    const stopDeletions = await store.watchDeletions((notice) => {
      if (notice.origin === this.origin) return;
      this.noticesDone = this.noticesDone
        .then(() => this.applyNotice(notice))
        .catch((error: unknown) =>
          this.options.logger.warn('a deletion of another process was not applied here', { error: String(error) }),
        );
    });
    return () => {
      stopDeletions();
      stopChanges();
    };
  }

  private async applyNotice(notice: DeletionNotice): Promise<void> {
    const { rootId, session } = notice;
    if (notice.phase === 'deleting') {
      this.generations.set(rootId, this.generationOf(rootId) + 1);
      return;
    }
    if (!session) return;
    if (session.id !== rootId) this.generations.set(session.id, this.generationOf(session.id) + 1);
    const payload = { sessionId: session.id, session, rootId, ...(notice.reason ? { reason: notice.reason } : {}) };
    const emit = () => this.options.events.emitAsync('session:deleted', payload);
    try {
      // As on the deleting process: the session's turn here is stopped (and what waits dropped) first.
      const agent = this.options.agent();
      if (agent) await agent.clearing([session.id], emit, notice.reason);
      else await emit();
    } catch (error) {
      this.options.logger.warn('a deletion of another process could not be applied here', {
        sessionId: session.id,
        error: String(error),
      });
    }
  }

  /** Sends a notice after the ones before it (each NOTIFY may take another pooled connection). */
  private announce(notice: Omit<DeletionNotice, 'origin'>): Promise<void> {
    const store = this.options.store;
    if (!store.announceDeletion) return Promise.resolve();
    this.announced = this.announced.then(async () => {
      try {
        await store.announceDeletion?.({ origin: this.origin, ...notice });
      } catch (error) {
        this.options.logger.warn('other processes could not be told of a deletion', {
          sessionId: notice.rootId,
          error: String(error),
        });
      }
    });
    return this.announced;
  }

  private async rootOfStored(session: SessionInfo): Promise<SessionInfo> {
    let current = session;
    const seen = new Set([current.id]);
    while (current.parentId !== undefined) {
      const parent = await this.read(current.parentId);
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
