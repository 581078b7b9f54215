// What the session manager needs from an engine: one implementation per engine (SQLite synchronous, PostgreSQL
// asynchronous), the same semantics, checked by one conformance suite.
import type { LastTurn, SessionFilter, SessionInfo } from '@aalis/api-session-manager';

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

/**
 * What another process did to session rows (PostgreSQL NOTIFY), for the copies this process keeps: `changed` rows
 * (updated or deleted) and children lists (by parent id), or `lost` / `watching` when the notices stopped or arrive again (so some may be missed).
 */
export type SessionRowChange =
  | { kind: 'changed'; rows: string[]; lists: string[] }
  | { kind: 'lost' }
  | { kind: 'watching' };

export interface SessionStore {
  get(id: string): Awaitable<SessionInfo | undefined>;
  /** Inserts unless the id exists; returns whether it inserted. */
  insert(info: SessionInfo): Awaitable<boolean>;
  /**
   * Replaces the columns `update` may change (venue, origin, title, `updatedAt`; not the last turn, which only
   * `saveLastTurn` writes) of an existing row; returns the row as it is now, or undefined when there is none.
   */
  save(info: SessionInfo): Awaitable<SessionInfo | undefined>;
  /**
   * Sets only the last turn and `updatedAt` (a change another process made to the other columns meanwhile stays)
   * and returns the row as it is now, or undefined when there is none.
   */
  saveLastTurn(id: string, lastTurn: LastTurn, updatedAt: number): Awaitable<SessionInfo | undefined>;
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
  /**
   * Engines shared by several processes: calls `listener` with other processes' changes to rows, and first with
   * `watching` once changes are watched. Absent: no other process writes (rows need no notices to stay current).
   */
  watchChanges?(listener: (change: SessionRowChange) => void): Promise<() => void>;
}

/** The subtree walk of both engines: levels of children, deepest first, each session once. */
export async function subtreeDeepestFirst(
  id: string,
  store: Pick<SessionStore, 'get' | 'children'>,
): Promise<SessionInfo[]> {
  const root = await store.get(id);
  if (!root) return [];
  const levels: SessionInfo[][] = [[root]];
  const seen = new Set([root.id]);
  for (;;) {
    const next: SessionInfo[] = [];
    for (const session of levels[levels.length - 1]!) {
      for (const child of await store.children(session.id)) if (!seen.has(child.id)) next.push(child);
    }
    if (next.length === 0) break;
    for (const child of next) seen.add(child.id);
    levels.push(next);
  }
  return levels.reverse().flat();
}
