// @aalis/postgres: the PostgreSQL engine (pg Pool): shared pool per database URL, transactions, versioned
// migrations with a version table, LISTEN/NOTIFY, and the shared store of run-time service preferences.
export { openPostgres, type PostgresLease } from './open-postgres.js';
export { PostgresDatabase, type PostgresMigration, type Queryable } from './postgres-database.js';
export {
  PostgresPreferences,
  PREFERENCES_CHANNEL,
  PREFERENCES_MIGRATIONS,
  PREFERENCES_NAMESPACE,
  type PreferenceRow,
  type PreferencesChanged,
  type PreferenceWrite,
} from './postgres-preferences.js';
export { isPostgresUrl, redactUrl } from './postgres-url.js';
