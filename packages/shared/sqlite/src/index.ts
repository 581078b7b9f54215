// @aalis/sqlite: the one SQLite access layer (better-sqlite3): shared connection per data directory, WAL,
// BEGIN IMMEDIATE writes, versioned migrations.
export { DATABASE_FILE, type DatabaseLease, openDatabase } from './open-database.js';
export { type ChangeTokens, RowCache } from './row-cache.js';
export { type Connection, type Migration, SqliteDatabase } from './sqlite-database.js';
