// @aalis/postgres: the PostgreSQL engine (pg Pool): shared pool per database URL, transactions, versioned
// migrations with a version table, LISTEN/NOTIFY.
export { openPostgres, type PostgresLease } from './open-postgres.js';
export { PostgresDatabase, type PostgresMigration, type Queryable } from './postgres-database.js';
export { isPostgresUrl, redactUrl } from './postgres-url.js';
