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
}

export const storageErrors = defineErrors({
  AALIS_STORAGE_WRONG_ENGINE: {
    en: 'The {wanted} database was asked for, but the stores are in {engine}. A store must use storage.engine to pick its implementation.',
    'zh-CN': '请求的是 {wanted} 数据库,但存储在 {engine} 里。存储实现应按 storage.engine 选择自己的实现。',
  },
  AALIS_STORAGE_DATABASE_INVALID: {
    en: '`database` (or AALIS_DATABASE_URL) must be empty (the SQLite database in the data directory) or a postgres:// URL; received {received}.',
    'zh-CN':
      'database(或 AALIS_DATABASE_URL)应为空(用数据目录里的 SQLite 数据库)或一个 postgres:// 地址;实际为 {received}。',
  },
  AALIS_STORAGE_DATABASE_UNREACHABLE: {
    en: 'The database {url} cannot be used: {reason}. Check `database` (or AALIS_DATABASE_URL): a postgres:// URL of a running server the user can connect to.',
    'zh-CN':
      '数据库 {url} 用不了:{reason}。请检查 database(或 AALIS_DATABASE_URL):应是一个正在运行、可以连上的服务器的 postgres:// 地址。',
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
  /** Waits until this process holds `name`; undefined when `signal` aborted first. */
  acquire(name: string, options?: { signal?: AbortSignal }): Promise<Lease | undefined>;
  /** Holds `name` at once if it is free; undefined otherwise. */
  tryAcquire(name: string): Promise<Lease | undefined>;
  /** Names starting with `prefix` whose holder stopped renewing them without releasing them (it died). */
  abandoned(prefix: string): Promise<string[]>;
  /** How long a lease outlives its holder's last heartbeat. */
  readonly ttlMs: number;
  /** This process's holder id (host, pid and a random part). */
  readonly holder: string;
}
