// Which thrown errors mean "the database cannot be used right now" (PostgreSQL gone or restarting, the disk full, the
// file unreadable or locked) rather than a bug or a refused write: the session server answers those 503 with a code
// the client can act on (try again), and the agent retries writing a finished reply on them (never on a constraint
// violation or any other error, which a retry cannot cure). Recognised by their shape (code, SQLSTATE, message), so
// neither driver is imported here.

/** Node's codes of a connection that could not be made or was cut. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve: class 08 (connection exception), 53 (insufficient resources:
 * disk full, out of memory, too many connections), 57P01–57P03 (shut down by an administrator, a crash, starting up),
 * 58 (system error: I/O).
 */
const POSTGRES_STATES = /^(08|53|57P0[123]|58)/;

/** SQLite's result codes of a database that cannot be written or read (full disk, I/O, locked, read-only, gone). */
const SQLITE_CODES = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|CANTOPEN|NOMEM|PROTOCOL)/;

/** node-postgres's messages for a connection it lost or could not get (they carry no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'database or disk is full',
];

/**
 * The code that names why the database cannot be used (e.g. ECONNREFUSED, 57P01, SQLITE_FULL, or 'CONNECTION_LOST'
 * for the driver's own messages), or undefined when the error is something else. Follows `cause` a few levels.
 */
export function storageFailure(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || SQLITE_CODES.test(code)) return code;
      if (code.length === 5 && POSTGRES_STATES.test(code)) return code;
    }
    if (typeof message === 'string') {
      const known = DRIVER_MESSAGES.find((text) => message.includes(text));
      if (known !== undefined) return known === 'database or disk is full' ? 'SQLITE_FULL' : 'CONNECTION_LOST';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
