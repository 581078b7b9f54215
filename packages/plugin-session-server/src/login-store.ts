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
];

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
  create(userId: string, ttlMs: number, now = Date.now()): { cookie: string; login: Login } {
    const cookie = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const key = hashOf(cookie);
    const expiresAt = now + ttlMs;
    this.database.write((connection) => {
      connection.prepare('DELETE FROM webui_logins WHERE expires_at < ?').run(now);
      connection
        .prepare(
          'INSERT INTO webui_logins (cookie_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(key, userId, csrfToken, now, expiresAt);
    });
    return { cookie, login: { userId, csrfToken, expiresAt, key } };
  }

  lookup(cookie: string | undefined, now = Date.now()): LoginLookup {
    if (!cookie || cookie.length > 128) return { status: 'none' };
    const key = hashOf(cookie);
    const row = this.database
      .statement('SELECT user_id, csrf_token, expires_at FROM webui_logins WHERE cookie_hash = ?')
      .get(key) as { user_id: string; csrf_token: string; expires_at: number } | undefined;
    if (!row) return { status: 'expired' };
    if (row.expires_at <= now) return { status: 'expired' };
    return { status: 'ok', login: { userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at, key } };
  }

  end(key: string): void {
    this.database.write((connection) => connection.prepare('DELETE FROM webui_logins WHERE cookie_hash = ?').run(key));
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
