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
