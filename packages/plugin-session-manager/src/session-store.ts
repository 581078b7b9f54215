// What the session manager needs from an engine: one implementation per engine (SQLite synchronous, PostgreSQL
// asynchronous), the same semantics, checked by one conformance suite.
import type { SessionFilter, SessionInfo } from '@aalis/api-session-manager';

type Awaitable<T> = T | Promise<T>;

/**
 * A deletion told to the other processes on the same database (PostgreSQL NOTIFY): `deleting` when it begins (the
 * root's generation moves on), `deleted` for each session of the subtree as its session:deleted goes out.
 */
export interface DeletionNotice {
  /** The announcing session manager (each ignores its own). */
  origin: string;
  phase: 'deleting' | 'deleted';
  rootId: string;
  /** With `deleted`: the session the notice is about. */
  session?: SessionInfo;
  reason?: string;
}

export interface SessionStore {
  get(id: string): Awaitable<SessionInfo | undefined>;
  /** Inserts unless the id exists; returns whether it inserted. */
  insert(info: SessionInfo): Awaitable<boolean>;
  /** Replaces the mutable columns of an existing row; returns whether it existed. */
  save(info: SessionInfo): Awaitable<boolean>;
  list(filter?: SessionFilter): Awaitable<SessionInfo[]>;
  children(id: string): Awaitable<SessionInfo[]>;
  /** The session and all its descendants, deepest level first; the session itself last. */
  subtreeDeepestFirst(id: string): Awaitable<SessionInfo[]>;
  /** Deletes rows in the given order (children before parents) in one transaction. */
  deleteAll(ids: readonly string[]): Awaitable<void>;
  /** Engines shared by several processes tell them of deletions (absent: nobody else to tell). */
  announceDeletion?(notice: DeletionNotice): Promise<void>;
  /** Calls `listener` with every deletion notice of any process (its own too). Returns the remover. */
  watchDeletions?(listener: (notice: DeletionNotice) => void): Promise<() => void>;
}

/** The subtree walk of both engines: levels of children, deepest first, each session once. */
export async function subtreeDeepestFirst(
  id: string,
  get: (id: string) => Awaitable<SessionInfo | undefined>,
  children: (id: string) => Awaitable<SessionInfo[]>,
): Promise<SessionInfo[]> {
  const root = await get(id);
  if (!root) return [];
  const levels: SessionInfo[][] = [[root]];
  const seen = new Set([root.id]);
  for (;;) {
    const next: SessionInfo[] = [];
    for (const session of levels[levels.length - 1]!) {
      for (const child of await children(session.id)) if (!seen.has(child.id)) next.push(child);
    }
    if (next.length === 0) break;
    for (const child of next) seen.add(child.id);
    levels.push(next);
  }
  return levels.reverse().flat();
}
