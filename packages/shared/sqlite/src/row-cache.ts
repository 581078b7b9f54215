// Copies of rows kept in memory against one connection, valid only while nothing can have changed them behind its
// back: they are dropped together when another connection committed (PRAGMA data_version, which moves only for
// other connections' commits, other processes included) or a write of this connection rolled back
// (SqliteDatabase.changeToken). One cache per name and database, shared by every store on the connection.

/** What a row cache needs of its database (SqliteDatabase). */
export interface ChangeTokens {
  /** Moves on whenever rows read before may no longer be what the database holds. */
  changeToken(): number;
}

/** Rows kept at most; beyond it the cache starts again (one small object per session). */
const DEFAULT_LIMIT = 10_000;

export class RowCache<V> {
  private readonly rows = new Map<string, V>();
  private token = Number.NaN;

  constructor(
    private readonly database: ChangeTokens,
    private readonly limit = DEFAULT_LIMIT,
  ) {}

  /**
   * The row kept for `key`, else `load()`'s answer, kept. The validity check comes before the load: a commit of
   * another connection between the two makes the next read drop what was loaded, never keep it as current.
   */
  read(key: string, load: () => V): V {
    const token = this.database.changeToken();
    if (token !== this.token) {
      this.rows.clear();
      this.token = token;
    } else {
      const held = this.rows.get(key);
      if (held !== undefined) return held;
    }
    const value = load();
    this.keep(key, value);
    return value;
  }

  /**
   * A row this connection has just written, inside the write transaction that read it through `read` (its rollback
   * drops the whole cache, so a value kept here never outlives a write that did not commit).
   */
  set(key: string, value: V): void {
    this.keep(key, value);
  }

  delete(key: string): void {
    this.rows.delete(key);
  }

  clear(): void {
    this.rows.clear();
  }

  private keep(key: string, value: V): void {
    if (this.rows.size >= this.limit && !this.rows.has(key)) this.rows.clear();
    this.rows.set(key, value);
  }
}
