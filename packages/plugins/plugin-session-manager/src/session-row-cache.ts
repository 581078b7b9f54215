// Per-process copies of session rows and of children lists (a turn read its session's row a dozen times and the session
// server listed its children once per client and announcement, each a round trip to PostgreSQL). Kept current by the
// store's change notices; trusted only while those notices can arrive.

import type { SessionInfo } from '@aalis/api-session-manager';
import { setBounded } from '@aalis/core';

/** Rows (and children lists) kept at most; the least recently used go first. */
const DEFAULT_LIMIT = 10_000;

/** What a mark holds: the change counts when a read was asked, compared when its answer comes. */
export type CacheMark = string;

/**
 * A read or a write fills the cache only if nothing touched its key (a write here, another process's change notice,
 * a lost notice connection) between the moment it was asked and its answer: a row read or written before another
 * change committed can then never stay behind as the current one, whichever of the answer and the notice comes
 * first. A write touches its row and its parent's children list (which holds the row); another process's notice
 * names the rows and lists it changed (a deletion: ids whose row and list both go).
 */
export class SessionRowCache {
  private readonly rows = new Map<string, SessionInfo>();
  /** Parent id → its children, in the store's order. */
  private readonly lists = new Map<string, SessionInfo[]>();
  /** Reads in flight, joined by reads of the same key asked while nothing touched it. */
  private readonly pending = new Map<string, { mark: CacheMark; answer: Promise<unknown> }>();
  /** Per key (`row:<id>`, `children:<id>`): moves on with every change; keys not in it are at the global count. */
  private readonly touched = new Map<string, number>();
  /** Moves on when everything is dropped at once (notices missed). */
  private everything = 0;
  private trusted = false;

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** The row: a copy of the one held, else read (joining a read of it in flight) and kept. */
  row(id: string, read: () => Promise<SessionInfo | undefined>): Promise<SessionInfo | undefined> {
    const held = this.trusted ? hit(this.rows, id) : undefined;
    if (held) return Promise.resolve(copy(held));
    return this.through(`row:${id}`, read, (row) => {
      if (row) setBounded(this.rows, id, copy(row), this.limit);
    }).then((row) => row && copy(row));
  }

  /** The children of `parentId`, as `row` does it. */
  children(parentId: string, read: () => Promise<SessionInfo[]>): Promise<SessionInfo[]> {
    const held = this.trusted ? hit(this.lists, parentId) : undefined;
    if (held) return Promise.resolve(held.map(copy));
    return this.through(`children:${parentId}`, read, (list) =>
      setBounded(this.lists, parentId, list.map(copy), this.limit),
    ).then((list) => list.map(copy));
  }

  /**
   * A write of row `id` by this process, answering the row as it left it (undefined: there was none). The row is
   * kept unless it was touched meanwhile (another process's change may have committed after this write and been
   * noticed before its answer); reads in flight are not kept, nor its parent's children list.
   */
  async write<T extends SessionInfo | undefined>(id: string, write: () => Promise<T>): Promise<T> {
    const mark = this.mark(`row:${id}`);
    let row: T;
    try {
      row = await write();
    } catch (error) {
      // It may have committed all the same.
      this.drop([id]);
      throw error;
    }
    const fresh = this.trusted && mark === this.mark(`row:${id}`);
    this.touch(`row:${id}`);
    if (row?.parentId !== undefined) this.touch(`children:${row.parentId}`);
    if (row && fresh) setBounded(this.rows, id, copy(row), this.limit);
    return row;
  }

  /** Ids whose rows and children changed (here or in another process): dropped, reads in flight not kept. */
  drop(ids: readonly string[]): void {
    this.dropChanged(ids, ids);
  }

  /** Rows (by id) and children lists (by parent id) another process changed: dropped, reads in flight not kept. */
  dropChanged(rows: readonly string[], lists: readonly string[]): void {
    for (const id of rows) this.touch(`row:${id}`);
    for (const id of lists) this.touch(`children:${id}`);
  }

  /** Everything dropped; `trusted`: whether notices arrive from now on (false while their connection is down). */
  reset(trusted: boolean): void {
    this.everything++;
    this.touched.clear();
    this.rows.clear();
    this.lists.clear();
    this.trusted = trusted;
  }

  get size(): number {
    return this.rows.size + this.lists.size;
  }

  private mark(key: string): CacheMark {
    return `${this.everything}:${this.touched.get(key) ?? 0}`;
  }

  private touch(key: string): void {
    this.touched.set(key, (this.touched.get(key) ?? 0) + 1);
    if (key.startsWith('row:')) this.rows.delete(key.slice(4));
    else this.lists.delete(key.slice(9));
    // The marks only need to tell "changed since" apart: past the bound, everything in flight is disowned at once.
    if (this.touched.size > 4 * this.limit) this.reset(this.trusted);
  }

  private through<T>(key: string, read: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const mark = this.mark(key);
    const joined = this.pending.get(key);
    if (joined && joined.mark === mark) return joined.answer as Promise<T>;
    const answer = read();
    this.pending.set(key, { mark, answer });
    const settle = () => {
      if (this.pending.get(key)?.answer === answer) this.pending.delete(key);
    };
    return answer.then(
      (value) => {
        settle();
        if (this.trusted && this.mark(key) === mark) keep(value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
  }
}

function hit<T>(map: Map<string, T>, key: string): T | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  // Least recently used first out: a hit moves the entry to the end of the insertion order.
  map.delete(key);
  map.set(key, value);
  return value;
}

/** Callers get their own object: a caller changing what it got must not change the cached row. */
function copy(row: SessionInfo): SessionInfo {
  const result: SessionInfo = { ...row };
  if (row.originChat) result.originChat = { ...row.originChat };
  if (row.lastTurn) result.lastTurn = { ...row.lastTurn };
  return result;
}
