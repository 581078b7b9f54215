// Per-process copies of session rows (issue #16: a turn read its session's row a dozen times, each a round trip to
// PostgreSQL). Kept current by the store's change notices; trusted only while those notices can arrive.
import type { SessionInfo } from '@aalis/api-session-manager';

/** Rows kept at most; the least recently used go first. */
const DEFAULT_LIMIT = 10_000;

/**
 * A read fills the cache only if nothing touched its id (a write here, another process's change notice, a lost
 * notice connection) between the moment it was asked and its answer: a row read before a change committed can
 * then never stay behind as the current one, whichever of the answer and the notice comes first.
 */
export class SessionRowCache {
  private readonly rows = new Map<string, SessionInfo>();
  /** Per id: moves on with every change; ids not in it are at the global count. */
  private readonly touched = new Map<string, number>();
  /** Moves on when every row is dropped at once (notices missed). */
  private everything = 0;
  private trusted = false;

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** A copy of the row, or undefined when it is not held (or notices cannot be trusted now). */
  get(id: string): SessionInfo | undefined {
    if (!this.trusted) return undefined;
    const row = this.rows.get(id);
    if (!row) return undefined;
    // Least recently used last out: a hit moves the row to the end of the insertion order.
    this.rows.delete(id);
    this.rows.set(id, row);
    return copy(row);
  }

  /** A mark to hand to `fill` with what a read started now returned. */
  mark(id: string): string {
    return `${this.everything}:${this.touched.get(id) ?? 0}`;
  }

  /** Keeps the row read since `mark` unless something touched its id meanwhile. */
  fill(mark: string, row: SessionInfo | undefined): void {
    if (!row || !this.trusted || mark !== this.mark(row.id)) return;
    this.put(row);
  }

  /** A write by this process: its row is the current one (and reads in flight are from before it). */
  wrote(row: SessionInfo): void {
    this.touch(row.id);
    if (this.trusted) this.put(row);
  }

  /** Rows changed or deleted (here or by another process): dropped, reads in flight not kept. */
  drop(ids: readonly string[]): void {
    for (const id of ids) {
      this.touch(id);
      this.rows.delete(id);
    }
  }

  /** Every row dropped; `trusted`: whether notices arrive from now on (false while their connection is down). */
  reset(trusted: boolean): void {
    this.everything++;
    this.touched.clear();
    this.rows.clear();
    this.trusted = trusted;
  }

  get size(): number {
    return this.rows.size;
  }

  private touch(id: string): void {
    this.touched.set(id, (this.touched.get(id) ?? 0) + 1);
    // The marks only need to tell "changed since" apart: an id without a held row and in-flight reads can forget.
    if (this.touched.size > 4 * this.limit) {
      this.everything++;
      this.touched.clear();
    }
  }

  private put(row: SessionInfo): void {
    this.rows.delete(row.id);
    this.rows.set(row.id, copy(row));
    if (this.rows.size > this.limit) this.rows.delete(this.rows.keys().next().value!);
  }
}

/** Callers get their own object: a caller changing what it got must not change the cached row. */
function copy(row: SessionInfo): SessionInfo {
  const result: SessionInfo = { ...row };
  if (row.originChat) result.originChat = { ...row.originChat };
  if (row.lastTurn) result.lastTurn = { ...row.lastTurn };
  return result;
}
