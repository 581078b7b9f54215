// @aalis/api-storage: the storage service contract: where the data directory is and which database engine holds
// every store: the data directory's SQLite database (the embedded default) or a PostgreSQL server (`database:`,
// AALIS_DATABASE_URL), shared by every process of a deployment.
import { defineErrors, defineService, type ServiceDescriptor } from '@aalis/core';
import type { PostgresDatabase } from '@aalis/postgres';
import type { SqliteDatabase } from '@aalis/sqlite';

export type StorageEngine = 'sqlite' | 'postgres';

export interface StorageService {
  /** Absolute path of the data directory (database, personas, logs). */
  readonly dataDir: string;
  /** Which engine holds the stores: every store plugin picks its implementation by it. */
  readonly engine: StorageEngine;
  /** The data directory's SQLite database (engine 'sqlite'; else AALIS_STORAGE_WRONG_ENGINE). */
  database(): SqliteDatabase;
  /** The PostgreSQL database (engine 'postgres'; else AALIS_STORAGE_WRONG_ENGINE). */
  postgres(): PostgresDatabase;
  /** An absolute path inside the data directory. */
  resolve(...segments: string[]): string;
  /** The named leases in this engine's database (one turn per session, platform connections once per deployment). */
  leases(): LeasesService;
  /** The durable hand-over queues in this engine's database (inputs handed to a session's owner, for example). */
  handOver(): HandOverService;
}

/**
 * A store plugin's store on the engine the stores are in: `postgres` is given the PostgreSQL database, `sqlite` the
 * data directory's SQLite database. One place that picks, so no store opens the other engine's database.
 */
export async function openStore<Store>(
  storage: Pick<StorageService, 'engine' | 'database' | 'postgres'>,
  open: { sqlite: (database: SqliteDatabase) => Store; postgres: (database: PostgresDatabase) => Promise<Store> },
): Promise<Store> {
  return storage.engine === 'postgres' ? await open.postgres(storage.postgres()) : open.sqlite(storage.database());
}

export const storageErrors = defineErrors({
  AALIS_STORAGE_WRONG_ENGINE: {
    en: 'The {wanted} database was asked for, but the stores are in {engine}. A store must use storage.engine to pick its implementation.',
    'zh-CN': '请求的是 {wanted} 数据库，但存储在 {engine} 里。存储实现应按 storage.engine 选择自己的实现。',
  },
  AALIS_STORAGE_DATABASE_INVALID: {
    en: '`database` (or AALIS_DATABASE_URL) must be empty (the SQLite database in the data directory) or a postgres:// URL; received {received}.',
    'zh-CN':
      'database（或 AALIS_DATABASE_URL）应为空（用数据目录里的 SQLite 数据库）或一个 postgres:// 地址；实际为 {received}。',
  },
  AALIS_STORAGE_DATABASE_UNREACHABLE: {
    en: 'The database {url} cannot be used: {reason}. Check `database` (or AALIS_DATABASE_URL): a postgres:// URL of a running server the user can connect to.',
    'zh-CN':
      '数据库 {url} 用不了：{reason}。请检查 database（或 AALIS_DATABASE_URL）：应是一个正在运行、可以连上的服务器的 postgres:// 地址。',
  },
});

export const storage: ServiceDescriptor<StorageService> = defineService<StorageService>('storage');

/** A named lease this process holds in the database (see LeasesService). */
export interface Lease {
  readonly name: string;
  /**
   * What the previous holder had noted when it lost the lease without releasing it (it died or stalled past the
   * lease's expiry): a dying turn's id, for example. Undefined when the lease was free or released cleanly.
   */
  readonly takenOver: { note: string | undefined } | undefined;
  /** Who held the name last (this process's `holder` or another's); undefined for a name never held. */
  readonly previousHolder: string | undefined;
  /** Aborted when this process lost the lease (its heartbeat could not renew it before it expired). */
  readonly lost: AbortSignal;
  /** Keeps a note in the lease row (seen by the next holder as `takenOver.note` if this one dies). */
  note(note: string | undefined): Promise<void>;
  /** Gives the lease back (the next waiter, in any process, gets it at once). */
  release(): Promise<void>;
}

/**
 * Named leases in the storage engine's database, shared by every process on it (SQLite: one data directory;
 * PostgreSQL: every host): at most one process holds a name at a time. A holder renews its leases by heartbeat; a
 * process that dies loses them when they expire (`ttlMs`, a few seconds). Used for one turn per session across
 * processes and for platform connections that run once per deployment.
 */
export interface LeasesService {
  /**
   * Waits until this process holds `name`; undefined when `signal` aborted first. A release anywhere wakes the
   * waiter at once; `pollMs` is how often it asks again meanwhile (to notice a holder that died), default the
   * engine's own short interval. `note` is kept in the lease from the moment it is held, as `Lease.note` would keep
   * it (SQLite writes it in the claim's own transaction: one commit fewer).
   */
  acquire(name: string, options?: { signal?: AbortSignal; pollMs?: number; note?: string }): Promise<Lease | undefined>;
  /** Holds `name` at once if it is free (with `note` kept in it, as for acquire); undefined otherwise. */
  tryAcquire(name: string, options?: { note?: string }): Promise<Lease | undefined>;
  /** Names starting with `prefix` whose holder stopped renewing them without releasing them (it died). */
  abandoned(prefix: string): Promise<string[]>;
  /** How long a lease outlives its holder's last heartbeat. */
  readonly ttlMs: number;
  /** This process's holder id (host, pid and a random part). */
  readonly holder: string;
}

/** One item of a hand-over queue, as its taker sees it. */
export interface HandOverItem {
  /** Increasing in the order the items were put: arrival order. */
  readonly id: number;
  readonly name: string;
  readonly payload: string;
  /** What a taker kept with the item (`note`): the turn it entered, for example. */
  readonly note: string | undefined;
  /**
   * Another holder took the item before and lost the name's lease without finishing it (it died or stalled): the
   * item may already have been acted on (see its note).
   */
  readonly orphaned: boolean;
}

/**
 * Durable queues keyed by lease name, shared by every process on the engine's database: any process puts an item
 * for a name; the process holding the name's lease (LeasesService) takes the items oldest first and finishes each
 * with an outcome, which wakes whoever waits for it (`settled`) in any process. Items taken by a holder that lost
 * the lease without finishing them are taken again by the next holder (`orphaned`). PostgreSQL wakes takers and
 * waiters by NOTIFY; SQLite by a short poll.
 */
export interface HandOverService {
  /** Stores an item for `name`; its id orders it after every item put before. */
  put(name: string, payload: string): Promise<{ id: number }>;
  /**
   * Called by the holder of `name`'s lease: marks the items waiting for the name (and those a holder that lost the
   * lease had taken) as taken by this process and returns them oldest first (at most `limit`). Two takers never get
   * the same item (FOR UPDATE SKIP LOCKED).
   */
  take(name: string, options?: { limit?: number }): Promise<HandOverItem[]>;
  /** Keeps a note with a taken item, seen by the next taker if this one dies before finishing it. */
  note(id: number, note: string | undefined): Promise<void>;
  /** Ends the item with its outcome and wakes its waiters in every process. Finishing twice keeps the first. */
  finish(id: number, outcome: string): Promise<void>;
  /** Resolves with the item's outcome once it is finished; undefined when `signal` aborted first. */
  settled(id: number, options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /**
   * Calls `listener` with the name of each item put (by any process) from now on; `mine` when this process put it
   * (told on the next turn of the event loop after its put resolved). Returns the remover.
   */
  onPut(listener: (name: string, mine: boolean) => void): () => void;
  /**
   * Names starting with `prefix` that have items nobody live holds: waiting ones, or ones taken by a holder that
   * lost the name's lease. A sweeper takes such names over when their lease is free. With `olderThanMs`, waiting
   * items count only once they have waited that long (their own process is about to take them).
   */
  waiting(prefix: string, options?: { olderThanMs?: number }): Promise<string[]>;
  /** Calls `listener` with each signal sent for a name (by any process; SQLite: this process only). */
  onSignal(listener: (name: string, text: string) => void): () => void;
  /** Sends a short signal for a name to every process (e.g. "stop the running turn" to the session's owner). */
  signal(name: string, text: string): Promise<void>;
}

export { HandOverTaker, type HandOverTakerOptions } from './hand-over-taker.js';
export { storageFailure } from './storage-failure.js';
