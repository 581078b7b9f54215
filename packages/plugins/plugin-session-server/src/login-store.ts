// Persisted login state in the data directory's database (namespace 'session-server'): logins by the SHA-256 of
// their cookie (the cookie itself is never stored), used link nonces (a link works once, across restarts too), and
// each account's read marks.
import { createHash, randomBytes } from 'node:crypto';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

const NAMESPACE = 'session-server';

const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'logins',
    up: `
      CREATE TABLE webui_logins (
        cookie_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        csrf_token TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE webui_used_links (
        nonce TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE webui_read_marks (
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        read_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, session_id)
      );
    `,
  },
  {
    version: 2,
    name: 'login devices',
    up: `
      ALTER TABLE webui_logins ADD COLUMN user_agent TEXT;
      ALTER TABLE webui_logins ADD COLUMN last_used_at INTEGER;
      ALTER TABLE webui_logins ADD COLUMN method TEXT;
      CREATE INDEX webui_logins_user ON webui_logins (user_id);
    `,
  },
];

/** A login's last use is written at most this often (every request reads the login; few need to write it). */
const TOUCH_EVERY_MS = 60_000;
/** Most characters of a user agent kept. */
const USER_AGENT_CHARS = 300;

/** How a login was made. */
export type LoginMethod = 'link' | 'password';

/** One login of an account as its owner sees it (account.sessions.list). */
export interface LoginInfo {
  /** A public id: the first 16 hex digits of the login's hash (the cookie cannot be derived from it). */
  id: string;
  /** The hash the login is stored by. */
  key: string;
  userAgent?: string;
  method?: LoginMethod;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

/** The public id of a login key. */
export function loginIdOf(key: string): string {
  return key.slice(0, 16);
}

export interface Login {
  userId: string;
  csrfToken: string;
  expiresAt: number;
  /** The hash the login is stored by (to end it). */
  key: string;
}

export type LoginLookup = { status: 'ok'; login: Login } | { status: 'none' } | { status: 'expired' };

function hashOf(cookie: string): string {
  return createHash('sha256').update(cookie).digest('hex');
}

export class LoginStore {
  constructor(private readonly database: SqliteDatabase) {
    database.migrate(NAMESPACE, migrations);
  }

  /** Records a link nonce as used; false when it was used before. */
  useNonce(nonce: string, expiresAt: number, now = Date.now()): boolean {
    return this.database.write((connection) => {
      connection.prepare('DELETE FROM webui_used_links WHERE expires_at < ?').run(now);
      return (
        connection
          .prepare('INSERT OR IGNORE INTO webui_used_links (nonce, expires_at) VALUES (?, ?)')
          .run(nonce, expiresAt).changes === 1
      );
    });
  }

  /** Starts a login; returns the cookie value (shown once) and the login. */
  create(
    userId: string,
    ttlMs: number,
    now = Date.now(),
    device: { userAgent?: string; method?: LoginMethod } = {},
  ): { cookie: string; login: Login } {
    const cookie = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const key = hashOf(cookie);
    const expiresAt = now + ttlMs;
    this.database.write((connection) => {
      connection.prepare('DELETE FROM webui_logins WHERE expires_at < ?').run(now);
      connection
        .prepare(
          `INSERT INTO webui_logins (cookie_hash, user_id, csrf_token, created_at, expires_at, user_agent, last_used_at,
           method) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          key,
          userId,
          csrfToken,
          now,
          expiresAt,
          device.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
          now,
          device.method ?? null,
        );
    });
    return { cookie, login: { userId, csrfToken, expiresAt, key } };
  }

  lookup(cookie: string | undefined, now = Date.now()): LoginLookup {
    if (!cookie || cookie.length > 128) return { status: 'none' };
    const key = hashOf(cookie);
    const row = this.database
      .statement('SELECT user_id, csrf_token, expires_at, last_used_at FROM webui_logins WHERE cookie_hash = ?')
      .get(key) as { user_id: string; csrf_token: string; expires_at: number; last_used_at: number | null } | undefined;
    if (!row) return { status: 'expired' };
    if (row.expires_at <= now) return { status: 'expired' };
    if (row.last_used_at === null || now - row.last_used_at >= TOUCH_EVERY_MS) {
      void this.database
        .writeSoon((connection) =>
          connection.prepare('UPDATE webui_logins SET last_used_at = ? WHERE cookie_hash = ?').run(now, key),
        )
        .catch(() => {});
    }
    return { status: 'ok', login: { userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at, key } };
  }

  end(key: string): void {
    this.database.write((connection) => connection.prepare('DELETE FROM webui_logins WHERE cookie_hash = ?').run(key));
  }

  /** The account's logins that have not expired, most recently used first. */
  loginsOf(userId: string, now = Date.now()): LoginInfo[] {
    const rows = this.database
      .statement(
        `SELECT cookie_hash, user_agent, method, created_at, last_used_at, expires_at FROM webui_logins
         WHERE user_id = ? AND expires_at > ? ORDER BY COALESCE(last_used_at, created_at) DESC`,
      )
      .all(userId, now) as {
      cookie_hash: string;
      user_agent: string | null;
      method: string | null;
      created_at: number;
      last_used_at: number | null;
      expires_at: number;
    }[];
    return rows.map((row) => ({
      id: loginIdOf(row.cookie_hash),
      key: row.cookie_hash,
      ...(row.user_agent !== null ? { userAgent: row.user_agent } : {}),
      ...(row.method === 'link' || row.method === 'password' ? { method: row.method } : {}),
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at ?? row.created_at,
      expiresAt: row.expires_at,
    }));
  }

  /** Ends every login of an account (deleted); returns their keys, to close their sockets. */
  endAll(userId: string): string[] {
    return this.database.write((connection) => {
      const keys = (
        connection.prepare('SELECT cookie_hash FROM webui_logins WHERE user_id = ?').all(userId) as {
          cookie_hash: string;
        }[]
      ).map((row) => row.cookie_hash);
      connection.prepare('DELETE FROM webui_logins WHERE user_id = ?').run(userId);
      return keys;
    });
  }

  markRead(userId: string, sessionId: string, at = Date.now()): void {
    this.database.write((connection) =>
      connection
        .prepare(
          `INSERT INTO webui_read_marks (user_id, session_id, read_at) VALUES (?, ?, ?)
           ON CONFLICT (user_id, session_id) DO UPDATE SET read_at = excluded.read_at`,
        )
        .run(userId, sessionId, at),
    );
  }

  /** The account's read mark of one session (one indexed lookup; the list row of a change needs only this). */
  readMark(userId: string, sessionId: string): number | undefined {
    const row = this.database
      .statement('SELECT read_at FROM webui_read_marks WHERE user_id = ? AND session_id = ?')
      .get(userId, sessionId) as { read_at: number } | undefined;
    return row?.read_at;
  }

  readMarks(userId: string): Map<string, number> {
    const rows = this.database
      .statement('SELECT session_id, read_at FROM webui_read_marks WHERE user_id = ?')
      .all(userId) as { session_id: string; read_at: number }[];
    return new Map(rows.map((row) => [row.session_id, row.read_at]));
  }

  forgetSession(sessionId: string): void {
    this.database.write((connection) =>
      connection.prepare('DELETE FROM webui_read_marks WHERE session_id = ?').run(sessionId),
    );
  }
}
