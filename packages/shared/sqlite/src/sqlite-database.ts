// One SQLite database per data directory: WAL mode, writes in BEGIN IMMEDIATE transactions, and per-namespace
// versioned migrations recorded in schema_migrations and run on open.
import Database from 'better-sqlite3';
import { RowCache } from './row-cache.js';
import { WalCheckpoints } from './wal-checkpoints.js';

export type Connection = Database.Database;

export interface Migration {
  /** Strictly increasing within a namespace, starting at 1. */
  version: number;
  name: string;
  /** SQL run in one transaction, or a function for data migrations. */
  up: string | ((connection: Connection) => void);
}

/**
 * Most writes one scheduled group commit takes; the rest are committed in the next loop turn. A burst of every
 * session's writes in one commit (100 sessions: up to 100 writes) held the loop for the whole burst and released every
 * session at once, so they all sent their next requests together and met again at the next commit; commits of 16 let
 * the first sessions go on while the rest wait, at no cost measured (small appends with an index and a counter:
 * 58–67 µs per write at 16 per commit, 59–108 at 100, 77–200 one by one; docs/decisions/turn-cost.md, "The tail").
 */
export const GROUP_COMMIT_MAX = 16;

interface QueuedWrite {
  fn: (connection: Connection) => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class SqliteDatabase {
  readonly connection: Connection;
  private closed = false;
  private readonly statements = new Map<string, Database.Statement>();
  /** Writes of this event-loop turn waiting for their shared commit (writeSoon). */
  private queued: QueuedWrite[] = [];
  private flushScheduled = false;
  /** One transaction wrapper for every write (building one per call costs about as much as a small insert). */
  private readonly transaction: Database.Transaction<(fn: (connection: Connection) => unknown) => unknown>;
  /** WAL checkpoints in a worker thread, not inside a commit on this one (wal-checkpoints.ts). */
  private readonly checkpoints: WalCheckpoints | undefined;
  /** See changeToken: moves on with another connection's commit or a rollback of this one's. */
  private token = 0;
  private dataVersion: number | undefined;
  private dataVersionStatement: Database.Statement | undefined;
  /** The outermost write transaction running (0: none), and the one changeToken last asked the database in. */
  private writeSerial = 0;
  private writesStarted = 0;
  private checkedInWrite = 0;
  private readonly rowCaches = new Map<string, RowCache<unknown>>();

  constructor(readonly path: string) {
    this.connection = new Database(path);
    this.connection.pragma('journal_mode = WAL');
    this.connection.pragma('synchronous = NORMAL');
    this.connection.pragma('foreign_keys = ON');
    this.connection.pragma('busy_timeout = 5000');
    this.checkpoints =
      this.connection.pragma('journal_mode', { simple: true }) === 'wal'
        ? new WalCheckpoints(this.connection, path)
        : undefined;
    this.transaction = this.connection.transaction((fn: (connection: Connection) => unknown) => fn(this.connection));
    this.connection.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      namespace TEXT NOT NULL,
      version INTEGER NOT NULL,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL,
      PRIMARY KEY (namespace, version)
    )`);
  }

  /**
   * The prepared statement for a fixed SQL text, compiled once and reused (compiling costs more than running a
   * small query). Use it for SQL without interpolated values; dynamic SQL should go through `connection.prepare`.
   */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT (rolled back on throw). Nested calls use savepoints. */
  write<T>(fn: (connection: Connection) => T): T {
    // Writes queued by writeSoon commit first, so writes take effect in the order they were asked for.
    if (this.queued.length > 0 && !this.connection.inTransaction) this.flushWrites();
    const nested = this.connection.inTransaction;
    if (nested) return this.savepoint(fn);
    this.writeSerial = ++this.writesStarted;
    let result: T;
    try {
      result = this.transaction.immediate(fn) as T;
    } catch (error) {
      // Rolled back (or never begun): rows cached during it may hold what was not committed.
      this.token++;
      throw error;
    } finally {
      this.writeSerial = 0;
    }
    this.checkpoints?.committed();
    return result;
  }

  /** `fn` in a savepoint of the open transaction; a throw rolls the savepoint back, and row caches with it. */
  private savepoint<T>(fn: (connection: Connection) => T): T {
    try {
      return this.transaction(fn) as T;
    } catch (error) {
      this.token++;
      throw error;
    }
  }

  /**
   * A number that moves on whenever rows this connection read may have changed behind its back: another connection
   * committed (PRAGMA data_version moves only for other connections' commits, other processes' included), or a
   * write transaction or savepoint of this one rolled back. Rows cached while it stays the same are what the
   * database holds, given that this connection's own writes update their caches (RowCache). Inside a write
   * transaction no other connection can commit, so the database is asked once per transaction; outside, every time.
   */
  changeToken(): number {
    const inWrite = this.writeSerial !== 0 && this.connection.inTransaction;
    if (inWrite && this.checkedInWrite === this.writeSerial) return this.token;
    this.dataVersionStatement ??= this.connection.prepare('PRAGMA data_version').pluck();
    const version = this.dataVersionStatement.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.token++;
    }
    this.checkedInWrite = inWrite ? this.writeSerial : 0;
    return this.token;
  }

  /** The row cache of this name on this connection (one per name, shared by every store using it; row-cache.ts). */
  rowCache<V>(name: string): RowCache<V> {
    let cache = this.rowCaches.get(name);
    if (!cache) {
      cache = new RowCache<unknown>(this);
      this.rowCaches.set(name, cache);
    }
    return cache as RowCache<V>;
  }

  /**
   * Group commit: runs `fn` in a write transaction shared by every writeSoon of this event-loop turn (after its
   * other callbacks), each in a savepoint of its own, so one that throws is rolled back and rejected alone. A commit
   * writes every page it changed to the WAL once, so many small writes of many sessions cost much less together
   * (docs/decisions/turn-cost.md). `write` and `flushWrites` commit what is queued first.
   */
  writeSoon<T>(fn: (connection: Connection) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.flushScheduled) return;
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    this.flushScheduled = true;
    setImmediate(() => this.flushSome());
  }

  /**
   * The scheduled group commit: the first GROUP_COMMIT_MAX queued writes, the rest in the next loop turn, ahead of
   * anything queued meanwhile (writes take effect in the order asked for; `write` and `flushWrites` still commit
   * everything queued first).
   */
  private flushSome(): void {
    const rest = this.queued.splice(GROUP_COMMIT_MAX);
    this.flushWrites();
    if (rest.length === 0) return;
    this.queued = rest.concat(this.queued);
    if (!this.flushScheduled) this.scheduleFlush();
  }

  /** Commits the writes writeSoon queued, now (one transaction). */
  flushWrites(): void {
    this.flushScheduled = false;
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    if (batch.length === 1) {
      const [only] = batch as [QueuedWrite];
      let value: unknown;
      try {
        value = this.write(only.fn);
      } catch (error) {
        only.reject(error);
        return;
      }
      only.resolve(value);
      return;
    }
    const outcomes: (() => void)[] = [];
    try {
      this.write(() => {
        for (const entry of batch) {
          try {
            // Nested in the open transaction: a savepoint, rolled back alone when fn throws.
            const value = this.savepoint(entry.fn);
            outcomes.push(() => entry.resolve(value));
          } catch (error) {
            outcomes.push(() => entry.reject(error));
          }
        }
      });
    } catch (error) {
      // The commit itself failed (busy past the timeout, or closed): nothing of the batch was stored.
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const outcome of outcomes) outcome();
  }

  /** Applies the namespace's migrations not applied yet, each in its own transaction. Returns the versions applied. */
  migrate(namespace: string, migrations: readonly Migration[]): number[] {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    sorted.forEach((migration, index) => {
      if (migration.version !== index + 1) {
        throw new Error(
          `Migrations of "${namespace}" must be numbered 1, 2, 3… without gaps (found ${migration.version}).`,
        );
      }
    });
    const row = this.connection
      .prepare('SELECT MAX(version) AS version FROM schema_migrations WHERE namespace = ?')
      .get(namespace) as { version: number | null };
    const current = row.version ?? 0;
    const applied: number[] = [];
    for (const migration of sorted) {
      if (migration.version <= current) continue;
      // Another process opening the same data directory may have applied it since the read above: look again inside
      // the write lock (BEGIN IMMEDIATE), so two processes starting together never run one migration twice.
      const ran = this.write((connection) => {
        const done = connection
          .prepare('SELECT 1 FROM schema_migrations WHERE namespace = ? AND version = ?')
          .get(namespace, migration.version);
        if (done !== undefined) return false;
        if (typeof migration.up === 'string') connection.exec(migration.up);
        else migration.up(connection);
        connection
          .prepare('INSERT INTO schema_migrations (namespace, version, name, applied_at) VALUES (?, ?, ?, ?)')
          .run(namespace, migration.version, migration.name, Date.now());
        return true;
      });
      if (ran) applied.push(migration.version);
    }
    return applied;
  }

  schemaVersion(namespace: string): number {
    const row = this.connection
      .prepare('SELECT MAX(version) AS version FROM schema_migrations WHERE namespace = ?')
      .get(namespace) as { version: number | null };
    return row.version ?? 0;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.flushWrites();
    this.closed = true;
    this.checkpoints?.close();
    this.connection.close();
  }
}
