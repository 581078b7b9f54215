// @aalis/postgres: the PostgreSQL engine (pg Pool): shared pool per database URL, transactions, versioned
// migrations with a version table, LISTEN/NOTIFY.
export { isPostgresUrl, openPostgres, type PostgresLease, redactUrl } from './open-postgres.js';
export { PostgresDatabase, type PostgresMigration, type Queryable } from './postgres-database.js';
