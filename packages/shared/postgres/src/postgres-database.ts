// One PostgreSQL database behind a pg Pool: queries, transactions (BEGIN … COMMIT on one pooled client, rolled back
// on throw), per-namespace versioned migrations recorded in schema_migrations, and LISTEN/NOTIFY. Statements with
// parameters run as named prepared statements (parsed and planned once per connection; docs/decisions/
// postgres-prepared-statements.md).
import pg from 'pg';

/** A pooled client or the pool itself: both run `query`. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface PostgresMigration {
  /** Strictly increasing within a namespace, starting at 1. */
  version: number;
  name: string;
  /** SQL run in one transaction, or a function for data migrations. */
  up: string | ((client: Queryable) => Promise<void>);
}

// BIGINT columns (epoch milliseconds, counters) come back as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Distinct statement texts given a name at most: the fixed SQL of the stores is a few dozen; text built per call
 * (a VALUES list per batch size, filters) past this runs unnamed, so no connection collects statements forever.
 */
const NAMED_LIMIT = 500;

/** Key of the advisory lock that serialises migrations of every process on one database. */
const MIGRATION_LOCK = 0x4161_6c69;

export class PostgresDatabase {
  readonly pool: pg.Pool;
  private closed = false;
  private listener: pg.Client | undefined;
  private listenerReady: Promise<pg.Client> | undefined;
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly lostListeners = new Set<() => void>();
  /** Statement text → its prepared statement's name (the same on every connection of the pool). */
  private readonly names = new Map<string, string>();
  /** The pool as a Queryable whose statements with parameters are named, like `query`'s. */
  readonly queryable: Queryable;

  constructor(
    readonly url: string,
    options: { max?: number } = {},
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, idleTimeoutMillis: 30_000 });
    // An idle client whose server went away emits 'error' on the pool; the next query gets a fresh client.
    this.pool.on('error', () => {});
    this.queryable = this.naming(this.pool);
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(this.statement(sql, params))).rows;
  }

  /**
   * The query as pg runs it: with parameters, under a name of its text, so each connection parses and plans it
   * once (a turn runs about fifteen statements; parsing and planning each again was PostgreSQL CPU per turn).
   * Without parameters (BEGIN, DDL, several statements in one text) it goes unnamed through the simple protocol.
   */
  private statement(sql: string, params: unknown[]): pg.QueryConfig {
    if (params.length === 0) return { text: sql };
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < NAMED_LIMIT) {
      name = `aalis_${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    return name === undefined ? { text: sql, values: params } : { name, text: sql, values: params };
  }

  /** A client or the pool whose `query(text, values)` calls name their statements (other call forms pass through). */
  private naming(target: Queryable): Queryable {
    const query = (text: unknown, values?: unknown, ...rest: unknown[]) =>
      typeof text === 'string' && Array.isArray(values) && rest.length === 0
        ? target.query(this.statement(text, values))
        : (target.query as (...args: unknown[]) => unknown).call(target, text, values, ...rest);
    // pg's query is overloaded (callbacks, streams, configs); this forwards every form, so the cast keeps its type.
    return { query } as unknown as Queryable;
  }

  /** Runs `fn` inside BEGIN … COMMIT on one client (ROLLBACK on throw); its statements are named as `query`'s. */
  async transaction<T>(fn: (client: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(this.naming(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Applies the namespace's migrations not applied yet, each in its own transaction, under an advisory lock so
   * processes starting together apply each one once. Returns the versions applied.
   */
  async migrate(namespace: string, migrations: readonly PostgresMigration[]): Promise<number[]> {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    sorted.forEach((migration, index) => {
      if (migration.version !== index + 1) {
        throw new Error(
          `Migrations of "${namespace}" must be numbered 1, 2, 3… without gaps (found ${migration.version}).`,
        );
      }
    });
    const client = await this.pool.connect();
    const applied: number[] = [];
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        namespace TEXT NOT NULL,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL,
        PRIMARY KEY (namespace, version)
      )`);
      const current = await currentVersion(client, namespace);
      for (const migration of sorted) {
        if (migration.version <= current) continue;
        await client.query('BEGIN');
        try {
          if (typeof migration.up === 'string') await client.query(migration.up);
          else await migration.up(client);
          await client.query(
            'INSERT INTO schema_migrations (namespace, version, name, applied_at) VALUES ($1, $2, $3, $4)',
            [namespace, migration.version, migration.name, Date.now()],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    return applied;
  }

  async schemaVersion(namespace: string): Promise<number> {
    return currentVersion(this.pool, namespace);
  }

  /** Calls `fn` with each NOTIFY payload on `channel` (one dedicated connection for every channel). */
  async listen(channel: string, fn: (payload: string) => void): Promise<() => void> {
    const client = await this.listenerClient();
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * Calls `fn` after the listening connection was lost and made again: notifications sent meanwhile were missed,
   * so listeners re-check what they wait for. Returns the remover.
   */
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn);
    return () => void this.reconnectListeners.delete(fn);
  }

  /**
   * Calls `fn` when the listening connection broke: until `onReconnect` fires, notifications are missed, so what
   * is kept current by them (caches) must not be trusted. Returns the remover.
   */
  onListenerLost(fn: () => void): () => void {
    this.lostListeners.add(fn);
    return () => void this.lostListeners.delete(fn);
  }

  /** Whether the listening connection is up (notifications on the channels listened to arrive). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  private listenerClient(): Promise<pg.Client> {
    this.listenerReady ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      let lost = false;
      // The server went away or the connection broke: listen again on a new connection (every channel), shortly.
      const onLost = () => {
        if (lost || this.closed) return;
        lost = true;
        if (this.listener === client) this.listener = undefined;
        this.listenerReady = undefined;
        for (const fn of [...this.lostListeners]) fn();
        setTimeout(() => void this.relisten(), 500).unref();
      };
      client.on('error', onLost);
      client.on('end', onLost);
      client.on('notification', (message) => {
        for (const fn of this.channels.get(message.channel) ?? []) fn(message.payload ?? '');
      });
      try {
        await client.connect();
      } catch (error) {
        this.listenerReady = undefined;
        throw error;
      }
      this.listener = client;
      return client;
    })();
    return this.listenerReady;
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.listenerClient();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      for (const fn of [...this.reconnectListeners]) fn();
    } catch {
      this.listenerReady = undefined;
      if (!this.closed) setTimeout(() => void this.relisten(), 1000).unref();
    }
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listener?.end().catch(() => {});
    await this.pool.end();
  }
}

async function currentVersion(client: Queryable, namespace: string): Promise<number> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t");
  if (exists.rows[0]?.t == null) return 0;
  const result = await client.query<{ version: number | null }>(
    'SELECT MAX(version) AS version FROM schema_migrations WHERE namespace = $1',
    [namespace],
  );
  return result.rows[0]?.version ?? 0;
}
