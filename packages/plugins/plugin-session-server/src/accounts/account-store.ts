// Accounts made from the page, and the passwords of every account (the YAML-declared ones too), in the storage
// engine's database: SQLite in the data directory or PostgreSQL shared by every process. Reads are synchronous
// (every request checks its account): SQLite reads the table, PostgreSQL a copy in this process kept current by
// NOTIFY (as plugin-authority keeps its levels).
import type { StorageService } from '@aalis/api-storage';
import type { SqliteDatabase } from '@aalis/sqlite';

type PostgresDatabase = ReturnType<StorageService['postgres']>;

/**
 * One stored account. `origin` 'page': made from the page (its row is the account); 'config': declared in YAML,
 * the row holds only its password (and counts only while the YAML still declares it).
 */
export interface StoredAccount {
  userId: string;
  origin: 'page' | 'config';
  displayName?: string;
  /** The argon2id hash (PHC string); never leaves the server. */
  passwordHash?: string;
  createdAt: number;
  updatedAt: number;
  passwordSetAt?: number;
}

export interface AccountChanges {
  /** null removes it. */
  displayName?: string | null;
  /** null removes the password (only link logins then). */
  passwordHash?: string | null;
}

export interface AccountStore {
  get(userId: string): StoredAccount | undefined;
  /** Every stored account, by userId. */
  list(): StoredAccount[];
  /** Adds an account; false (nothing written) when the id is taken. */
  create(account: {
    userId: string;
    origin: StoredAccount['origin'];
    displayName?: string;
    passwordHash?: string;
  }): Promise<boolean>;
  /** Changes an account; undefined (nothing written) when there is none. */
  update(userId: string, changes: AccountChanges): Promise<StoredAccount | undefined>;
  /** Sets `passwordHash` only if the stored hash is still `expected` (undefined: none): false otherwise. */
  replacePassword(userId: string, expected: string | undefined, passwordHash: string): Promise<boolean>;
  delete(userId: string): Promise<boolean>;
}

const TABLE = (bigint: string) => `CREATE TABLE webui_accounts (
  user_id TEXT PRIMARY KEY,
  origin TEXT NOT NULL,
  display_name TEXT,
  password_hash TEXT,
  created_at ${bigint} NOT NULL,
  updated_at ${bigint} NOT NULL,
  password_set_at ${bigint}
)`;
const NAMESPACE = 'session-server-accounts';
const CHANNEL = 'aalis_webui_accounts';
const COLUMNS = 'user_id, origin, display_name, password_hash, created_at, updated_at, password_set_at';

interface Row {
  user_id: string;
  origin: string;
  display_name: string | null;
  password_hash: string | null;
  created_at: number | string;
  updated_at: number | string;
  password_set_at: number | string | null;
}

function accountOf(row: Row): StoredAccount {
  const account: StoredAccount = {
    userId: row.user_id,
    origin: row.origin === 'config' ? 'config' : 'page',
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.display_name !== null) account.displayName = row.display_name;
  if (row.password_hash !== null) account.passwordHash = row.password_hash;
  if (row.password_set_at !== null) account.passwordSetAt = Number(row.password_set_at);
  return account;
}

/** The UPDATE of `changes`: its SET list and values (`?` placeholders). */
function updateOf(changes: AccountChanges, now: number): { set: string; values: unknown[] } {
  const parts = ['updated_at = ?'];
  const values: unknown[] = [now];
  if (changes.displayName !== undefined) {
    parts.push('display_name = ?');
    values.push(changes.displayName);
  }
  if (changes.passwordHash !== undefined) {
    parts.push('password_hash = ?', 'password_set_at = ?');
    values.push(changes.passwordHash, changes.passwordHash === null ? null : now);
  }
  return { set: parts.join(', '), values };
}

export function sqliteAccountStore(database: SqliteDatabase, now: () => number = Date.now): AccountStore {
  database.migrate(NAMESPACE, [{ version: 1, name: 'accounts', up: TABLE('INTEGER') }]);
  const read = (userId: string) =>
    database.statement(`SELECT ${COLUMNS} FROM webui_accounts WHERE user_id = ?`).get(userId) as Row | undefined;
  return {
    get(userId) {
      const row = read(userId);
      return row ? accountOf(row) : undefined;
    },
    list() {
      const rows = database.statement(`SELECT ${COLUMNS} FROM webui_accounts ORDER BY user_id`).all() as Row[];
      return rows.map(accountOf);
    },
    async create({ userId, origin, displayName, passwordHash }) {
      const at = now();
      return database.write(
        (connection) =>
          connection
            .prepare(`INSERT OR IGNORE INTO webui_accounts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
            .run(userId, origin, displayName ?? null, passwordHash ?? null, at, at, passwordHash ? at : null)
            .changes === 1,
      );
    },
    async update(userId, changes) {
      const { set, values } = updateOf(changes, now());
      const changed = database.write(
        (connection) =>
          connection.prepare(`UPDATE webui_accounts SET ${set} WHERE user_id = ?`).run(...values, userId).changes,
      );
      return changed === 1 ? accountOf(read(userId)!) : undefined;
    },
    async replacePassword(userId, expected, passwordHash) {
      const at = now();
      return database.write(
        (connection) =>
          connection
            .prepare(
              `UPDATE webui_accounts SET password_hash = ?, password_set_at = ?, updated_at = ?
               WHERE user_id = ? AND password_hash IS ?`,
            )
            .run(passwordHash, at, at, userId, expected ?? null).changes === 1,
      );
    },
    async delete(userId) {
      return database.write(
        (connection) => connection.prepare('DELETE FROM webui_accounts WHERE user_id = ?').run(userId).changes === 1,
      );
    },
  };
}

const numbered = (sql: string) => {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
};

export async function postgresAccountStore(
  database: PostgresDatabase,
  now: () => number = Date.now,
): Promise<AccountStore & { close(): void }> {
  await database.migrate(NAMESPACE, [{ version: 1, name: 'accounts', up: TABLE('BIGINT') }]);
  const copy = new Map<string, StoredAccount>();
  const reload = async (userId: string) => {
    const rows = await database.query<Row>(`SELECT ${COLUMNS} FROM webui_accounts WHERE user_id = $1`, [userId]);
    if (rows[0]) copy.set(userId, accountOf(rows[0]));
    else copy.delete(userId);
  };
  const unlisten = await database.listen(CHANNEL, (userId) => void reload(userId).catch(() => {}));
  const reloadAll = async () => {
    const rows = await database.query<Row>(`SELECT ${COLUMNS} FROM webui_accounts`);
    copy.clear();
    for (const row of rows) copy.set(row.user_id, accountOf(row));
  };
  // Changes made while the listening connection was down were not heard: read everything again.
  const offReconnect = database.onReconnect(() => void reloadAll().catch(() => {}));
  await reloadAll();
  /** Runs a change and tells every process (this one too) to read the row again. */
  const change = async (userId: string, sql: string, values: unknown[]): Promise<number> => {
    const changed = await database.transaction(async (client) => {
      const result = await client.query(numbered(sql), values);
      if ((result.rowCount ?? 0) > 0) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, userId]);
      return result.rowCount ?? 0;
    });
    await reload(userId);
    return changed;
  };
  return {
    get: (userId) => copy.get(userId),
    list: () => [...copy.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)),
    async create({ userId, origin, displayName, passwordHash }) {
      const at = now();
      const changed = await change(
        userId,
        `INSERT INTO webui_accounts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING`,
        [userId, origin, displayName ?? null, passwordHash ?? null, at, at, passwordHash ? at : null],
      );
      return changed === 1;
    },
    async update(userId, changes) {
      const { set, values } = updateOf(changes, now());
      const changed = await change(userId, `UPDATE webui_accounts SET ${set} WHERE user_id = ?`, [...values, userId]);
      return changed === 1 ? copy.get(userId) : undefined;
    },
    async replacePassword(userId, expected, passwordHash) {
      const at = now();
      const changed = await change(
        userId,
        `UPDATE webui_accounts SET password_hash = ?, password_set_at = ?, updated_at = ?
         WHERE user_id = ? AND password_hash IS NOT DISTINCT FROM ?`,
        [passwordHash, at, at, userId, expected ?? null],
      );
      return changed === 1;
    },
    async delete(userId) {
      return (await change(userId, 'DELETE FROM webui_accounts WHERE user_id = ?', [userId])) === 1;
    },
    close() {
      unlisten();
      offReconnect();
    },
  };
}
